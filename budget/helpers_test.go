package budget_test

import (
	"strings"
	"sync/atomic"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/internal/testcorpus"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
)

func cl100k(tb testing.TB) tokencount.Tokenizer {
	tb.Helper()
	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	if err != nil {
		tb.Fatal(err)
	}
	return tok
}

// corpus returns A Room With A View from the repository's test corpora.
func corpus(tb testing.TB) string {
	tb.Helper()
	return testcorpus.Must(tb, "room_with_a_view.txt")
}

// paragraphs returns the corpus's paragraphs of story text whose size is
// within [minTok, maxTok] tokens.
func paragraphs(tb testing.TB, tok tokencount.Tokenizer, minTok, maxTok int) []string {
	text := corpus(tb)
	var out []string
	for _, p := range segment.Paragraphs(text)[40:] {
		s := text[p.Start:p.End]
		if n := tok.Count(s); n >= minTok && n <= maxTok {
			out = append(out, s)
		}
	}
	return out
}

// hidden hides the Offsetter of a tokenizer, so that the package falls
// back to synthetic token ends, whose estimates are further off.
type hidden struct{ t tokencount.Tokenizer }

func (h hidden) Count(s string) int { return h.t.Count(s) }

// lumpy is a toy tokenizer whose counts are far from additive: a token is
// a run of up to four letters or digits, or any other non-space rune, and
// white space belongs to the token that follows it. "ab"+"cd" is 1 token,
// not 2; "a"+" "+"b" is 2, not 3.
type lumpy struct{}

func (lumpy) Count(s string) int {
	n, run := 0, 0
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if run%4 == 0 {
				n++
			}
			run++
		case unicode.IsSpace(r):
			run = 0
		default:
			n++
			run = 0
		}
	}
	if s != "" && n == 0 {
		n = 1 // white space alone is one token
	}
	return n
}

// crowded is a toy tokenizer that is far from additive the other way:
// a text costs more per word the longer it is, as if tokens crowded each
// other, so the sum of the parts underestimates the whole by a wide
// margin and the search must correct its estimates.
type crowded struct{}

func (crowded) Count(s string) int {
	n := len(strings.Fields(s))
	return n + n*n/64
}

// counting counts the calls and bytes that reach a tokenizer, keeping its
// Offsetter if it has one.
type counting struct {
	t                   tokencount.Tokenizer
	counts, ends, bytes atomic.Int64
}

func (c *counting) Count(s string) int {
	c.counts.Add(1)
	c.bytes.Add(int64(len(s)))
	return c.t.Count(s)
}

func (c *counting) AppendTokenEnds(dst []int, s string) []int {
	c.ends.Add(1)
	c.bytes.Add(int64(len(s)))
	return tokencount.AppendTokenEnds(c.t, dst, s)
}

// isBoundary reports whether i is a sentence or word end (atEnd) or start
// in text.
func isBoundary(text string, i int, atEnd bool) bool {
	at := func(sp segment.Span, base int) bool {
		if atEnd {
			return base+sp.End == i
		}
		return base+sp.Start == i
	}
	for _, s := range segment.Sentences(text) {
		if at(s, 0) {
			return true
		}
		for _, w := range segment.Words(text[s.Start:s.End]) {
			if at(w, s.Start) {
				return true
			}
		}
	}
	return false
}

// checkCut checks that kept is text cut at a boundary at its end (or at
// its start), and marked.
func checkCut(tb testing.TB, text, kept, marker string, atEnd bool) {
	tb.Helper()
	if !utf8.ValidString(kept) {
		tb.Fatalf("cut text is not valid UTF-8: %q", kept)
	}
	if atEnd {
		body, ok := strings.CutSuffix(kept, " "+marker)
		if !ok || body == "" || !strings.HasPrefix(text, body) ||
			len(body) >= len(strings.TrimRightFunc(text, unicode.IsSpace)) || !isBoundary(text, len(body), true) {
			tb.Fatalf("%q is not %q cut at the end at a sentence or word boundary and marked", kept, text)
		}
		return
	}
	body, ok := strings.CutPrefix(kept, marker+" ")
	start := len(text) - len(body)
	if !ok || body == "" || !strings.HasSuffix(text, body) ||
		start <= len(text)-len(strings.TrimLeftFunc(text, unicode.IsSpace)) || !isBoundary(text, start, false) {
		tb.Fatalf("%q is not %q cut at the start at a sentence or word boundary and marked", kept, text)
	}
}
