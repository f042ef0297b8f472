package tokencount

import (
	"math"
	"sync"

	"github.com/ragkit/ragkit/tokencount/internal/vocabhash"
)

// noRank marks a pair of parts that cannot merge.
const noRank = math.MaxUint32

// maxSmall is the longest piece merged by the quadratic scan, the
// fastest for the short pieces of ordinary words. Longer pieces (runs of
// spaces or symbols, long words of other scripts) use a merger.
const maxSmall = 64

// maxCached is the longest piece kept in the cache: its token ends fit in
// a byte each.
const maxCached = 255

type part struct{ start, rank uint32 }

// mergeSmall runs tiktoken's byte pair merge over piece, 2 <= len(piece)
// <= maxSmall: repeatedly merge the adjacent pair whose concatenation has
// the lowest rank, the leftmost on ties. It writes the end offset of each
// resulting token to ends and returns how many there are.
func (b *BPE) mergeSmall(piece string, ends *[maxSmall]uint8) int {
	var buf [maxSmall + 1]part
	n := len(piece)
	parts := buf[:n+1]
	for i := range parts {
		parts[i] = part{uint32(i), noRank}
	}
	for i := 0; i+2 <= n; i++ {
		parts[i].rank = b.pairRank(piece[i], piece[i+1])
	}
	for len(parts) > 2 {
		best, at := uint32(noRank), -1
		for i := 0; i < len(parts)-2; i++ {
			if parts[i].rank < best {
				best, at = parts[i].rank, i
			}
		}
		if at < 0 {
			break
		}
		// Part at+1 joins part at: recompute the ranks of the pairs that
		// now start at at-1 and at, then drop part at+1.
		if at+3 < len(parts) {
			parts[at].rank = b.rank(piece[parts[at].start:parts[at+3].start])
		} else {
			parts[at].rank = noRank
		}
		if at > 0 {
			parts[at-1].rank = b.rank(piece[parts[at-1].start:parts[at+2].start])
		}
		parts = append(parts[:at+1], parts[at+2:]...)
	}
	for i := 1; i < len(parts); i++ {
		ends[i-1] = uint8(parts[i].start)
	}
	return len(parts) - 1
}

func (b *BPE) rank(s string) uint32 {
	if len(s) > maxCached {
		return noRank
	}
	w := vocabhash.Head(s)
	if r, ok := b.vocab.find(s, w, vocabhash.Hash(s, w)); ok {
		return r &^ partialUTF8
	}
	return noRank
}

// pairRank is rank of the two bytes x, y.
func (b *BPE) pairRank(x, y byte) uint32 { return b.pairs[uint16(x)<<8|uint16(y)] }

// partialUTF8 marks, in the ranks vocab.find returns, the tokens whose bytes are not valid
// UTF-8 (a character cut in two, as in " \xe0\xa4"). They take part in
// merges like any token, but a piece of the text with the same bytes is
// not that token: tiktoken-go reads its invalid bytes as U+FFFD first.
const partialUTF8 = 1 << 31

// A merger holds the scratch space of the merge of long pieces, which are
// merged window by window (see long.go): one merger, reused through a
// pool, serves every window, so that merging allocates nothing once warm.
type merger struct {
	next, prev []int32  // next[p], prev[p]: starts of the parts around the part at p
	tree       []uint64 // a tournament tree over the pairs, see merge
	ends       []int32  // the result of merge
	filter     []uint64 // the encoding's tokenFilter bits, or nil for none
	cur, nxt   []int    // token boundaries of the current and next window (long.go)
	memo       [memoSlots]memoEntry
}

var mergers = sync.Pool{New: func() any { return new(merger) }}

// noPair is the tree key of a part that has no pair to merge with.
const noPair = math.MaxUint64

// merge is mergeSmall in O(n log n) for pieces of any length, and for any
// bytes. The parts form a linked list, and the pair that starts at each
// part has a key, its rank then its start, at a leaf of a tournament tree
// whose every node holds the least key below it: the root is the pair the
// quadratic scan would pick, and a merge updates three leaves. It returns
// the end offset of each token within piece, in scratch space that the
// next call overwrites.
func (m *merger) merge(b *BPE, piece string) []int32 {
	n := len(piece)
	leaves := 1
	for leaves < n {
		leaves *= 2
	}
	m.next, m.prev = resize(m.next, n+1), resize(m.prev, n+1)
	m.tree = resize(m.tree, 2*leaves)
	next, prev, tree := m.next, m.prev, m.tree
	for i := range n + 1 {
		next[i], prev[i] = int32(i+1), int32(i-1)
	}
	for i := range leaves {
		tree[leaves+i] = noPair
		if i+2 <= n {
			if r := b.pairRank(piece[i], piece[i+1]); r != noRank {
				tree[leaves+i] = pairKey(r, i)
			}
		}
	}
	for i := leaves - 1; i > 0; i-- {
		tree[i] = min(tree[2*i], tree[2*i+1])
	}
	for tree[1] != noPair {
		p := int32(tree[1])
		q := next[p]
		next[p], prev[next[q]] = next[q], p
		m.set(leaves, q, noPair)
		m.set(leaves, p, m.pairKey(b, piece, p))
		if p > 0 {
			m.set(leaves, prev[p], m.pairKey(b, piece, prev[p]))
		}
	}
	m.ends = m.ends[:0]
	for p := next[0]; int(p) <= n; p = next[p] {
		m.ends = append(m.ends, p)
	}
	return m.ends
}

// set sets the key of the pair at part p and updates the tree above it,
// up to the first node whose least key does not change.
func (m *merger) set(leaves int, p int32, key uint64) {
	t := m.tree
	i := leaves + int(p)
	t[i] = key
	for i > 1 {
		i /= 2
		k := min(t[2*i], t[2*i+1])
		if t[i] == k {
			return
		}
		t[i] = k
	}
}

// pairKey returns the key of the pair that starts at part p: noPair if
// the part is the last or the pair is not a token.
func (m *merger) pairKey(b *BPE, piece string, p int32) uint64 {
	q := m.next[p]
	if int(q) >= len(piece) {
		return noPair
	}
	pair := piece[p:m.next[q]]
	if m.filter != nil && !mayBeToken(m.filter, pair) {
		return noPair
	}
	r := b.rank(pair)
	if r == noRank {
		return noPair
	}
	return pairKey(r, int(p))
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// pairKey orders candidate pairs by rank, then by start: the lowest rank
// merges first, the leftmost on ties, as tiktoken's scan does.
func pairKey(rank uint32, start int) uint64 { return uint64(rank)<<32 | uint64(start) }
