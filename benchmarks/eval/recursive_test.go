package eval_test

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/benchmarks/eval"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/tokentest"
)

func texts(text string, spans []segment.Span) []string {
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = text[s.Start:s.End]
	}
	return out
}

// The expected chunks are worked out by hand from LangChain's algorithm,
// with tokentest.Words counting one token per word.
func TestRecursiveSplit(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		max    int
		format document.Format
		want   []string
	}{
		{"words packed up to the limit", "a b c d e f", 3, document.Text, []string{"a b c", "d e f"}},
		{"fits whole", "a b\n\nc", 5, document.Text, []string{"a b\n\nc"}},
		// The long middle paragraph is split on its own, so its remainder
		// "ff" is not packed with the short paragraph "gg" after it: the
		// crumbs greedy splitters leave.
		{"paragraphs, then words", "aa bb\n\ncc dd ee ff\n\ngg", 3, document.Text, []string{"aa bb", "cc dd ee", "ff", "gg"}},
		{"line breaks before spaces", "aa bb\ncc dd\nee", 2, document.Text, []string{"aa bb", "cc dd", "ee"}},
		// A piece of exactly max tokens is split further (LangChain keeps
		// only pieces shorter than the limit whole).
		{"piece of exactly max", "a b\n\nc", 2, document.Text, []string{"a b", "c"}},
		{"markdown headings first", "# A\n\nx y\n\n## B\n\nz w", 4, document.Markdown, []string{"# A\n\nx y", "## B\n\nz w"}},
		{"markdown rule", "x y z\n---\nw v u", 4, document.Markdown, []string{"x y z", "---\nw v u"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spans, err := eval.RecursiveSplit(tokentest.Words{}, tt.max, tt.format, tt.text)
			require.NoError(t, err)
			assert.Equal(t, tt.want, texts(tt.text, spans))
		})
	}
}

// TestRecursiveSplitCharacters: a word longer than the limit is cut
// between characters, never inside one.
func TestRecursiveSplitCharacters(t *testing.T) {
	text := "ééééé"
	spans, err := eval.RecursiveSplit(tokentest.Runes{}, 2, document.Text, text)
	require.NoError(t, err)
	assert.Equal(t, []string{"éé", "éé", "é"}, texts(text, spans))
}

func TestRecursiveSplitErrors(t *testing.T) {
	_, err := eval.RecursiveSplit(nil, 10, document.Text, "x")
	require.ErrorIs(t, err, eval.ErrConfig)
	_, err = eval.RecursiveSplit(tokentest.Words{}, 0, document.Text, "x")
	require.ErrorIs(t, err, eval.ErrConfig)
}

// checkSplit holds the invariants of any split: spans in order, disjoint,
// in bounds, trimmed, non-empty, and covering every non-space character.
func checkSplit(t *testing.T, text string, spans []segment.Span) {
	t.Helper()
	prev := 0
	for i, s := range spans {
		require.True(t, prev <= s.Start && s.Start < s.End && s.End <= len(text), "span %d %v after %d in %d bytes", i, s, prev, len(text))
		chunk := text[s.Start:s.End]
		require.Equal(t, strings.TrimSpace(chunk), chunk, "span %d not trimmed", i)
		for j := prev; j < s.Start; {
			r, size := utf8.DecodeRuneInString(text[j:])
			require.True(t, unicode.IsSpace(r) || r == utf8.RuneError, "byte %d (%q) is in no chunk", j, r)
			j += size
		}
		prev = s.End
	}
	require.Empty(t, strings.TrimSpace(text[prev:]), "text after the last chunk")
}

func TestRecursiveSplitCorpora(t *testing.T) {
	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	require.NoError(t, err)
	for _, name := range eval.Corpora() {
		c, err := eval.Load(name)
		require.NoError(t, err)
		for _, d := range c.Documents {
			for _, max := range []int{64, 256} {
				spans, err := eval.RecursiveSplit(tok, max, d.Format, d.Text)
				require.NoError(t, err)
				checkSplit(t, d.Text, spans)
				for _, s := range spans {
					// The limit is on the sum of the pieces' counts; the
					// count of the joined chunk may differ by a token or two.
					assert.LessOrEqual(t, tok.Count(d.Text[s.Start:s.End]), max+2, "%s: %d", d.ID, max)
				}
			}
		}
	}
}

func FuzzRecursiveSplit(f *testing.F) {
	for _, s := range []string{"", "a b c", "aa bb\n\ncc dd ee ff\n\ngg", "# A\n\nx\n## B\n```\ncode\n```\n***\n", "é\u00a0ü\r\n\r\nx", "\xff\xfe a"} {
		f.Add(s, 3, false)
	}
	f.Fuzz(func(t *testing.T, text string, max int, markdown bool) {
		if max < 1 || max > 64 {
			return
		}
		format := document.Text
		if markdown {
			format = document.Markdown
		}
		spans, err := eval.RecursiveSplit(tokentest.Words{}, max, format, text)
		require.NoError(t, err)
		checkSplit(t, text, spans)
		for _, s := range spans {
			// Words is subadditive, so the sum LangChain bounds bounds
			// the chunk's own count.
			require.LessOrEqual(t, tokentest.Words{}.Count(text[s.Start:s.End]), max)
		}
	})
}
