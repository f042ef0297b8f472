package segment_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ragkit/ragkit/segment"
)

type levelCase struct {
	name, text string
	want       []string
}

// runLevel checks f on each case; a nil want means no spans.
func runLevel(t *testing.T, f func(string) []segment.Span, cases []levelCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := texts(tc.text, f(tc.text))
			if tc.want == nil {
				assert.Empty(t, got)
				return
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestLines(t *testing.T) {
	runLevel(t, segment.Lines, []levelCase{
		{"empty", "", nil},
		{"one", "  just one  ", []string{"just one"}},
		{"lf", "a\nb\n", []string{"a", "b"}},
		{"crlf", "a\r\nb\r\n", []string{"a", "b"}},
		{"lone cr", "a\rb", []string{"a", "b"}},
		{"blank lines dropped", "a\n\n \t\nb", []string{"a", "b"}},
		{"unicode separators", "a\u2028b\u2029c\u0085d\ve\ff", []string{"a", "b", "c", "d", "e", "f"}},
		{"trimmed", " \ta b \t\r\n", []string{"a b"}},
	})
}

func TestParagraphs(t *testing.T) {
	runLevel(t, segment.Paragraphs, []levelCase{
		{"empty", "", nil},
		{"only space", " \n\t\n ", nil},
		{"one", "one line\nsecond line", []string{"one line\nsecond line"}},
		{"blank line", "first\n\nsecond", []string{"first", "second"}},
		{"whitespace-only line", "first\n  \t \nsecond", []string{"first", "second"}},
		{"crlf", "first\r\nstill first\r\n\r\nsecond\r\n", []string{"first\r\nstill first", "second"}},
		{"many blank lines", "\n\n\nfirst\n\n\n\nsecond\n\n", []string{"first", "second"}},
		{"paragraph separator", "first\u2029second", []string{"first", "second"}},
		{"indented", "  first\n  more\n\n  second", []string{"first\n  more", "second"}},
	})
}

func TestWords(t *testing.T) {
	runLevel(t, segment.Words, []levelCase{
		{"punctuation apart", "Hello, world!", []string{"Hello", ",", "world", "!"}},
		{"contraction and decimal", "can't pay 3.50 now", []string{"can't", "pay", "3.50", "now"}},
		{"joiners", "a:b 1,000 snake_case e.g. a.1", []string{"a:b", "1,000", "snake_case", "e.g", ".", "a", ".", "1"}},
		{"crlf", "one\r\ntwo", []string{"one", "two"}},
		{"no spaces in cjk", "日本語", []string{"日", "本", "語"}},
		{"emoji", "ok 👍🏽 fine", []string{"ok", "👍🏽", "fine"}},
		{"space before combining mark", "a \u0301b", []string{"a", "\u0301", "b"}},
	})
}

func TestGraphemes(t *testing.T) {
	runLevel(t, segment.Graphemes, []levelCase{
		{"ascii", "ab c", []string{"a", "b", "c"}},
		{"combining", "e\u0301x", []string{"e\u0301", "x"}},
		{"flags", "🇩🇪🇫🇷", []string{"🇩🇪", "🇫🇷"}},
		{"zwj family", "a👨‍👩‍👧b", []string{"a", "👨‍👩‍👧", "b"}},
		{"crlf dropped", "a\r\nb", []string{"a", "b"}},
		{"hangul", "한국", []string{"한", "국"}},
		{"invalid", "a\xffb", []string{"a", "\xff", "b"}},
	})
}

func TestSpanMethods(t *testing.T) {
	text := "Hello there."
	s := segment.Sentences(text)[0]
	assert.Equal(t, 12, s.Len())
	assert.Equal(t, text, s.Text(text))
}
