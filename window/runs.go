package window

import "math"

// runPicker finds, again and again, the contiguous run of at most maxLen
// free positions with the largest sum of values, never crossing a wall
// (the start of a document) or a position already taken. Ties go to the
// shorter run, then to the one that ends first.
//
// best[j] is the best run ending at j, found with a sliding minimum of the
// prefix sums over the maxLen positions before j; a tournament tree over
// best gives the overall best in O(1). Taking a run [a, b] changes best
// only at a..b (now empty) and at the at most maxLen positions after b
// whose window reached into it, so a pick costs O(maxLen log n) and the
// whole selection O(n + picks·maxLen·log n).
type runPicker struct {
	prefix []float64 // prefix[i] = sum of values[:i]
	start  []int     // start of the block (document) holding each position
	taken  []bool
	from   []int   // start of the best run ending at each position, or -1
	tree   []int32 // tournament tree of positions; leaves at size+j
	size   int
	maxLen int
}

func newRunPicker(values []float64, docStart []int, maxLen int) *runPicker {
	n := len(values)
	r := &runPicker{prefix: make([]float64, n+1), start: docStart, taken: make([]bool, n),
		from: make([]int, n), maxLen: min(maxLen, n)} // a run is never longer than the units: MaxUnits may be huge
	for i, v := range values {
		r.prefix[i+1] = r.prefix[i] + v
	}
	r.size = 1
	for r.size < n {
		r.size *= 2
	}
	r.tree = make([]int32, 2*r.size)
	for i := range r.tree {
		r.tree[i] = -1
	}
	r.scan(0, n)
	for j := 0; j < n; j++ {
		r.tree[r.size+j] = int32(j)
	}
	for i := r.size - 1; i >= 1; i-- {
		r.tree[i] = r.better(r.tree[2*i], r.tree[2*i+1])
	}
	return r
}

// scan recomputes from[j] for j in [lo, hi) with a monotone deque of
// prefix sums; block starts and taken positions reset it.
func (r *runPicker) scan(lo, hi int) {
	dq := make([]int, 0, r.maxLen+1)
	head := 0
	for j := lo; j < hi; j++ {
		if r.taken[j] {
			r.from[j] = -1
			dq, head = dq[:0], 0
			continue
		}
		if r.start[j] == j {
			dq, head = dq[:0], 0
		}
		// candidate starts i are prefix indexes i in [j-maxLen+1, j]
		for len(dq) > head && r.prefix[dq[len(dq)-1]] >= r.prefix[j] {
			dq = dq[:len(dq)-1]
		}
		dq = append(dq, j)
		for dq[head] < j-r.maxLen+1 {
			head++
		}
		r.from[j] = dq[head]
	}
}

// value of the best run ending at j, or -Inf.
func (r *runPicker) value(j int32) float64 {
	if j < 0 || r.from[j] < 0 {
		return math.Inf(-1)
	}
	return r.prefix[j+1] - r.prefix[r.from[j]]
}

func (r *runPicker) better(a, b int32) int32 {
	va, vb := r.value(a), r.value(b)
	switch {
	case a < 0 || math.IsInf(va, -1):
		if b < 0 || math.IsInf(vb, -1) {
			return -1
		}
		return b
	case b < 0 || math.IsInf(vb, -1):
		return a
	case va != vb:
		if va > vb {
			return a
		}
		return b
	}
	la, lb := int(a)-r.from[a], int(b)-r.from[b]
	if la != lb {
		if la < lb {
			return a
		}
		return b
	}
	return min(a, b)
}

// best returns the best free run [a, b] and its value; ok is false when
// no position is free.
func (r *runPicker) best() (a, b int, v float64, ok bool) {
	j := r.tree[1]
	if j < 0 || r.from[j] < 0 {
		return 0, 0, 0, false
	}
	return r.from[j], int(j), r.value(j), true
}

// take marks [a, b] as used and updates the runs that reached into it.
func (r *runPicker) take(a, b int) {
	for j := a; j <= b; j++ {
		r.taken[j] = true
	}
	end := min(len(r.taken), b+r.maxLen)
	for j := b + 1; j < end; j++ {
		if r.taken[j] || r.start[j] == j {
			end = j
			break
		}
	}
	// the taken run resets the scan, so runs after b start at b+1
	r.scan(a, end)
	for j := a; j < end; j++ {
		r.update(j)
	}
}

func (r *runPicker) update(j int) {
	i := r.size + j
	for i >>= 1; i >= 1; i >>= 1 {
		r.tree[i] = r.better(r.tree[2*i], r.tree[2*i+1])
	}
}
