package chunker

import "math"

// Planning works on the candidates alone: m+1 of them, from the start of
// the text (0) to its end (m), each with prefix token counts, so that the
// estimated size of a chunk from candidate i to candidate j is
// size(i, j) = e[j] - s[i]. A chunk may hold at most capacity tokens by
// estimate, or be a single unit (the refinement left only units that fit
// in MaxTokens, or reported an error).
//
// 1. The fewest chunks K: a greedy pass that always cuts at the farthest
//    candidate that fits is optimal for this kind of interval packing.
//    Its k-th cut L[k] is the farthest any k chunks reach. Optional
//    candidates (clause cuts offered for balance only) are left out, so
//    that they never make the chunks fewer and the cuts weaker.
// 2. The same pass from the end gives R[k], the earliest k-th cut from
//    which K-k chunks still reach the end. Every solution with K chunks
//    has its k-th cut between R[k] and L[k]; widened by half a chunk for
//    the optional candidates, these bands are about one chunk of slack
//    wide, so together they hold about twice the candidates.
// 3. Dynamic programming over the K layers of bands chooses the cuts
//    that minimise the sum over chunks of ((size - T) / T)², T being the
//    mean chunk size, plus a steeper price for chunks well under T, plus
//    the price of each cut's boundary (rankCost), with any chunk over
//    capacity or under MinTokens priced out. The cost of a chunk is a
//    convex function of e[j] - s[i], so the matrix of costs is Monge and
//    the best predecessor of a candidate moves forward with it: each
//    layer is solved by divide and conquer in O(n log n) rather than
//    O(n²).

type planner struct {
	left, right []int
	lo, hi      []int
	dp, prev    []float64
	arg         []int32
	off         []int
	anchors     []int
	sub, cuts   []int // the cuts of a stretch, and of the whole text
	strong      []strongCand
	window      []int
	isMax       []bool
}

// greedy returns the cuts of the greedy strategy, which are also the
// farthest reach L of the candidates that are not optional.
func (p *planner) greedy(s *split) []int {
	p.left = reach(s, p.left, false)
	return p.left
}

// reach returns the greedy cuts from the start: L[k] is the farthest
// candidate that k chunks reach, using the optional candidates too if
// all is set. A chunk may be one unit too long for capacity on its own.
func reach(s *split, L []int, all bool) []int {
	m := len(s.cands) - 1
	L = append(L[:0], 0)
	j := 0
	for L[len(L)-1] < m {
		i := L[len(L)-1]
		j = max(j, i+1)
		for j < m && s.size(i, j+1) <= s.capacity {
			j++
		}
		c := j
		for c > i && !all && s.cands[c].opt {
			c--
		}
		if c == i {
			for c++; !all && s.cands[c].opt; c++ {
			}
		}
		L = append(L, c)
	}
	return L
}

// reachBack returns R: R[K] = m and R[k] the earliest candidate from
// which the end is reachable with K-k chunks, using the optional
// candidates too if all is set.
func reachBack(s *split, R []int, K int, all bool) []int {
	m := len(s.cands) - 1
	R = R[:0]
	for range K + 1 {
		R = append(R, 0)
	}
	R[K] = m
	i := m
	for k := K - 1; k >= 0; k-- {
		j := R[k+1]
		i = min(i, j-1)
		for i > 0 && s.size(i-1, j) <= s.capacity {
			i--
		}
		c := i
		for c < j && !all && s.cands[c].opt {
			c++
		}
		if c == j { // nothing fits: one unit alone
			for c = j - 1; !all && s.cands[c].opt; c-- {
			}
		}
		R[k] = c
	}
	return R
}

// balanced returns the cuts of the balanced strategy: each stretch of
// the text between two anchors (see anchor.go) planned on its own.
func (p *planner) balanced(s *split) []int {
	p.anchors = p.appendAnchors(s, p.anchors[:0])
	if len(p.anchors) == 2 {
		return p.stretch(s)
	}
	all := s.cands
	defer func() { s.cands = all }()
	cuts := append(p.cuts[:0], 0)
	for k := 1; k < len(p.anchors); k++ {
		a, b := p.anchors[k-1], p.anchors[k]
		// The planner sees the stretch as a text of its own.
		s.cands = all[a : b+1]
		for _, c := range p.stretch(s)[1:] {
			cuts = append(cuts, a+c)
		}
	}
	p.cuts = cuts
	return cuts
}

// stretch returns the balanced cuts of the candidates s.cands, the
// first and last of which are cuts, in a buffer of the planner that the
// next call reuses.
func (p *planner) stretch(s *split) []int {
	L := p.greedy(s)
	K := len(L) - 1
	if K <= 1 {
		return L
	}
	m := len(s.cands) - 1
	total := float64(s.size(0, m))
	R := reachBack(s, p.right, K, false)
	p.right = R
	if total <= 0 || R[0] != 0 {
		return L // R[0] is 0 when L is optimal; keep a valid plan
	}
	lo, hi, ok := p.bands(s, L, R)
	if !ok {
		return L
	}
	cf := costFunc{s: s, t: total / float64(K), min: s.minTokens()}

	// arg holds, for each layer k in 1..K, the best predecessor of each
	// candidate of its band, at offsets off[k-1].
	off := p.off[:0]
	n := 0
	for k := 1; k <= K; k++ {
		off = append(off, n)
		n += hi[k] - lo[k] + 1
	}
	off = append(off, n)
	arg := grow(p.arg, n)
	prev := append(p.prev[:0], 0) // layer 0: the start, cost 0
	dp := p.dp
	for k := 1; k <= K; k++ {
		dp = grow(dp, hi[k]-lo[k]+1)
		cf.layer(prev, lo[k-1], hi[k-1], dp, lo[k], hi[k], arg[off[k-1]:off[k]])
		prev, dp = dp, prev
	}
	cuts := grow(p.sub, K+1)
	p.sub = cuts
	cuts[K] = m
	for k := K; k >= 1; k-- {
		cuts[k-1] = int(arg[off[k-1]+cuts[k]-lo[k]])
	}
	p.arg, p.prev, p.dp, p.off = arg, prev, dp, off
	return cuts
}

// bands returns the candidates the k-th cut may take, lo[k] to hi[k]:
// those between R[k] and L[k], which hold every solution that uses no
// optional candidate, widened by half a chunk on either side for
// the optional candidates near them, and kept far enough from the ends
// that every chunk holds at least one unit. Each band is about one chunk
// of slack and one chunk wide, so the bands hold about twice as many
// candidates as the text, whatever K is.
func (p *planner) bands(s *split, L, R []int) (lo, hi []int, ok bool) {
	K, m := len(L)-1, len(s.cands)-1
	delta := s.capacity / 2
	lo, hi = p.lo[:0], p.hi[:0]
	a, b := 0, 0
	for k := 0; k <= K; k++ {
		for a < m && s.cands[a].e < s.cands[R[k]].e-delta {
			a++
		}
		for b < m && s.cands[b+1].e <= s.cands[L[k]].e+delta {
			b++
		}
		l, h := max(a, k), min(b, m-(K-k))
		switch k {
		case 0:
			l, h = 0, 0
		case K:
			l, h = m, m
		}
		if l > R[k] || h < L[k] || R[k] > L[k] {
			return nil, nil, false // cannot happen when L is optimal
		}
		lo, hi = append(lo, l), append(hi, h)
	}
	p.lo, p.hi = lo, hi
	return lo, hi, true
}

// minTokens returns the floor the planner works to: MinTokens with the
// estimate margin added, so that a chunk at the floor by estimate is at
// it by exact count, unless the margin would make the floor hard to meet.
func (s *split) minTokens() int {
	m := s.c.cfg.MinTokens
	if m == 0 {
		return 0
	}
	return min(satAdd(m, s.c.margin), max(m, s.capacity/2))
}

type costFunc struct {
	s   *split
	t   float64 // the target size of a chunk
	min int
}

// A chunk more than shortFree below the target size pays shortCost
// times the square of the excess shortfall on top: the sum of squares
// alone would accept one small chunk to even out many others, and a small
// chunk is what balancing is for avoiding.
const shortFree, shortCost = 0.2, 30.0

// over is the price of each token over capacity or under MinTokens: far
// above any price of a plan that keeps the limits.
const over = 1e6

// cost returns the price of a chunk from candidate i to candidate j
// (including the price of the cut at j).
func (f *costFunc) cost(i, j int) float64 {
	size := f.s.size(i, j)
	x := (float64(size) - f.t) / f.t
	c := x*x + rankCost[f.s.cands[j].rank]
	if y := -x - shortFree; y > 0 {
		c += shortCost * y * y
	}
	if size > f.s.capacity && j > i+1 {
		c += over * float64(size-f.s.capacity) / f.t
	}
	if size < f.min {
		c += over * float64(f.min-size) / f.t
	}
	return c
}

// layer computes dp[j-lo] for the candidates j of a band from the previous
// layer's values prev[i-plo], recording the best i in arg[j-lo].
func (f *costFunc) layer(prev []float64, plo, phi int, dp []float64, lo, hi int, arg []int32) {
	var solve func(jl, jh, il, ih int)
	solve = func(jl, jh, il, ih int) {
		for jl <= jh {
			mid := int(uint(jl+jh) >> 1)
			best, bi := math.Inf(1), il
			for i := il; i <= min(ih, mid-1); i++ {
				if v := prev[i-plo] + f.cost(i, mid); v < best {
					best, bi = v, i
				}
			}
			dp[mid-lo], arg[mid-lo] = best, int32(bi)
			solve(jl, mid-1, il, bi)
			jl, il = mid+1, bi // the right half, without recursing
		}
	}
	solve(lo, hi, plo, phi)
}

// grow returns b resized to n, reallocated (and zeroed) only where its
// capacity is short; the planner overwrites what it reads.
func grow[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	return b[:n]
}
