package hf

import "unicode/utf8"

// unigram is the Unigram model: the segmentation of highest total score
// (a Viterbi search over the vocabulary's trie), as the library's
// encode_optimized finds it, with consecutive unknown characters fused
// into one token and, with byte fallback, unknown pieces spelled in
// <0xXX> tokens.
type unigram struct {
	ids          map[string]int32
	scores       []float64
	child        map[uint64]int32 // trie: node<<8|byte -> node
	term         []int32          // token id + 1 that ends at a node, or 0
	unk          int32            // -1 for none
	unkScore     float64
	byteFallback bool
	cache        *cache
}

func (m *unigram) count(s string) int {
	if e, ok := m.cache.get(s); ok {
		return len(e)
	}
	e := m.encode(nil, s)
	m.cache.put(s, e)
	return len(e)
}

func (m *unigram) ends(dst []int32, s string) []int32 {
	if e, ok := m.cache.get(s); ok {
		return append(dst, e...)
	}
	e := m.encode(nil, s)
	m.cache.put(s, e)
	return append(dst, e...)
}

type bestNode struct {
	id    int32
	score float64
	start int32 // -1 when no path ends here yet
}

func (m *unigram) encode(dst []int32, s string) []int32 {
	if s == "" {
		return dst
	}
	best := make([]bestNode, len(s)+1)
	for k := range best {
		best[k].start = -1
	}
	for at := 0; at < len(s); {
		here := best[at].score
		_, mblen := utf8.DecodeRuneInString(s[at:])
		single := false
		node := int32(0)
		for j := at; j < len(s); j++ {
			next, ok := m.child[uint64(node)<<8|uint64(s[j])]
			if !ok {
				break
			}
			node = next
			t := m.term[node]
			if t == 0 {
				continue
			}
			id := t - 1
			cand := m.scores[id] + here
			if tn := &best[j+1]; tn.start < 0 || cand > tn.score {
				*tn = bestNode{id: id, score: cand, start: int32(at)}
			}
			if j+1-at == mblen {
				single = true
			}
		}
		if !single {
			// The library fails the whole encoding without an unknown
			// token; the loader refuses such a vocabulary instead.
			cand := m.unkScore + here
			if tn := &best[at+mblen]; tn.start < 0 || cand > tn.score {
				*tn = bestNode{id: m.unk, score: cand, start: int32(at)}
			}
		}
		at += mblen
	}
	// Walk back, fusing runs of unknown tokens.
	type tok struct {
		start, end int32
		unk        bool
	}
	var toks []tok
	for end := int32(len(s)); end > 0; {
		n := best[end]
		isUnk := m.unk >= 0 && n.id == m.unk
		if isUnk && len(toks) > 0 && toks[len(toks)-1].unk {
			toks[len(toks)-1].start = n.start
		} else {
			toks = append(toks, tok{start: n.start, end: end, unk: isUnk})
		}
		end = n.start
	}
	for k := len(toks) - 1; k >= 0; k-- {
		t := toks[k]
		text := s[t.start:t.end]
		if _, ok := m.ids[text]; ok || !m.byteFallback || !m.hasBytes(text) {
			dst = append(dst, t.end)
			continue
		}
		// The library gives every byte token the offsets of the whole
		// piece it spells.
		for range t.end - t.start {
			dst = append(dst, t.end)
		}
	}
	return dst
}

func (m *unigram) hasBytes(text string) bool {
	for k := 0; k < len(text); k++ {
		if _, ok := m.ids[byteToken(text[k])]; !ok {
			return false
		}
	}
	return true
}

const hexDigits = "0123456789ABCDEF"

// byteToken is the <0xXX> token of b.
func byteToken(b byte) string {
	return string([]byte{'<', '0', 'x', hexDigits[b>>4], hexDigits[b&15], '>'})
}
