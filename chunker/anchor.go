package chunker

// Edit stability. A plan balanced over the whole text spreads any edit
// over every chunk whose cut can move: deleting a sentence shortens one
// chunk, and the planner evens the loss out over its neighbours, or, when
// the text now fits in one chunk fewer, over the whole text. A document
// whose chunks are embedded and indexed would then be embedded again
// nearly whole after a one-word fix.
//
// So the balanced planner first parts the text at anchors: strong
// boundaries chosen by the text around them alone, not by where they lie
// in the document, and then plans each stretch between two anchors on its
// own. An edit moves the cuts of its own stretch at most (and of the one
// beside it where it moves an anchor); every other stretch is the same
// text planned the same way, so its chunks are byte for byte the same.
//
// An anchor is a candidate at a sentence boundary or stronger whose key,
// its rank and then a hash of the bytes around it (see anchorHash), is the greatest of the
// keys of those candidates within reach tokens on either side, and which
// lies at least reach tokens from either end of the text. Whether a
// candidate is an anchor thus depends on the text within reach tokens of
// it only, anchors are more than reach tokens apart, and they fall at the
// strongest boundaries around (headings, then paragraphs) where there are
// any.
//
// Each stretch pays for its independence with the rounding of its own
// chunk count, about half a chunk on average, so stretches are long: by
// default anchors lie (8 + capacity/32)/2 chunks apart or more (see
// stretchReach; Config.StretchChunks sets it). The cost is a few percent
// more chunks than a plan of the whole text, and sizes still balanced
// within each stretch.

// anchorContext is how many bytes on either side of a candidate its hash
// reads.
const anchorContext = 24

// A strongCand is a candidate that may be an anchor.
type strongCand struct {
	i   int    // index in s.cands
	pos int    // prefix count at its end
	key uint64 // rank, then hash: the greatest within reach is an anchor
}

// stretchReach returns the least distance in tokens between two anchors
// (and from an end of the text to an anchor) for a chunk capacity: chunks
// chunks, or half of 8 + capacity/32 where chunks is 0, or 0 where that
// does not fit in an int (no text is that long).
func stretchReach(capacity, chunks int) int {
	half := 1
	if chunks == 0 {
		chunks, half = 8+capacity/32, 2
	}
	if chunks > (1<<62)/capacity {
		return 0
	}
	return capacity * chunks / half
}

// appendAnchors appends to out the indices of the anchors of s.cands,
// the first and the last candidate included, in order.
func (p *planner) appendAnchors(s *split, out []int) []int {
	m := len(s.cands) - 1
	out = append(out, 0)
	reach := stretchReach(s.capacity, s.c.cfg.StretchChunks)
	if reach == 0 || s.cands[m].e-s.cands[0].s <= 2*reach {
		return append(out, m)
	}
	if cap(p.strong) < m {
		p.strong = make([]strongCand, 0, m) // at most one per candidate
	}
	strong := p.strong[:0]
	lo, hi := s.cands[0].s+reach, s.cands[m].e-reach
	for i := 1; i < m; i++ {
		c := &s.cands[i]
		if c.opt || c.rank > rSentence {
			continue
		}
		strong = append(strong, strongCand{i: i, pos: c.e, key: rankKey(c.rank)})
	}
	p.strong = strong
	p.hashWhereNeeded(s, reach)
	// A candidate is an anchor if no key within reach before it is
	// greater or equal (first pass, which marks the survivors) and none
	// within reach after it is greater (second pass, backwards).
	p.isMax = grow(p.isMax, len(strong))
	w := keyWindow{strong: strong, q: grow(p.window, len(strong)), reach: reach, dir: 1}
	for n := range strong {
		p.isMax[n] = w.slide(n)
	}
	w.head, w.tail, w.dir = 0, 0, -1
	for n := len(strong) - 1; n >= 0; n-- {
		if !w.slide(n) {
			p.isMax[n] = false
		}
	}
	p.window = w.q
	for n, a := range strong {
		if p.isMax[n] && a.pos >= lo && a.pos <= hi {
			out = append(out, a.i)
		}
	}
	return append(out, m)
}

// A keyWindow holds the strong candidates within reach of the one last
// slid to, on the side the slide comes from (dir 1: before it, -1: after
// it), as a queue q[head:tail] of indices with decreasing keys: each
// candidate enters it and leaves it once, so a pass is linear.
type keyWindow struct {
	strong     []strongCand
	q          []int
	head, tail int
	reach, dir int
}

// slide moves the window to strong[n] and reports whether its key beats
// every key in the window.
func (w *keyWindow) slide(n int) bool {
	a := w.strong[n]
	for w.head < w.tail && w.dir*(a.pos-w.strong[w.q[w.head]].pos) > w.reach {
		w.head++
	}
	beats := w.head == w.tail || a.key > w.strong[w.q[w.head]].key
	for w.head < w.tail && w.strong[w.q[w.tail-1]].key <= a.key {
		w.tail--
	}
	w.q[w.tail] = n
	w.tail++
	return beats
}

// hashWhereNeeded completes the keys of p.strong, which hold their ranks
// only, with the hash of the bytes around them where the hash can decide
// an anchor: where a candidate of the same rank within reach (or the
// candidate itself) has no stronger one within reach. Any other
// candidate loses to a stronger one within reach, as does every candidate
// of its rank within reach of it, whatever their hashes; the anchors come
// out as if every key held its hash, at a fraction of the hashing.
func (p *planner) hashWhereNeeded(s *split, reach int) {
	strong := p.strong
	top := grow(p.isMax, len(strong)) // no stronger candidate within reach
	for n := range top {
		top[n] = true
	}
	var seen [numRanks]int // 1 + index of the last candidate of each rank passed
	mark := func(n int) {
		for q := range strong[n].rank() { // the stronger ranks
			if m := seen[q] - 1; m >= 0 && abs(strong[n].pos-strong[m].pos) <= reach {
				top[n] = false
				return
			}
		}
	}
	for n := range strong {
		mark(n)
		seen[strong[n].rank()] = n + 1
	}
	seen = [numRanks]int{}
	for n := len(strong) - 1; n >= 0; n-- {
		mark(n)
		seen[strong[n].rank()] = n + 1
	}
	// need: a top candidate of the same rank within reach, before or at n
	// (forward) or after it (backward).
	need := func(n int, lastTop *[numRanks]int) bool {
		r := strong[n].rank()
		if top[n] {
			lastTop[r] = n + 1
			return true
		}
		m := lastTop[r] - 1
		return m >= 0 && abs(strong[n].pos-strong[m].pos) <= reach
	}
	hashed := func(n int) {
		if strong[n].key&(1<<56-1) == 0 {
			strong[n].key |= anchorHash(s, &s.cands[strong[n].i])
		}
	}
	var lastTop [numRanks]int
	for n := range strong {
		if need(n, &lastTop) {
			hashed(n)
		}
	}
	lastTop = [numRanks]int{}
	for n := len(strong) - 1; n >= 0; n-- {
		if need(n, &lastTop) {
			hashed(n)
		}
	}
	p.isMax = top
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// rank returns the rank of the candidate, from its key.
func (a strongCand) rank() rank { return numRanks - rank(a.key>>56) }

// rankKey returns the part of an anchor key that its rank gives: the
// stronger the rank, the greater.
func rankKey(r rank) uint64 { return uint64(numRanks-r) << 56 }

// anchorHash returns the hash of the bytes around candidate c, in the low
// 56 bits.
func anchorHash(s *split, c *cand) uint64 {
	a, b := max(s.first, c.end-anchorContext), min(s.last, c.start+anchorContext)
	h := uint64(14695981039346656037) // FNV-1a
	for i := a; i < b; i++ {
		h ^= uint64(s.text[i])
		h *= 1099511628211
	}
	// Mix the high bits down so that the low bits kept below are as good.
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h >> 8
}
