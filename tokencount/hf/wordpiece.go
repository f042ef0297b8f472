package hf

import "unicode/utf8"

// wordPiece is the WordPiece model: greedy longest match from the start
// of a word, continuations looked up with their prefix ("##"); a word
// with a part that matches nothing, or longer than maxChars characters,
// is one unknown token.
type wordPiece struct {
	first    map[string]int32 // tokens that can start a word
	cont     map[string]int32 // continuation tokens, without the prefix
	maxLen   int              // longest token in bytes, prefix excluded
	maxChars int
	cache    *cache
}

func (m *wordPiece) count(s string) int { return len(m.lookup(s)) }

func (m *wordPiece) ends(dst []int32, s string) []int32 { return append(dst, m.lookup(s)...) }

func (m *wordPiece) lookup(s string) []int32 {
	if e, ok := m.cache.get(s); ok {
		return e
	}
	e := m.split(nil, s)
	m.cache.put(s, e)
	return e
}

func (m *wordPiece) split(dst []int32, s string) []int32 {
	if utf8.RuneCountInString(s) > m.maxChars {
		return append(dst, int32(len(s)))
	}
	n := len(dst)
	for start := 0; start < len(s); {
		table := m.first
		if start > 0 {
			table = m.cont
		}
		end := min(len(s), start+m.maxLen)
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end-- // a token ends on a character boundary
		}
		for end > start {
			if _, ok := table[s[start:end]]; ok {
				break
			}
			_, w := utf8.DecodeLastRuneInString(s[start:end])
			end -= w
		}
		if end == start {
			return append(dst[:n], int32(len(s)))
		}
		dst = append(dst, int32(end))
		start = end
	}
	return dst
}
