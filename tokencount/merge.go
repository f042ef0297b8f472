package tokencount

import "math"

// noRank marks a pair of parts that cannot merge.
const noRank = math.MaxUint32

// maxSmall is the longest piece merged by the quadratic scan. Longer
// pieces (runs of spaces or symbols, long words of other scripts) use the
// heap.
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
		parts[i].rank = b.rank(piece[i : i+2])
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
	if r, ok := b.ranks[s]; ok {
		return r &^ partialUTF8
	}
	return noRank
}

// partialUTF8 marks, in BPE.ranks, the tokens whose bytes are not valid
// UTF-8 (a character cut in two, as in " \xe0\xa4"). They take part in
// merges like any token, but a piece of the text with the same bytes is
// not that token: tiktoken-go reads its invalid bytes as U+FFFD first.
const partialUTF8 = 1 << 31

// mergeLarge is mergeSmall in O(n log n) for long pieces: the parts form a
// linked list and candidate pairs wait in a min-heap ordered by (rank,
// start), so the pair merged is the same one the quadratic scan would
// pick. Entries made stale by earlier merges are skipped when popped.
// It appends token end offsets to dst.
func (b *BPE) mergeLarge(dst []int, piece string, base int) []int {
	n := len(piece)
	next := make([]int32, n+1) // next[p]: start of the part after the part starting at p
	prev := make([]int32, n+1)
	alive := make([]bool, n+1)
	for i := 0; i <= n; i++ {
		next[i], prev[i], alive[i] = int32(i+1), int32(i-1), true
	}
	h := make(pairHeap, 0, n)
	push := func(p int32) {
		if p < 0 || int(next[p]) >= n {
			return
		}
		end := next[next[p]]
		if r := b.rank(piece[p:end]); r != noRank {
			h.push(pair{r, p, end})
		}
	}
	for i := int32(0); int(i) < n-1; i++ {
		push(i)
	}
	for len(h) > 0 {
		c := h.pop()
		if !alive[c.start] || int(next[c.start]) >= n || next[next[c.start]] != c.end {
			continue // stale
		}
		q := next[c.start]
		alive[q] = false
		next[c.start] = next[q]
		prev[next[q]] = c.start
		push(prev[c.start])
		push(c.start)
	}
	for p := next[0]; ; p = next[p] {
		dst = append(dst, base+int(p))
		if int(p) >= n {
			break
		}
	}
	return dst
}

type pair struct {
	rank       uint32
	start, end int32
}

type pairHeap []pair

func (h pairHeap) less(i, j int) bool {
	return h[i].rank < h[j].rank || h[i].rank == h[j].rank && h[i].start < h[j].start
}

func (h *pairHeap) push(p pair) {
	*h = append(*h, p)
	s := *h
	for i := len(s) - 1; i > 0; {
		parent := (i - 1) / 2
		if !s.less(i, parent) {
			break
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
}

func (h *pairHeap) pop() pair {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(s) && s.less(l, m) {
			m = l
		}
		if r < len(s) && s.less(r, m) {
			m = r
		}
		if m == i {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}
