// Package ends compares token ends with the reference library's, for the
// tests of package hf and its exactness suite.
package ends

import "unicode/utf8"

// Chars converts byte offsets in s to character offsets, as the
// reference's Node binding reports them: a byte offset inside a
// character counts as the end of that character.
func Chars(s string, ends []int) []int {
	out := make([]int, len(ends))
	chars, pos := 0, 0
	for k, e := range ends {
		for pos < e {
			_, w := utf8.DecodeRuneInString(s[pos:])
			pos += w
			chars++
		}
		out[k] = chars
	}
	return out
}

// FirstDiff returns the first token whose end, in characters, disagrees
// with the reference's, or ok. The reference's ends follow its
// alignments; package hf's follow Go's normalization segments and the
// contract that the last end is the end of the text. So an end agrees
// when it is not before the reference's end of the same token and not
// after the next larger end the reference reports (or the end of the
// text): the characters between are ones that normalization merged into
// the token or removed.
func FirstDiff(got, want []int, textChars int) (int, bool) {
	if len(got) != len(want) {
		return min(len(got), len(want)), false
	}
	next := textChars
	for k := len(got) - 1; k >= 0; k-- {
		if got[k] < want[k] || got[k] > next {
			return k, false
		}
		if k > 0 && want[k-1] < want[k] {
			next = want[k]
		}
	}
	return 0, true
}
