package retrieve

import (
	"context"
	"fmt"
	"slices"

	"github.com/ragkit/ragkit/internal/parallel"
	"github.com/ragkit/ragkit/vectorstore"
)

// search returns the best Depth hits of the configured searches, best
// first, ties in document order, without their vectors.
func (r *Retriever) search(ctx context.Context, question string, vector []float32) ([]vectorstore.Hit, error) {
	n := r.cfg.Depth
	var hits []vectorstore.Hit
	switch {
	case vector == nil: // Keywords
		kh, err := r.keywords.QueryKeywords(ctx, question, n, r.cfg.Filter)
		if err != nil {
			return nil, fmt.Errorf("retrieve: keyword search: %w", err)
		}
		hits = kh
	case r.keywords == nil: // Vector, or Hybrid over a store without keyword search
		vh, err := r.vectorSearch(ctx, vector, n)
		if err != nil {
			return nil, err
		}
		hits = vh
	default:
		vh, kh, err := r.both(ctx, question, vector, n)
		if err != nil {
			return nil, err
		}
		fused, err := Fuse(r.cfg.Fusion, vh, kh)
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
func (r *Retriever) both(ctx context.Context, question string, vector []float32, n int) (vh, kh []vectorstore.Hit, err error) {
	if hq, ok := r.cfg.Store.(vectorstore.HybridQuerier); ok {
		vh, kh, err = hq.QueryHybrid(ctx, vector, question, n, r.cfg.Filter)
		if err != nil {
			return nil, nil, fmt.Errorf("retrieve: hybrid search: %w", err)
		}
		return vh, kh, nil
	}
	type result struct {
		hits []vectorstore.Hit
		err  error
	}
	ctx, cancel := context.WithCancel(ctx) // a failed vector search stops the keyword search
	defer cancel()
	done := make(chan result, 1) // buffered: an early return leaves no goroutine blocked
	go func() {
		hits, err := parallel.Call(func() ([]vectorstore.Hit, error) { return r.keywords.QueryKeywords(ctx, question, n, r.cfg.Filter) })
		done <- result{hits, err}
	}()
	vh, err = r.vectorSearch(ctx, vector, n)
	if err != nil {
		return nil, nil, err
	}
	k := <-done
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
