package budget_test

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/internal/testcorpus"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
)

func cl100k(tb testing.TB) tokencount.Tokenizer {
	tb.Helper()
	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	require.NoError(tb, err)
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

// newAssembler returns an Assembler for cfg, which must be valid.
func newAssembler(tb testing.TB, cfg budget.Config) *budget.Assembler {
	tb.Helper()
	a, err := budget.New(cfg)
	require.NoError(tb, err)
	return a
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
	require.True(tb, utf8.ValidString(kept), "cut text is not valid UTF-8: %q", kept)
	if atEnd {
		body, ok := strings.CutSuffix(kept, " "+marker)
		require.True(tb, ok && body != "" && strings.HasPrefix(text, body) &&
			len(body) < len(strings.TrimRightFunc(text, unicode.IsSpace)) && isBoundary(text, len(body), true),
			"%q is not %q cut at the end at a sentence or word boundary and marked", kept, text)
		return
	}
	body, ok := strings.CutPrefix(kept, marker+" ")
	start := len(text) - len(body)
	require.True(tb, ok && body != "" && strings.HasSuffix(text, body) &&
		start > len(text)-len(strings.TrimLeftFunc(text, unicode.IsSpace)) && isBoundary(text, start, false),
		"%q is not %q cut at the start at a sentence or word boundary and marked", kept, text)
}
