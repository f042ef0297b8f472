package openai

import (
	"strings"
	"unicode/utf8"
)

// Every string the client makes from what a server sent (an error's
// message, type and code, a request ID, a piece of a body, the text of a
// transport error, a log record) goes through [Client.clean] before it is
// cut or shown: a server or proxy that echoes the API key, whole or in
// part, must not put it into an error or a log.

// minRedact is the shortest key removed from server text: shorter values
// are placeholders (Ollama's docs use "ollama"), and scrubbing them would
// garble the message, not protect a secret.
const minRedact = 8

// minPartial is the shortest start of the key removed from the end of a
// text (where the text was cut, by the server or by the client). A
// shorter one ("sk-") says nothing secret.
const minPartial = 4

// redacted replaces the key in text.
const redacted = "[REDACTED]"

// maxMessage caps a message, type, code or request ID taken from a
// server's answer.
const maxMessage = 300

// secret returns the key, or "" if it is too short to be redacted.
func (c *Client) secret() string {
	if c == nil || c.key == nil {
		return ""
	}
	if key := c.key(); len(key) >= minRedact {
		return key
	}
	return ""
}

// redact removes the key from s wherever it appears.
func (c *Client) redact(s string) string {
	if key := c.secret(); key != "" {
		s = strings.ReplaceAll(s, key, redacted)
	}
	return s
}

// clean makes text from a server fit for an error or a log record: the
// key removed, valid UTF-8, white space collapsed to single spaces, at
// most limit bytes (plus the marks it adds), and no start of the key left
// at its end. The key is removed before the text is cut, so that a cut
// cannot split a key and leave its first part to be shown.
func (c *Client) clean(s string, limit int) string {
	s = c.redact(s)
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), " ")
	s = c.redact(s) // the repairs above could, in theory, have formed it
	cut := len(s) > limit
	if cut {
		n := limit
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		// Keep a mark the cut falls in whole, so that it still says what
		// was there.
		if i := strings.LastIndex(s[:min(len(s), n+len(redacted)-1)], redacted); i >= 0 && i < n && i+len(redacted) > n {
			n = i + len(redacted)
		}
		s = s[:n]
	}
	s = c.trimKeyStart(s)
	if cut {
		s += "…"
	}
	return s
}

// trimKeyStart replaces a start of the key (of minPartial bytes or more)
// at the end of s, which is what a cut through the key leaves.
func (c *Client) trimKeyStart(s string) string {
	key := c.secret()
	for n := min(len(key)-1, len(s)); n >= minPartial; n-- {
		if strings.HasSuffix(s, key[:n]) {
			return s[:len(s)-n] + redacted
		}
	}
	return s
}

// excerpt is the start of a body that could not be used, cleaned, to
// show in an error.
func (c *Client) excerpt(body []byte) string {
	const n = 80
	// Clean a little more than is shown, so that a key that straddles
	// the cut is recognised whole before it is cut.
	end := min(len(body), n+len(c.secret())+utf8.UTFMax)
	return c.clean(string(body[:end]), n)
}

// A textError shows msg and wraps err for errors.Is and errors.As: an
// error whose text may hold what a server sent (a transport or JSON error
// quoting the bytes it could not read), shown cleaned, or an error of
// several sentinels shown with one "openai: " (see [errorf]).
type textError struct {
	msg string
	err error
}

func (e *textError) Error() string { return e.msg }
func (e *textError) Unwrap() error { return e.err }

// cleanError wraps err so that its text is cleaned (without a length cap:
// transport errors are short, and cutting them would hide their cause).
func (c *Client) cleanError(err error) error {
	if err == nil {
		return nil
	}
	return &textError{msg: c.clean(err.Error(), maxErrorText), err: err}
}

// maxErrorText caps the text of a transport or decoding error.
const maxErrorText = 1000
