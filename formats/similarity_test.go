package formats_test

import (
	"strings"
	"unicode"
)

// words returns the words of text, lower-cased, without the punctuation
// and Markdown syntax around them: what a reader reads. Each Han, Kana or
// Hangul letter is a word of its own, since those scripts put no spaces
// between words and a text browser breaks their lines anywhere.
func words(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		start := 0
		for i, r := range f {
			if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
				if start < i {
					out = append(out, f[start:i])
				}
				out = append(out, string(r))
				start = i + len(string(r))
			}
		}
		if start < len(f) {
			out = append(out, f[start:])
		}
	}
	return out
}

// similarity is 2·LCS(a, b) / (len(a) + len(b)) of the word sequences of
// two texts: 1 when both hold the same words in the same order (Python's
// difflib ratio, without its junk heuristics).
func similarity(a, b string) float64 {
	x, y := words(a), words(b)
	if len(x)+len(y) == 0 {
		return 1
	}
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for i := range x {
		for j := range y {
			switch {
			case x[i] == y[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return 2 * float64(prev[len(y)]) / float64(len(x)+len(y))
}
