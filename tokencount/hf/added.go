package hf

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// addedToken is an entry of tokenizer.json's added_tokens.
type addedToken struct {
	content                    string
	singleWord, lstrip, rstrip bool
}

// addedVocab finds added tokens in text as the library's AddedVocabulary
// does: leftmost-longest matches (an Aho-Corasick automaton there, a trie
// walked from each candidate position here), then the single_word,
// lstrip and rstrip rules.
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
	first int
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
// index, or -1.
func (av *addedVocab) longest(s string, i int) (int, int) {
	end, tok := -1, -1
	node := int32(0)
	for j := i; j < len(s); j++ {
		next, ok := av.child[uint64(node)<<8|uint64(s[j])]
		if !ok {
			break
		}
		node = next
		if t := av.term[node]; t > 0 {
			end, tok = j+1, int(t-1)
		}
	}
	return end, tok
}

// split calls f for each stretch of s in order: the added tokens (token
// set) and the text between them, which is never empty.
func (av *addedVocab) split(s string, f func(a, b int, token bool)) {
	startOff := 0
	for i := 0; i < len(s); {
		if av.first >= 0 {
			k := strings.IndexByte(s[i:], byte(av.first))
			if k < 0 {
				break
			}
			i += k
		} else if !av.start[s[i]] {
			i++
			continue
		}
		end, k := av.longest(s, i)
		if end < 0 {
			i++
			continue
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
