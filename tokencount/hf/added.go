package hf

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// addedToken is an entry of tokenizer.json's added_tokens.
type addedToken struct {
	content                    string
	singleWord, lstrip, rstrip bool
}

// addedVocab finds added tokens in text as the library's AddedVocabulary
// does: leftmost-longest matches (an Aho-Corasick automaton there), then
// the single_word, lstrip and rstrip rules.
//
// Matches are found by walking a trie from each position where a token
// may begin: fast on ordinary text, where few positions begin a token
// and walks are short. A text that makes the walks long (an added token
// of 4,095 "a" and a "b", and a text of "a") would make that the square
// of the text: once the walks have read twice the text, the rest is
// matched through an Aho-Corasick automaton of the reversed tokens, which
// gives the longest token that begins at each position in one pass over
// the text.
type addedVocab struct {
	tokens []addedToken
	// The trie: child[node<<8|byte] is the next node; term[node] is the
	// token that ends at node plus one, or 0.
	child map[uint64]int32
	term  []int32
	start [256]bool // bytes that begin some token
	// first is the byte that begins every token, which split finds
	// with IndexByte; -2 when they begin with several (-1 before
	// the first).
	first  int
	maxLen int // the longest token's length

	rev     *reverseAutomaton // built on first use
	revOnce sync.Once
}

func newAddedVocab(tokens []addedToken) *addedVocab {
	if len(tokens) == 0 {
		return nil
	}
	av := &addedVocab{tokens: tokens, child: make(map[uint64]int32), term: []int32{0}, first: -1}
	for k, tok := range tokens {
		if tok.content == "" {
			continue
		}
		if c := int(tok.content[0]); !av.start[c] {
			if av.first == -1 {
				av.first = c
			} else {
				av.first = -2 // several
			}
		}
		av.start[tok.content[0]] = true
		av.maxLen = max(av.maxLen, len(tok.content))
		node := int32(0)
		for i := 0; i < len(tok.content); i++ {
			key := uint64(node)<<8 | uint64(tok.content[i])
			next, ok := av.child[key]
			if !ok {
				next = int32(len(av.term))
				av.term = append(av.term, 0)
				av.child[key] = next
			}
			node = next
		}
		// The library keys tokens by content: a later duplicate wins.
		av.term[node] = int32(k + 1)
	}
	return av
}

// longest returns the end of the longest token that starts at i and its
// index, or -1, and how many bytes the walk read.
func (av *addedVocab) longest(s string, i int) (end, tok, read int) {
	end, tok = -1, -1
	node := int32(0)
	j := i
	for ; j < len(s); j++ {
		next, ok := av.child[uint64(node)<<8|uint64(s[j])]
		if !ok {
			break
		}
		node = next
		if t := av.term[node]; t > 0 {
			end, tok = j+1, int(t-1)
		}
	}
	return end, tok, j - i + 1
}

// split calls f for each stretch of s in order: the added tokens (token
// set) and the text between them, which is never empty.
func (av *addedVocab) split(s string, f func(a, b int, token bool)) {
	startOff := 0
	budget := 2*len(s) + 4096 // bytes the trie walks may read
	var m *addedScan
	for i := 0; i < len(s); {
		var end, k int
		if m != nil {
			if i, end, k = m.next(i); i < 0 {
				break
			}
		} else {
			if av.first >= 0 {
				n := strings.IndexByte(s[i:], byte(av.first))
				if n < 0 {
					break
				}
				i += n
			} else if !av.start[s[i]] {
				i++
				continue
			}
			var read int
			end, k, read = av.longest(s, i)
			if budget -= read; budget < 0 {
				m = av.scanner(s)
			}
			if end < 0 {
				i++
				continue
			}
		}
		start, stop := i, end
		i = end // the automaton goes on after the match, whatever the rules do
		tok := av.tokens[k]
		if tok.singleWord {
			if (start > 0 && endsWithWord(s[:start])) || (stop < len(s) && startsWithWord(s[stop:])) {
				continue
			}
		}
		if tok.lstrip {
			ns := start
			for ns > 0 {
				r, w := utf8.DecodeLastRuneInString(s[:ns])
				if !unicode.IsSpace(r) {
					break
				}
				ns -= w
			}
			start = max(ns, startOff)
		}
		if tok.rstrip {
			for stop < len(s) {
				r, w := utf8.DecodeRuneInString(s[stop:])
				if !unicode.IsSpace(r) {
					break
				}
				stop += w
			}
		}
		if start >= stop {
			// The spaces of an earlier match's rstrip took the whole
			// match: the library's split of it is empty, and dropped.
			// (Where start is after stop the library panics; the
			// match is dropped here too.)
			continue
		}
		if startOff < start {
			f(startOff, start, false)
		}
		f(start, stop, true)
		startOff = stop
	}
	if startOff < len(s) {
		f(startOff, len(s), false)
	}
}

// reverseAutomaton is an Aho-Corasick automaton of the added tokens
// reversed. Run over a text from its end, its state at position i is the
// longest prefix of text[i:] that ends some token, and out gives the
// longest token that is a prefix of text[i:], if any: the longest token
// that begins at i.
type reverseAutomaton struct {
	root  [256]int32       // the node after byte c from the root, or 0
	child map[uint64]int32 // node<<8|byte -> node, below the root
	fail  []int32
	out   []int32 // the longest token on the node's failure chain plus one, or 0
}

func (av *addedVocab) reverse() *reverseAutomaton {
	av.revOnce.Do(func() {
		ra := &reverseAutomaton{child: make(map[uint64]int32), fail: []int32{0}, out: []int32{0}}
		depth := []int32{0}
		for k, tok := range av.tokens {
			node := int32(0)
			for i := len(tok.content) - 1; i >= 0; i-- {
				c := tok.content[i]
				next, ok := ra.next(node, c)
				if !ok {
					next = int32(len(ra.fail))
					ra.fail = append(ra.fail, 0)
					ra.out = append(ra.out, 0)
					depth = append(depth, depth[node]+1)
					if node == 0 {
						ra.root[c] = next
					} else {
						ra.child[uint64(node)<<8|uint64(c)] = next
					}
				}
				node = next
			}
			if node != 0 && av.term[av.find(tok.content)] == int32(k+1) {
				ra.out[node] = int32(k + 1) // the duplicate the trie keeps
			}
		}
		// Failure links breadth first; out[n] stays n's own token when it
		// has one (the longest), else it is its failure node's.
		edges := make(map[int32][]uint64, len(ra.fail))
		for key, n := range ra.child {
			edges[int32(key>>8)] = append(edges[int32(key>>8)], uint64(n)<<8|key&0xff)
		}
		queue := make([]int32, 0, len(ra.fail))
		for c := range 256 {
			if n := ra.root[c]; n != 0 {
				queue = append(queue, n)
			}
		}
		for q := 0; q < len(queue); q++ {
			n := queue[q]
			for _, e := range edges[n] {
				child, c := int32(e>>8), byte(e)
				f := ra.fail[n]
				for {
					if next, ok := ra.next(f, c); ok {
						ra.fail[child] = next
						break
					}
					if f == 0 {
						break
					}
					f = ra.fail[f]
				}
				if ra.out[child] == 0 {
					ra.out[child] = ra.out[ra.fail[child]]
				}
				queue = append(queue, child)
			}
		}
		av.rev = ra
	})
	return av.rev
}

// find returns the trie node of a token.
func (av *addedVocab) find(tok string) int32 {
	node := int32(0)
	for i := 0; i < len(tok); i++ {
		node = av.child[uint64(node)<<8|uint64(tok[i])]
	}
	return node
}

func (ra *reverseAutomaton) next(node int32, c byte) (int32, bool) {
	if node == 0 {
		n := ra.root[c]
		return n, n != 0
	}
	n, ok := ra.child[uint64(node)<<8|uint64(c)]
	return n, ok
}

// addedScan finds leftmost-longest matches in s a block at a time, so that
// what it holds is bounded by the block, not the text.
type addedScan struct {
	av   *addedVocab
	ra   *reverseAutomaton
	s    string
	from int     // the block's first position
	at   []int32 // at[i-from]: the longest token that begins at i plus one, or 0
}

func (av *addedVocab) scanner(s string) *addedScan {
	return &addedScan{av: av, ra: av.reverse(), s: s, from: len(s)}
}

// next returns the first position at or after i where a token begins,
// where the longest one ends and its index; i is -1 for none.
func (m *addedScan) next(i int) (start, end, tok int) {
	for ; i < len(m.s); i++ {
		if i < m.from || i >= m.from+len(m.at) {
			m.fill(i)
		}
		if t := m.at[i-m.from]; t > 0 {
			k := int(t - 1)
			return i, i + len(m.av.tokens[k].content), k
		}
	}
	return -1, -1, -1
}

// fill computes the block that begins at i: the automaton starts a
// longest token past the block's end, where its state at the block's
// last position is already the one a run from the text's end gives.
func (m *addedScan) fill(i int) {
	size := max(1<<16, 4*m.av.maxLen)
	stop := min(len(m.s), i+size)
	m.from = i
	m.at = m.at[:0]
	m.at = append(m.at, make([]int32, stop-i)...)
	ra := m.ra
	node := int32(0)
	for j := min(len(m.s), stop+m.av.maxLen) - 1; j >= i; j-- {
		c := m.s[j]
		for {
			if next, ok := ra.next(node, c); ok {
				node = next
				break
			}
			if node == 0 {
				break
			}
			node = ra.fail[node]
		}
		if j < stop {
			m.at[j-i] = ra.out[node]
		}
	}
}

// isWord is Rust's regex \w, which single_word looks for on either side
// of a match: the same \w as the Whitespace pre-tokenizer's.
func isWord(r rune) bool { return isWordRune(r) }

func endsWithWord(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return isWord(r)
}

func startsWithWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isWord(r)
}
