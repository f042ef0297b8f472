package openai

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCondensed: whatever a model replies, the question read out of it is
// one line of valid UTF-8 within the limit, taken from the reply, or an
// error of the two kinds Rewrite documents.
func FuzzCondensed(f *testing.F) {
	f.Add("  \"What are the opening hours of the Toronto office?\"\nBecause ...", 40)
	f.Add("\r\n\n“and in Toronto?”\r\n", 8)
	f.Add("a\xffb\u2028c", 3)
	f.Add("", 1)
	f.Fuzz(func(t *testing.T, reply string, limit int) {
		limit = 1 + abs(limit)%200
		q, err := condensed(reply, limit)
		if err != nil {
			if !errors.Is(err, ErrEmptyReply) && !errors.Is(err, ErrTruncated) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if q == "" || len(q) > limit || !utf8.ValidString(q) || strings.ContainsAny(q, "\r\n") ||
			!strings.Contains(strings.ToValidUTF8(reply, "\uFFFD"), q) {
			t.Fatalf("unfit question %q from %q (limit %d)", q, reply, limit)
		}
	})
}

// FuzzCondenseCut: a turn sent to the model is one line of valid UTF-8, at
// most MaxTurnBytes and the marker.
func FuzzCondenseCut(f *testing.F) {
	f.Add("héééééé\nlong question", 10)
	f.Add("a\xffb", 1)
	f.Fuzz(func(t *testing.T, s string, limit int) {
		c := &Condenser{cfg: CondenserConfig{MaxTurnBytes: 1 + abs(limit)%200}}
		got := c.cut(s)
		if !utf8.ValidString(got) || strings.ContainsAny(got, "\r\n") || len(got) > c.cfg.MaxTurnBytes+len("…") {
			t.Fatalf("unfit turn %q from %q (limit %d)", got, s, c.cfg.MaxTurnBytes)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -(n + 1) // not -n: -MinInt is MinInt
	}
	return n
}
