package segment

import (
	"testing"

	"github.com/ragkit/ragkit/internal/space"
	"github.com/ragkit/ragkit/internal/testcorpus"
	"github.com/stretchr/testify/require"
)

// checkSpans verifies the span invariants: ordered, non-overlapping, within
// bounds, non-empty, trimmed, and covering every non-space byte of text.
func checkSpans(t *testing.T, name, text string, spans []Span) {
	t.Helper()
	prev := 0
	for n, s := range spans {
		if s.Start < prev || s.End <= s.Start || s.End > len(text) {
			t.Fatalf("%s: span %d %v out of order or bounds (previous end %d, length %d)", name, n, s, prev, len(text))
		}
		if a, b := space.Trim(text, s.Start, s.End); a != s.Start || b != s.End {
			t.Fatalf("%s: span %d %v %q is not trimmed", name, n, s, text[s.Start:s.End])
		}
		if a := space.Skip(text, prev, s.Start); a != s.Start {
			t.Fatalf("%s: byte %d (%q) before span %d is not covered", name, a, text[a:min(a+8, len(text))], n)
		}
		prev = s.End
	}
	if a := space.Skip(text, prev, len(text)); a != len(text) {
		t.Fatalf("%s: byte %d (%q) at the end is not covered", name, a, text[a:min(a+8, len(text))])
	}
}

func mustNew(cfg Config) *Segmenter {
	s, err := New(cfg)
	if err != nil {
		panic(err)
	}
	return s
}

// levels are every function that returns spans, with the sentence
// segmenter in each mode and in the languages with rules of their own.
var levels = func() []struct {
	name string
	f    func(string) []Span
} {
	l := []struct {
		name string
		f    func(string) []Span
	}{
		{"Sentences", Sentences}, {"Paragraphs", Paragraphs}, {"Lines", Lines}, {"Words", Words}, {"Graphemes", Graphemes},
		{"NewlineBreak", mustNew(Config{Newlines: NewlineBreak}).Sentences},
		{"NewlineSpace", mustNew(Config{Newlines: NewlineSpace}).Sentences},
	}
	for _, lang := range []string{"ar", "hy", "el", "ru", "de", "ja", "und"} {
		l = append(l, struct {
			name string
			f    func(string) []Span
		}{"Sentences-" + lang, mustNew(Config{Language: lang}).Sentences})
	}
	return l
}()

func FuzzSpans(f *testing.F) {
	for _, s := range []string{
		"", " ", "Hello. World", "a\r\n\r\nb", "1. a 2. b", "• 9. x • 10. y", "x. . . . Y", "\xff.\xfe Z",
		"「すごい！」と。", "Mr. Smith\n\n# Head\n- item\n- item two", "end.[12] Next", "\u2029x\u2028y\u0085z",
		"At 5 a.m. Mr. Smith went. He left at 6 P.M. Then.", "«Я. Ты», — он. „Ich. Du“ Er.", "i. a ii. b iii. c",
		"word.Today is. 1,000.That", "a \u0301b 👨‍👩‍👧 🇩🇪", "```\ncode\n```\n> q\n> r\n| t |\n---\n",
		"ሰላም ነህ፧ደህና ነኝ።", "قال: نعم، لا، ربما؟", "Ի՞նչ: Ոչինչ:", "Τι; Τίποτα.", "x\r\ny\rz\v\f",
		"as of dec. 31, 2012, cash was $4.2 billion. net revenue rose. see no. 7. “why?” she asked! ok",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, l := range levels {
			checkSpans(t, l.name, text, l.f(text))
		}
	})
}

func TestCorporaInvariants(t *testing.T) {
	for _, name := range []string{"room_with_a_view.txt", "sherlock_1661.txt", "commonmark_spec.md",
		"romeo_and_juliet.txt", testcorpus.RomeoNoBlankLines, "hashbrown_set_rs.txt", "github_flavored.md"} {
		text := testcorpus.Must(t, name)
		for _, l := range levels {
			checkSpans(t, name+"/"+l.name, text, l.f(text))
		}
	}
}

// naiveLines is a plain reference for Lines: split at every line break the
// package documents, then trim.
func naiveLines(text string) []Span {
	var out []Span
	start := 0
	for i := 0; i < len(text); {
		n := 0
		switch {
		case text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n':
			n = 2
		case text[i] == '\n' || text[i] == '\r' || text[i] == '\v' || text[i] == '\f':
			n = 1
		case i+1 < len(text) && text[i] == 0xC2 && text[i+1] == 0x85:
			n = 2
		case i+2 < len(text) && text[i] == 0xE2 && text[i+1] == 0x80 && (text[i+2] == 0xA8 || text[i+2] == 0xA9):
			n = 3
		}
		if n == 0 {
			i++
			continue
		}
		out = appendTrimmed(out, text, start, i)
		i += n
		start = i
	}
	return appendTrimmed(out, text, start, len(text))
}

func FuzzLines(f *testing.F) {
	for _, s := range []string{"", "a\nb", "a\r\nb\rc", "0123456789abcdef\n0123456789\u2028x", "\u0085\v\f\u2029 a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		sameSpans(t, "Lines", text, Lines(text), naiveLines(text))
	})
}

// unisegWords is the reference for Words: uniseg over the whole text.
func unisegWords(text string) []Span {
	return appendUnisegWords(nil, text, 0, len(text))
}

func FuzzWords(f *testing.F) {
	for _, s := range []string{"", "Hello, world!", "can't 3.14 a:b 1,000 x_y a.1 1.a", " \u0301a", "a\u200db", "e.g. U.S.A.", "🇩🇪🇫🇷 x", "a\r\nb", "ab\u00a0cd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		sameSpans(t, "Words", text, Words(text), unisegWords(text))
	})
}

func sameSpans(t *testing.T, name, text string, got, want []Span) {
	t.Helper()
	require.Equal(t, want, got, "%s(%q)", name, text)
}
