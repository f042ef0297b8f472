package loader

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// clean returns a file's text as a document holds it: without a leading
// byte-order mark, without control characters other than tab, newline
// and carriage return, and valid UTF-8 (invalid bytes replaced with
// U+FFFD, or an error wrapping ErrInvalidUTF8, as the policy says). Text
// of nothing but white space is an error wrapping ErrEmpty.
func clean(b []byte, policy Policy) (string, Repair, error) {
	var rep Repair
	if rest, ok := bytes.CutPrefix(b, []byte("\uFEFF")); ok {
		b, rep.Controls = rest, 1
	}
	valid := utf8.Valid(b)
	if !valid && policy == Refuse {
		off := firstInvalid(b)
		return "", rep, fmt.Errorf("%w: an invalid byte 0x%02x at offset %d (Config.InvalidUTF8 is Refuse)", ErrInvalidUTF8, b[off], off+rep.Controls*3)
	}
	var text string
	if valid && !hasControl(b) {
		text = string(b)
	} else {
		text = rebuild(b, &rep)
	}
	if strings.TrimSpace(text) == "" {
		return "", rep, ErrEmpty
	}
	return text, rep, nil
}

// rebuild copies b without control characters, with U+FFFD for each
// invalid byte, counting both in rep.
func rebuild(b []byte, rep *Repair) string {
	var sb strings.Builder
	sb.Grow(len(b))
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		switch {
		case r == utf8.RuneError && n == 1:
			rep.InvalidBytes++
			sb.WriteRune(utf8.RuneError)
		case dropped(r):
			rep.Controls++
		default:
			sb.Write(b[:n])
		}
		b = b[n:]
	}
	return sb.String()
}

// dropped reports a control character that a document does not keep:
// every C0 and C1 control and DEL but tab, newline and carriage return.
func dropped(r rune) bool {
	return unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r'
}

// hasControl reports whether valid UTF-8 holds a character that dropped
// reports, looking at bytes: C0 and DEL are single bytes, and the C1
// controls U+0080 to U+009F are 0xC2 followed by 0x80 to 0x9F.
func hasControl(b []byte) bool {
	for i, c := range b {
		switch {
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r', c == 0x7f:
			return true
		case c == 0xc2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9f:
			return true
		}
	}
	return false
}

// firstInvalid returns the offset of the first byte of b that is not part
// of a valid UTF-8 sequence; b is not valid.
func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}
