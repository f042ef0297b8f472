package retrieve

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/ragkit/ragkit/internal/parallel"
	"github.com/ragkit/ragkit/vectorstore"
)

// searchAll returns the best Depth hits for the questions: those of the
// one question, or the fusion of each question's (reciprocal rank fusion
// by default, every question weighted alike, with Config.Fusion's Method
// and K), so that a passage that several phrasings find rises.
func (r *Retriever) searchAll(ctx context.Context, qs []string, vectors [][]float32, st *timings) ([]vectorstore.Hit, error) {
	vec := func(i int) []float32 {
		if vectors == nil {
			return nil
		}
		return vectors[i]
	}
	if len(qs) == 1 {
		return r.searchOne(ctx, qs[0], vec(0), st)
	}
	lists := make([][]vectorstore.Hit, len(qs))
	for i, q := range qs {
		hits, err := r.searchOne(ctx, q, vec(i), st)
		if err != nil {
			return nil, err
		}
		lists[i] = hits
	}
	t0 := st.start()
	fused, err := Fuse(FusionConfig{Method: r.cfg.Fusion.Method, K: r.cfg.Fusion.K}, lists...)
	st.stop(stageFusion, t0)
	if err != nil {
		return nil, err
	}
	return fused[:min(len(fused), r.cfg.Depth)], nil
}

// searchOne returns the best Depth hits of the configured searches for
// one question, best first, ties in document order, without their
// vectors.
func (r *Retriever) searchOne(ctx context.Context, question string, vector []float32, st *timings) ([]vectorstore.Hit, error) {
	n := r.cfg.Depth
	var hits []vectorstore.Hit
	switch {
	case vector == nil: // Keywords
		t0 := st.start()
		kh, err := r.keywords.QueryKeywords(ctx, question, n, r.cfg.Filter)
		st.stop(stageKeyword, t0)
		if err != nil {
			return nil, fmt.Errorf("retrieve: keyword search: %w", err)
		}
		hits = kh
	case r.keywords == nil: // Vector, or Hybrid over a store without keyword search
		t0 := st.start()
		vh, err := r.vectorSearch(ctx, vector, n)
		st.stop(stageVector, t0)
		if err != nil {
			return nil, err
		}
		hits = vh
	default:
		vh, kh, err := r.both(ctx, question, vector, n, st)
		if err != nil {
			return nil, err
		}
		t0 := st.start()
		fused, err := Fuse(r.cfg.Fusion, vh, kh)
		st.stop(stageFusion, t0)
		if err != nil {
			return nil, err
		}
		return fused[:min(len(fused), n)], nil
	}
	// One search: its own scores, ties put in document order.
	slices.SortStableFunc(hits, byScore)
	return hits, nil
}

// both runs the vector and the keyword search: in one call of a store
// that can (both see the same records), otherwise at the same time.
func (r *Retriever) both(ctx context.Context, question string, vector []float32, n int, st *timings) (vh, kh []vectorstore.Hit, err error) {
	if hq, ok := r.cfg.Store.(vectorstore.HybridQuerier); ok {
		t0 := st.start()
		vh, kh, err = hq.QueryHybrid(ctx, vector, question, n, r.cfg.Filter)
		st.stop(stageVector, t0)
		if err != nil {
			return nil, nil, fmt.Errorf("retrieve: hybrid search: %w", err)
		}
		return vh, kh, nil
	}
	type result struct {
		hits []vectorstore.Hit
		took time.Duration
		err  error
	}
	ctx, cancel := context.WithCancel(ctx) // a failed vector search stops the keyword search
	defer cancel()
	done := make(chan result, 1) // buffered: an early return leaves no goroutine blocked
	timed := st != nil           // not st itself: the goroutine would move it to the heap
	go func() {
		var t0 time.Time
		if timed {
			t0 = time.Now()
		}
		hits, err := parallel.Call(func() ([]vectorstore.Hit, error) { return r.keywords.QueryKeywords(ctx, question, n, r.cfg.Filter) })
		var took time.Duration
		if timed {
			took = time.Since(t0)
		}
		done <- result{hits, took, err}
	}()
	t0 := st.start()
	vh, err = r.vectorSearch(ctx, vector, n)
	st.stop(stageVector, t0)
	if err != nil {
		return nil, nil, err
	}
	k := <-done
	st.add(stageKeyword, k.took)
	if k.err != nil {
		return nil, nil, fmt.Errorf("retrieve: keyword search: %w", k.err)
	}
	return vh, k.hits, nil
}

// vectorSearch returns the n nearest records, without their vectors.
func (r *Retriever) vectorSearch(ctx context.Context, vector []float32, n int) ([]vectorstore.Hit, error) {
	hits, err := r.cfg.Store.Query(ctx, vector, n, r.cfg.Filter) // hits carry no vectors
	if err != nil {
		return nil, fmt.Errorf("retrieve: vector search: %w", err)
	}
	return hits, nil
}
