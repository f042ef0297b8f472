package tokencount_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/internal/testcorpus"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/tiktoken"
)

// checkAgainstReference asserts that Count and AppendTokenEnds agree with
// tiktoken-go, through package tiktoken, on text.
func checkAgainstReference(t testing.TB, name, text string) {
	t.Helper()
	enc, err := tokencount.Encoding(name)
	require.NoError(t, err)
	ref, err := tiktoken.Encoding(name)
	require.NoError(t, err)
	want := ref.(tokencount.Offsetter).AppendTokenEnds(nil, text)
	require.Equal(t, len(want), enc.Count(text), "%s: Count(%q)", name, tokencount.Clip(text))
	ends := enc.(tokencount.Offsetter).AppendTokenEnds(nil, text)
	require.Equal(t, want, ends, "%s: token ends of %q", name, tokencount.Clip(text))
	tokencount.CheckEnds(t, text, ends, len(want))
}

// TestCorporaMatchTiktokenGo is the differential test over every corpus
// and encoding: the count and every token end must match tiktoken-go.
func TestCorporaMatchTiktokenGo(t *testing.T) {
	names, err := testcorpus.Names()
	require.NoError(t, err)
	for _, corpus := range names {
		text := testcorpus.Must(t, corpus)
		for _, name := range tokencount.Encodings() {
			t.Run(corpus+"/"+name, func(t *testing.T) {
				t.Parallel()
				checkAgainstReference(t, name, text)
			})
		}
	}
}

// TestPartialUTF8Tokens counts, alone and between other text, every token
// of every encoding whose bytes are not valid UTF-8 (a character cut in
// two). Such a token is never matched whole: tiktoken-go reads the invalid
// bytes of the text as U+FFFD before it looks the piece up.
func TestPartialUTF8Tokens(t *testing.T) {
	for _, name := range tokencount.Encodings() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			toks := tokencount.PartialTokens(name)
			require.NotEmpty(t, toks, "no token of %s is partial UTF-8", name)
			for _, tok := range toks {
				checkAgainstReference(t, name, tok)
				checkAgainstReference(t, name, "a "+tok+"b\n")
			}
		})
	}
}

// TestShapesMatchTiktokenGo counts every degenerate shape, at lengths that
// take one window and several, against tiktoken-go. tiktoken-go merges a
// piece in quadratic time, which keeps the lengths modest; the windows
// themselves are checked on long inputs by TestWindowedMergeIsExact.
func TestShapesMatchTiktokenGo(t *testing.T) {
	w := tokencount.Window
	for _, s := range tokencount.Shapes {
		for _, size := range []int{w - 1, w + 1, 3*w + 17} {
			text := s.Make(size)
			for _, name := range tokencount.Encodings() {
				t.Run(fmt.Sprintf("%s/%d/%s", s.Name, size, name), func(t *testing.T) {
					t.Parallel()
					checkAgainstReference(t, name, text)
				})
			}
		}
	}
}

func FuzzCountMatchesTiktokenGo(f *testing.F) {
	for _, s := range tokencount.Seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, name := range tokencount.Encodings() {
			checkAgainstReference(t, name, text)
		}
	})
}

// TestWordShapesMatchTiktokenGo counts the word shapes that the
// pre-tokenizers' ASCII fast paths take or hand back to the general
// path: case changes inside a word, contractions, a non-ASCII letter or
// mark after ASCII letters, prefixes, and the end of the text.
func TestWordShapesMatchTiktokenGo(t *testing.T) {
	texts := []string{
		"helloWorld HELLOworld HELLO, hELLO ABCdefGHI aB Ab a A",
		"don't DON'T Don'T it's we'll they'RE I'm x'",
		"café naïve caféine résumé Zoë ÉCOLE écoLE über Über straße",
		"e\u0301t\u0301e coo\u0308perate a\u0300b",
		" word\tword\nword(word)[word]{word}\"word\" -word _word 3word word3",
		"end", " end", "End", "END", "x", " X", "(", "a'", "ab'",
		"snake_case CONSTANT_CASE kebab-case dotted.name path/to/file.go",
		"ﬁnance ǅemal ǈ ǋa Ǳb",
		// Punctuation, white space and digits before a letter or a mark,
		// which o200k_base's word alternatives may or may not take.
		"(\u0301a) \u0301 \n\u0301 -\u0300x 1\u0301 ,Über .ǅ \t\u0300\u0301 );\n\tλx / é",
	}
	for _, text := range texts {
		for _, name := range tokencount.Encodings() {
			checkAgainstReference(t, name, text)
		}
	}
}
