package vectorstore

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/ragkit/ragkit/vectorstore/internal/kernel"
)

const (
	// checkEvery is how many vectors a scan scores between looks at the
	// context.
	checkEvery = 1024
	// minWorkPerWorker is the least number of vector components worth a
	// goroutine of its own (about 20µs of scanning).
	minWorkPerWorker = 1 << 16
)

// oversample is the number of candidates a compact scan keeps for the
// re-rank: the int8 scores rank the true top k within the first few
// places (see the recall benchmarks), so a handful of spares suffices.
func oversample(k int) int { return 4*k + 32 }

// scratch is the per-query working memory, pooled so a query allocates
// little more than its result.
type scratch struct {
	q     []float32
	qc    []int8
	tops  []kernel.TopK
	cands []kernel.Candidate
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// Query returns the k records most similar to vector by cosine similarity,
// best first (ties in score by ID), among those that match filter. It
// returns fewer than k hits when fewer records match. The stored vectors
// are unit length, so the score is one dot product per record; the scan is
// split across [MemoryConfig.Workers] goroutines and stops early when ctx
// is cancelled.
func (m *Memory) Query(ctx context.Context, vector []float32, k int, filter Filter) ([]Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(vector) == 0 {
		return nil, ErrEmptyVector
	}
	if k <= 0 {
		return nil, fmt.Errorf("%w: %d", ErrInvalidK, k)
	}
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	sc.q = append(sc.q[:0], vector...)
	switch n := kernel.Normalize(sc.q); {
	case n == 0:
		return nil, ErrZeroVector
	case n != n:
		return nil, ErrNonFinite
	}

	if err := m.rlock(ctx); err != nil {
		return nil, err
	}
	defer m.mu.RUnlock()
	if m.dim != 0 && len(vector) != m.dim {
		return nil, fmt.Errorf("%w: query has %d, store has %d", ErrDimensionMismatch, len(vector), m.dim)
	}
	if len(m.st.recs) == 0 {
		return nil, nil
	}
	cands, err := m.search(ctx, sc, k, filter)
	if err != nil {
		return nil, err
	}
	return m.hits(cands), nil
}

// search returns the best k candidates, best first. The caller holds the
// read lock.
func (m *Memory) search(ctx context.Context, sc *scratch, k int, filter Filter) ([]kernel.Candidate, error) {
	var subset []int32
	if len(filter.DocIDs) > 0 {
		subset = m.docSlots(filter.DocIDs)
		if len(subset) == 0 {
			return nil, nil
		}
	}
	total := len(m.st.recs)
	if subset != nil {
		total = len(subset)
	}
	k = min(k, total) // a huge k must not size the heaps
	s := scan{m: m, q: sc.q, meta: filter.Metadata, keep: k}
	if m.compact {
		if cap(sc.qc) < m.dim {
			sc.qc = make([]int8, m.dim)
		}
		s.qc = sc.qc[:m.dim]
		kernel.QuantizeQuery(s.q, s.qc)
		s.keep = min(oversample(k), total)
	}
	workers := min(m.workers, max(1, total*m.dim/minWorkPerWorker))
	sc.tops = slices.Grow(sc.tops[:0], workers)[:workers]
	if err := s.run(ctx, sc.tops, subset, total); err != nil {
		return nil, err
	}
	return m.merge(sc, k), nil
}

// docSlots returns the slots of the given documents.
func (m *Memory) docSlots(docIDs []string) []int32 {
	var out []int32
	for i, d := range docIDs {
		if slices.Contains(docIDs[:i], d) {
			continue
		}
		out = append(out, m.docs[d]...)
	}
	return out
}

// merge combines the workers' candidates into the best k, re-ranking a
// compact store's candidates against the refined vectors first.
func (m *Memory) merge(sc *scratch, k int) []kernel.Candidate {
	all := sc.cands[:0]
	for i := range sc.tops {
		all = append(all, sc.tops[i].Items()...)
	}
	sc.cands = all
	if m.compact {
		rb := kernel.ResidualBytes(m.dim)
		for i := range all {
			s := int(all[i].Slot)
			all[i].Score = kernel.DotRefined(sc.q, m.st.codes[s*m.dim:(s+1)*m.dim], m.st.resid[s*rb:(s+1)*rb], m.st.scales[s])
		}
	}
	top := &sc.tops[0]
	top.Reset(k)
	for _, c := range all {
		top.Push(c.Score, c.Slot)
	}
	out := slices.Clone(top.Items())
	slices.SortFunc(out, func(a, b kernel.Candidate) int {
		if top.Better(a, b) {
			return -1
		}
		return 1
	})
	return out
}

// hits turns candidates into hits, their vectors sharing one allocation.
func (m *Memory) hits(cands []kernel.Candidate) []Hit {
	out := make([]Hit, len(cands))
	vecs := make([]float32, len(cands)*m.dim)
	for i, c := range cands {
		out[i] = Hit{Record: m.st.recs[c.Slot], Score: c.Score}
		v := vecs[i*m.dim : (i+1)*m.dim : (i+1)*m.dim]
		m.st.vector(v, int(c.Slot), m.dim)
		out[i].Vector = v
	}
	return out
}

// scan is one query's pass over the store.
type scan struct {
	m    *Memory
	q    []float32
	qc   []int8 // the quantized query, for a compact store
	meta map[string]string
	keep int
}

// run scores positions [0, total) of the store (or of subset) on len(tops)
// goroutines, each keeping its best s.keep in its own heap.
func (s *scan) run(ctx context.Context, tops []kernel.TopK, subset []int32, total int) error {
	errs := make([]error, len(tops))
	var wg sync.WaitGroup
	for w := range tops {
		tops[w].Reset(s.keep)
		tops[w].Before = s.m.idBefore
		lo, hi := w*total/len(tops), (w+1)*total/len(tops)
		if w == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[w] = s.part(ctx, &tops[w], subset, lo, hi)
		}()
	}
	errs[0] = s.part(ctx, &tops[0], subset, 0, total/len(tops))
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// part scores positions [lo, hi), looking at ctx every checkEvery vectors.
func (s *scan) part(ctx context.Context, top *kernel.TopK, subset []int32, lo, hi int) error {
	done := ctx.Done()
	for base := lo; base < hi; base += checkEvery {
		if done != nil {
			select {
			case <-done:
				return ctx.Err()
			default:
			}
		}
		end := min(base+checkEvery, hi)
		switch {
		case subset != nil:
			s.scoreSubset(top, subset[base:end])
		case s.qc != nil:
			s.scoreInt8(top, base, end)
		default:
			s.scoreFloat(top, base, end)
		}
	}
	return nil
}

func (s *scan) scoreFloat(top *kernel.TopK, lo, hi int) {
	q, dim := s.q, len(s.q)
	vecs, recs := s.m.st.vecs, s.m.st.recs
	for i := lo; i < hi; i++ {
		score := kernel.Dot(q, vecs[i*dim:(i+1)*dim])
		if top.Accepts(score) && s.match(&recs[i]) {
			top.Push(score, int32(i))
		}
	}
}

// scoreInt8 ranks by the int8 dot product times the vector's scale; the
// query's own scale is the same for every vector and is left out.
func (s *scan) scoreInt8(top *kernel.TopK, lo, hi int) {
	q, dim := s.qc, len(s.qc)
	codes, scales, recs := s.m.st.codes, s.m.st.scales, s.m.st.recs
	for i := lo; i < hi; i++ {
		score := float32(kernel.DotInt8(q, codes[i*dim:(i+1)*dim])) * scales[i]
		if top.Accepts(score) && s.match(&recs[i]) {
			top.Push(score, int32(i))
		}
	}
}

func (s *scan) scoreSubset(top *kernel.TopK, slots []int32) {
	dim := len(s.q)
	for _, slot := range slots {
		i := int(slot)
		var score float32
		if s.qc != nil {
			score = float32(kernel.DotInt8(s.qc, s.m.st.codes[i*dim:(i+1)*dim])) * s.m.st.scales[i]
		} else {
			score = kernel.Dot(s.q, s.m.st.vecs[i*dim:(i+1)*dim])
		}
		if top.Accepts(score) && s.match(&s.m.st.recs[i]) {
			top.Push(score, slot)
		}
	}
}

// match applies the metadata part of the filter; the document part is
// applied by scanning only the documents' slots.
func (s *scan) match(r *Record) bool {
	for k, want := range s.meta {
		if got, ok := r.Metadata[k]; !ok || got != want {
			return false
		}
	}
	return true
}
