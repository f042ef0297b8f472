package hf

import (
	"bytes"
	"math"
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// A model turns a piece into tokens. ends appends the end, in the piece,
// of each token; count returns their number.
type model interface {
	count(s string) int
	ends(dst []int32, s string) []int32
}

// bpe is the BPE model. Symbols are bytes when the tokenizer is
// byte-level (the vocabulary is mapped back to bytes at load), else
// characters; merges apply as the library's Word::merge_all applies them.
type bpe struct {
	vocab        *tokenTable
	merges       *mergeTable
	byteLevel    bool
	ignoreMerges bool
	byteFallback bool
	fuseUnk      bool
	unk          int32       // -1 for none
	byteIDs      [256]int32  // byte-level: the symbol of each byte
	fallbackIDs  [256]int32  // byte_fallback: the <0xXX> token of each byte, or -1
	charIDs      [128]int32  // not byte-level: the token of each ASCII character, or -1
	metaID       int32       // not byte-level: the token "▁", or -1
	cache        *cache      // pieces of more than maxSmall bytes
	small        *smallCache // pieces of up to maxSmall bytes

	// With cutMeta, a piece is merged in parts cut before each "▁" that
	// follows a character other than "▁" and outside noCut: no token
	// spans such a place, so no merge crosses it and the parts merge
	// exactly as the whole does, each from the cache. SentencePiece
	// files have no pre-tokenizer and would else merge a whole text at
	// once.
	cutMeta bool
	noCut   map[rune]bool

	// bytePairs, for a byte-level tokenizer, is the rank of the merge of
	// each pair of bytes (b1<<8 | b2), noMerge for none: the pairs a
	// word starts with, without a table lookup.
	bytePairs []int32

	// whole[id] says whether merging the text of token id gives that
	// token (wholeYes) or not, once known.
	whole []atomic.Uint32
}

const meta = "▁"

// metaSplit decides whether pieces can be cut before "▁", and where not.
func (m *bpe) metaSplit() {
	if _, ok := m.vocab.get(meta); !ok {
		return
	}
	m.noCut = map[rune]bool{}
	m.vocab.each(func(tok []byte, _ int32) {
		for i := 1; i < len(tok); i++ {
			if !bytes.HasPrefix(tok[i:], []byte(meta)) {
				continue
			}
			r, _ := utf8.DecodeLastRune(tok[:i])
			if string(r) != meta {
				m.noCut[r] = true
			}
		}
	})
	m.cutMeta = true
}

// parts calls f with the bounds of each part of s (see cutMeta).
func (m *bpe) parts(s string, f func(a, b int)) {
	start := 0
	for i := 1; i < len(s); {
		k := strings.Index(s[i:], meta)
		if k < 0 {
			break
		}
		i += k
		r, _ := utf8.DecodeLastRuneInString(s[:i])
		if string(r) != meta && !m.noCut[r] {
			f(start, i)
			start = i
		}
		i += len(meta)
	}
	f(start, len(s))
}

type merge struct{ rank, id int32 }

func (m *bpe) count(s string) int {
	if len(s) == 1 && m.byteLevel && m.byteIDs[s[0]] >= 0 {
		return 1 // one symbol: nothing to merge
	}
	if len(s) <= maxSmall {
		if n, _, ok := m.small.get(s); ok {
			return n
		}
		var buf [maxSmall]int32
		return len(m.lookupSmall(buf[:0], s))
	}
	if !m.cutMeta || len(s) <= maxCached {
		return len(m.lookup(s))
	}
	n := 0
	m.parts(s, func(a, b int) { n += len(m.lookup(s[a:b])) })
	return n
}

func (m *bpe) ends(dst []int32, s string) []int32 {
	if len(s) <= maxSmall {
		if n, packed, ok := m.small.get(s); ok {
			return appendEnds(dst, n, packed)
		}
		return m.lookupSmall(dst, s)
	}
	if !m.cutMeta || len(s) <= maxCached {
		return append(dst, m.lookup(s)...)
	}
	m.parts(s, func(a, b int) {
		for _, e := range m.lookup(s[a:b]) {
			dst = append(dst, int32(a)+e)
		}
	})
	return dst
}

// lookupSmall appends the ends of s, a piece of 1 to maxSmall bytes not
// in m.small, and puts them there. Into a buffer of the caller's, it
// allocates nothing.
func (m *bpe) lookupSmall(dst []int32, s string) []int32 {
	n := len(dst)
	if m.ignoreMerges {
		dst = m.tokenize(dst, s)
	} else {
		// The flags of tokenize save merges of pieces seen before, which
		// m.small keeps: here they would cost a lookup for nothing.
		dst = m.merge(dst, s)
	}
	m.small.put(s, dst[n:])
	return dst
}

// lookup returns the token ends of s: from the cache, else tokenized.
func (m *bpe) lookup(s string) []int32 {
	if e, ok := m.cache.get(s); ok {
		return e
	}
	e := m.tokenize(nil, s)
	m.cache.put(s, e)
	return e
}

// tokenize appends the token ends of s: as one token of the vocabulary
// when the merges build it whole (always, with ignore_merges; a flag per
// token says so once known), else merged.
func (m *bpe) tokenize(dst []int32, s string) []int32 {
	if id, ok := m.vocab.get(s); ok && (m.ignoreMerges || m.whole[id].Load() != wholeNo) {
		if m.ignoreMerges || m.whole[id].Load() == wholeYes {
			return append(dst, int32(len(s)))
		}
		n := len(dst)
		if dst = m.merge(dst, s); len(dst) == n+1 {
			m.whole[id].Store(wholeYes)
		} else {
			m.whole[id].Store(wholeNo)
		}
		return dst
	}
	return m.merge(dst, s)
}

// States of bpe.whole.
const (
	wholeUnknown = iota
	wholeYes
	wholeNo
)

// symbol is a node of the doubly linked list of merge_all.
type symbol struct {
	id         int32
	end        int32 // end of the symbol in the piece
	prev, next int32
	gone       bool
}

// merge appends the token ends of s.
func (m *bpe) merge(dst []int32, s string) []int32 {
	var buf [linearMax]symbol
	syms := buf[:0]
	if len(s) > linearMax {
		syms = make([]symbol, 0, len(s))
	}
	add := func(id int32, end int) {
		n := int32(len(syms))
		syms = append(syms, symbol{id: id, end: int32(end), prev: n - 1, next: n + 1})
	}
	unkEnd := -1 // end of the pending unknown symbol, or -1
	flush := func() {
		if unkEnd >= 0 {
			add(m.unk, unkEnd)
			unkEnd = -1
		}
	}
	for i := 0; i < len(s); {
		w := 1
		var id int32
		var ok bool
		if m.byteLevel {
			id = m.byteIDs[s[i]]
			ok = id >= 0
		} else if c := s[i]; c < utf8.RuneSelf {
			id = m.charIDs[c]
			ok = id >= 0
		} else if m.metaID >= 0 && strings.HasPrefix(s[i:], meta) {
			id, ok, w = m.metaID, true, len(meta)
		} else {
			_, w = utf8.DecodeRuneInString(s[i:])
			id, ok = m.vocab.get(s[i : i+w])
		}
		if ok {
			flush()
			add(id, i+w)
			i += w
			continue
		}
		if m.byteFallback && m.fallback(s[i:i+w]) {
			// Like the library, a pending unknown symbol stays pending
			// (and can fuse with a later one) across byte tokens.
			for k := range w {
				add(m.fallbackIDs[s[i+k]], i+k+1)
			}
			i += w
			continue
		}
		if m.unk >= 0 {
			if unkEnd >= 0 && !m.fuseUnk {
				flush()
			}
			unkEnd = i + w
		}
		i += w
	}
	flush()
	if len(syms) == 0 {
		return dst
	}
	syms[len(syms)-1].next = -1
	if len(syms) <= linearMax {
		m.mergeLinear(syms, s)
	} else {
		m.mergeAll(syms)
	}
	for _, sy := range syms {
		if !sy.gone {
			dst = append(dst, sy.end)
		}
	}
	return dst
}

// fallback reports whether every byte of s has a <0xXX> token.
func (m *bpe) fallback(s string) bool {
	for k := 0; k < len(s); k++ {
		if m.fallbackIDs[s[k]] < 0 {
			return false
		}
	}
	return true
}

// mergeAll applies the merges to syms in the library's order: the pair
// of lowest rank first, the leftmost of equal ranks, with the same
// queue of candidates and the same test for stale ones.
func (m *bpe) mergeAll(syms []symbol) {
	var h mergeHeap
	for k := 0; k+1 < len(syms); k++ {
		if mg, ok := m.merges.get(syms[k].id, syms[k+1].id); ok {
			h = append(h, cand{rank: mg.rank, pos: int32(k), id: mg.id})
		}
	}
	h.init()
	for len(h) > 0 {
		top := h.pop()
		cur := &syms[top.pos]
		if cur.gone || cur.next < 0 {
			continue
		}
		right := syms[cur.next]
		if mg, ok := m.merges.get(cur.id, right.id); !ok || mg.id != top.id {
			continue
		}
		cur.id = top.id
		cur.end = right.end
		syms[cur.next].gone = true
		cur.next = right.next
		if right.next >= 0 {
			syms[right.next].prev = top.pos
		}
		if cur.prev >= 0 {
			if mg, ok := m.merges.get(syms[cur.prev].id, cur.id); ok {
				h.push(cand{rank: mg.rank, pos: cur.prev, id: mg.id})
			}
		}
		if cur.next >= 0 {
			if mg, ok := m.merges.get(cur.id, syms[cur.next].id); ok {
				h.push(cand{rank: mg.rank, pos: top.pos, id: mg.id})
			}
		}
	}
}

// linearMax is the most symbols that mergeLinear merges; more go
// through mergeAll's heap.
const linearMax = 24

// noMerge is the rank of a pair that has no merge.
const noMerge = math.MaxInt32

// mergeLinear is mergeAll for a few symbols: each step scans the pairs
// for the lowest rank (the leftmost of equal ones), which is the valid
// candidate that mergeAll's heap would give, and looks up only the two
// pairs that the merge makes. The symbols are of s: for a byte-level
// tokenizer, its bytes, whose pairs m.bytePairs has.
func (m *bpe) mergeLinear(syms []symbol, s string) {
	var rk [linearMax]int32 // rk[k]: the rank of the merge of k and its next
	pair := func(k int32) int32 {
		if nx := syms[k].next; nx >= 0 {
			if r, ok := m.merges.rank(syms[k].id, syms[nx].id); ok {
				return r
			}
		}
		return noMerge
	}
	if m.bytePairs != nil {
		for k := 0; k+1 < len(syms); k++ {
			rk[k] = m.bytePairs[int(s[k])<<8|int(s[k+1])]
		}
		rk[len(syms)-1] = noMerge
	} else {
		for k := range syms {
			rk[k] = pair(int32(k))
		}
	}
	for {
		best, bestRank := int32(-1), int32(noMerge)
		for k := int32(0); k >= 0; k = syms[k].next { // symbol 0 is never merged away
			if rk[k] < bestRank {
				best, bestRank = k, rk[k]
			}
		}
		if best < 0 {
			return
		}
		cur := &syms[best]
		right := syms[cur.next]
		syms[cur.next].gone = true
		cur.id = m.merges.ids[bestRank]
		cur.end = right.end
		cur.next = right.next
		if right.next >= 0 {
			syms[right.next].prev = best
		}
		rk[best] = pair(best)
		if cur.prev >= 0 {
			rk[cur.prev] = pair(cur.prev)
		}
	}
}

type cand struct{ rank, pos, id int32 }

func (a cand) less(b cand) bool {
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	return a.pos < b.pos
}

// mergeHeap is a binary min-heap of candidates.
type mergeHeap []cand

func (h mergeHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *mergeHeap) push(c cand) {
	*h = append(*h, c)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !s[i].less(s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *mergeHeap) pop() cand {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	*h = s[:n]
	h.down(0)
	return top
}

func (h mergeHeap) down(i int) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		j := l
		if r := l + 1; r < n && h[r].less(h[l]) {
			j = r
		}
		if !h[j].less(h[i]) {
			return
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}
