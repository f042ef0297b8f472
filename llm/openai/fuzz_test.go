package openai

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzEventReader writes events as a server-sent event stream (with the
// variations servers use: CRLF or LF, comments, other fields, an optional
// space after the colon) and checks that the reader gives back exactly
// those events, and that it never fails on arbitrary bytes.
func FuzzEventReader(f *testing.F) {
	f.Add("{\"choices\":[]}\x00[DONE]", byte(0))
	f.Add("line one\nline two\x00\x00 leading space", byte(0xff))
	f.Add(": not a comment\x00data: nested", byte(0x5a))
	f.Fuzz(func(t *testing.T, payload string, style byte) {
		payload = strings.ReplaceAll(payload, "\r", "")
		events := strings.Split(payload, "\x00")
		stream := encodeEvents(events, style)
		got := readAll(t, strings.NewReader(stream))
		if len(got) != len(events) {
			t.Fatalf("got %d events, want %d, from %q", len(got), len(events), stream)
		}
		for i := range events {
			if got[i] != events[i] {
				t.Fatalf("event %d: got %q, want %q, from %q", i, got[i], events[i], stream)
			}
		}
		// Arbitrary bytes: no failure but EOF, and no more data than input.
		n := 0
		for _, e := range readAll(t, strings.NewReader(payload)) {
			n += len(e)
		}
		if n > len(payload) {
			t.Fatalf("%d bytes of data from %d bytes of input", n, len(payload))
		}
	})
}

// encodeEvents writes events as a stream; bits of style choose the
// variations.
func encodeEvents(events []string, style byte) string {
	eol := "\n"
	if style&1 != 0 {
		eol = "\r\n"
	}
	var b strings.Builder
	for i, e := range events {
		if style&2 != 0 {
			b.WriteString(": keep-alive" + eol + eol)
		}
		if style&4 != 0 && i%2 == 0 {
			b.WriteString("event: message" + eol + "id: 7" + eol)
		}
		for _, line := range strings.Split(e, "\n") {
			if style&8 != 0 && !strings.HasPrefix(line, " ") {
				b.WriteString("data:" + line + eol)
			} else {
				b.WriteString("data: " + line + eol)
			}
		}
		b.WriteString(eol)
	}
	return b.String()
}

func readAll(t *testing.T, r io.Reader) []string {
	var out []string
	er := newEventReader(r)
	for {
		data, err := er.next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("error %v", err)
		}
		out = append(out, string(data))
	}
}

// FuzzErrorBody checks that any error body gives a message fit for an
// error: valid UTF-8, on one line, of bounded length, and free of the key.
func FuzzErrorBody(f *testing.F) {
	f.Add([]byte(`{"error":{"message":"Incorrect API key provided: sk-abc","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`))
	f.Add([]byte(`{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}`))
	f.Add([]byte(`{"object":"error","message":"bad","type":"BadRequestError","code":400}`))
	f.Add([]byte(`{"error":"plain"}`))
	f.Add([]byte("<html>\n<body>502</body></html>"))
	f.Fuzz(func(t *testing.T, body []byte) {
		const key = "sk-fuzz-0123456789"
		c := &Client{key: func() string { return key }}
		e := &APIError{StatusCode: 400}
		parseErrorBody(e, append(body, []byte(key)...))
		e.Message = c.redact(e.Message)
		for _, s := range []string{e.Message, e.Type, e.Code} {
			if !utf8.ValidString(s) || strings.ContainsAny(s, "\n\r") || len(s) > maxMessage+len("…") {
				t.Fatalf("unfit field %q", s)
			}
		}
		if strings.Contains(e.Error(), key) {
			t.Fatalf("key in %q", e.Error())
		}
	})
}

// FuzzRetryAfter checks that no header gives a negative wait.
func FuzzRetryAfter(f *testing.F) {
	f.Add("120", "")
	f.Add("Wed, 21 Oct 2015 07:28:00 GMT", "")
	f.Add("", "1500.5")
	f.Add("-1", "-3")
	f.Add("99999999999999999999", "1e300")
	f.Fuzz(func(t *testing.T, after, afterMs string) {
		h := http.Header{}
		h.Set("Retry-After", after)
		h.Set("Retry-After-Ms", afterMs)
		if d, ok := retryAfter(h, time.Unix(1700000000, 0)); d < 0 || (!ok && d != 0) {
			t.Fatalf("Retry-After %q, retry-after-ms %q: %v, %v", after, afterMs, d, ok)
		}
	})
}

func TestEventReaderLongLine(t *testing.T) {
	_, err := newEventReader(bytes.NewReader(bytes.Repeat([]byte("a"), maxLine+1))).next()
	if err == nil || errors.Is(err, io.EOF) {
		t.Fatalf("got %v, want a line-too-long error", err)
	}
}
