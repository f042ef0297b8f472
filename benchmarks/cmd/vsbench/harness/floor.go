package harness

import (
	"runtime"
	"sync"
)

// Floor is the bare exact search that the store is measured against,
// written here independently of vectorstore (nothing of it is used): one
// goroutine per CPU, each over a contiguous share of one slab of vectors,
// a dot product per vector, and a small sorted top-K per goroutine,
// merged at the end. It has no records, filters, context, IDs or
// normalisation of the query: what the store adds to a search is the
// difference.
type Floor struct {
	d        *Dataset
	unrolled bool
	parts    []floorTop
	top      floorTop
}

// floorTop is a top-K list sorted best first, padded to a cache line of
// its own so that goroutines side by side do not share one.
type floorTop struct {
	n     int
	score [K]float32
	index [K]int32
	_     [64]byte
}

// NewFloor returns the floor over d. Unrolled selects the loop: a plain
// indexed loop taking eight components per iteration into four
// accumulators; otherwise the naive loop with one accumulator, the loop
// chromem-go has.
func NewFloor(d *Dataset, unrolled bool) *Floor {
	return &Floor{d: d, unrolled: unrolled}
}

// Run finds the K vectors with the largest dot product with q.
func (f *Floor) Run(q []float32) {
	w := runtime.GOMAXPROCS(0)
	if len(f.parts) != w {
		f.parts = make([]floorTop, w)
	}
	var wg sync.WaitGroup
	for p := range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.scan(&f.parts[p], q, p*f.d.N/w, (p+1)*f.d.N/w)
		}()
	}
	wg.Wait()
	f.top.n = 0
	for p := range f.parts {
		for j := range f.parts[p].n {
			f.top.push(f.parts[p].score[j], f.parts[p].index[j])
		}
	}
}

// Top returns the indexes of the vectors Run found, best first.
func (f *Floor) Top() []int {
	out := make([]int, f.top.n)
	for j := range out {
		out[j] = int(f.top.index[j])
	}
	return out
}

func (f *Floor) scan(t *floorTop, q []float32, lo, hi int) {
	t.n = 0
	dim, vecs := f.d.Dim, f.d.Vecs
	for i := lo; i < hi; i++ {
		v := vecs[i*dim : (i+1)*dim]
		var s float32
		if f.unrolled {
			s = dotUnrolled(q, v)
		} else {
			s = dotNaive(q, v)
		}
		if t.n < K || s > t.score[K-1] {
			t.push(s, int32(i))
		}
	}
}

// push inserts a candidate; of equal scores the one pushed first ranks
// first, which is the lower index both within a share and across shares.
func (t *floorTop) push(s float32, i int32) {
	j := t.n
	if j < K {
		t.n++
	} else if s <= t.score[K-1] {
		return
	} else {
		j = K - 1
	}
	for ; j > 0 && t.score[j-1] < s; j-- {
		t.score[j], t.index[j] = t.score[j-1], t.index[j-1]
	}
	t.score[j], t.index[j] = s, i
}

// dotUnrolled takes eight components per iteration, indexed from one
// counter, into four accumulators: eight accumulators and their products
// need more float registers than the 15 the Go ABI leaves on amd64, and
// with one of them on the stack the loop measured a fifth slower. The
// loop's condition is i <= n-8 rather than i+8 <= n, which the compiler
// cannot rule out overflowing, so that it drops the bounds checks.
func dotUnrolled(a, b []float32) float32 {
	n := len(a)
	b = b[:n]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i <= n-8; i += 8 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
		s0 += a[i+4] * b[i+4]
		s1 += a[i+5] * b[i+5]
		s2 += a[i+6] * b[i+6]
		s3 += a[i+7] * b[i+7]
	}
	for ; i < n; i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

func dotNaive(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
