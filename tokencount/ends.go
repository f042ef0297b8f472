package tokencount

import "unicode/utf8"

// AppendTokenEnds appends to dst the byte offsets at which the tokens of
// text end, as t counts them, and returns the extended slice. The offsets
// are non-decreasing and the last one is len(text).
//
// If t is an [Offsetter] (every encoding from [Encoding] is), this is its
// own single pass and len of the result grows by exactly t.Count(text).
// Otherwise the offsets are synthetic: text is cut into word-like pieces
// (cl100k_base's pre-tokenizer), each distinct piece is counted once with
// t.Count, and a piece's tokens are spread evenly over its characters. The
// total is then the sum of the pieces' counts, which can differ from
// t.Count(text) by a few percent, because counts are not additive across
// concatenation. A piece counted at more tokens than it has bytes (which
// no tokenizer that works on bytes or characters can produce) is taken as
// one token per byte, so that a misbehaving Tokenizer cannot make the
// result grow without bound.
//
// Offsets turn sizing into arithmetic: the tokens that end inside
// (a, b] are a synthetic count of text[a:b]. It is close to
// t.Count(text[a:b]) but not equal to it, because the substring's edges
// can tokenize differently from the same bytes inside the whole text: a
// piece cut in two becomes two pieces, and a word that loses the space
// before it becomes a different token. Callers that need exactness, like
// the chunker, use these counts to search and t.Count to verify.
func AppendTokenEnds(t Tokenizer, dst []int, text string) []int {
	if o, ok := t.(Offsetter); ok {
		return o.AppendTokenEnds(dst, text)
	}
	memo := map[string]int{}
	for i := 0; i < len(text); {
		j := splitCl100k(text, i)
		piece := text[i:j]
		n, ok := memo[piece]
		if !ok {
			n = t.Count(piece)
			memo[piece] = n
		}
		dst = spreadEnds(dst, piece, i, n)
		i = j
	}
	return dst
}

// spreadEnds appends n token ends spread evenly over the characters of
// piece, which starts at base; the last end is the end of piece.
func spreadEnds(dst []int, piece string, base, n int) []int {
	if n <= 0 {
		return dst
	}
	n = min(n, len(piece))
	runes := utf8.RuneCountInString(piece)
	k, r := 1, 0
	for i := range piece {
		// Token k ends after rune ceil(k*runes/n); emit ends that fall
		// at the start of rune r+1, that is at byte i.
		for k < n && r > 0 && r*n >= k*runes {
			dst = append(dst, base+i)
			k++
		}
		r++
	}
	for ; k <= n; k++ {
		dst = append(dst, base+len(piece))
	}
	return dst
}
