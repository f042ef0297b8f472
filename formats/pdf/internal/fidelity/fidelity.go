// Package fidelity measures how faithfully extracted text keeps a source's
// words: the word-sequence similarity of the two, and the recall of one's
// words in the other. The PDF parser's tests and its yardstick share it.
//
//	sim := fidelity.Similarity(fidelity.Words(source), fidelity.Words(extracted))
package fidelity

import (
	"strings"
	"unicode"
)

// Words returns the words of text, lowercased, a word being a run of
// letters and digits: punctuation, quotes, dashes and Markdown marks are
// not words, and an apostrophe inside a word is dropped ("don’t" is
// "dont"), so that typographic choices do not count as differences.
func Words(text string) []string {
	var out []string
	var w strings.Builder
	flush := func() {
		if w.Len() > 0 {
			out = append(out, w.String())
			w.Reset()
		}
	}
	for _, r := range text {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			w.WriteRune(unicode.ToLower(r))
		case r == '\'' || r == '’':
		default:
			flush()
		}
	}
	flush()
	return out
}

// Similarity is the word-sequence similarity of a and b: twice the length
// of their longest common subsequence over the sum of their lengths, 1 for
// the same words in the same order, lower for words missing, added or
// read out of order. It takes time proportional to len(a)*len(b) and
// memory to len(b).
func Similarity(a, b []string) float64 {
	if len(a)+len(b) == 0 {
		return 1
	}
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return 2 * float64(prev[len(b)]) / float64(len(a)+len(b))
}

// Recall is the share of the words of want found in got, each word
// counted as many times as it occurs, in any order.
func Recall(want, got []string) float64 {
	if len(want) == 0 {
		return 1
	}
	have := map[string]int{}
	for _, w := range got {
		have[w]++
	}
	found := 0
	for _, w := range want {
		if have[w] > 0 {
			have[w]--
			found++
		}
	}
	return float64(found) / float64(len(want))
}
