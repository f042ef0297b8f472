// Package query runs a retrieve.Retriever with the per-call options that
// frameworks give (how many passages, a filter, a score threshold), for the
// Retriever adapters.
package query

import (
	"context"
	"fmt"

	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
)

// Options are a call's options; the zero value changes nothing.
type Options struct {
	K         int                // passages to return; 0 keeps the Retriever's
	Filter    vectorstore.Filter // narrows the Retriever's (meta.Combine); the zero Filter keeps it
	Threshold *float64           // keep passages scoring at least this
	Vector    []float32          // the question's vector, if the call embedded it
}

// Run returns the passages of r for question under o, and the kind of their
// scores. K and Filter run a Retriever of r's configuration with Passages K
// (and Depth at least K) and the intersection of Filter with r's own filter
// (meta.Combine: a call's filter narrows the Retriever's, never replaces
// it). A Threshold on scores other than cosine similarities gives an error
// wrapping meta.ErrUnsupported (meta.CheckThreshold).
func Run(ctx context.Context, r *retrieve.Retriever, question string, o Options) ([]retrieve.Passage, meta.ScoreKind, error) {
	cfg := r.Config()
	kind := meta.KindOf(cfg.Search)
	if o.Threshold != nil {
		if err := meta.CheckThreshold(kind, *o.Threshold); err != nil {
			return nil, kind, err
		}
	}
	if o.K < 0 {
		return nil, kind, fmt.Errorf("%w: k is %d: must be positive", vectorstore.ErrInvalidArgument, o.K)
	}
	if o.K > 0 || !o.Filter.IsZero() {
		if o.K > 0 {
			cfg.Passages = o.K
			cfg.Depth = max(cfg.Depth, o.K)
		}
		cfg.Filter = meta.Combine(cfg.Filter, o.Filter)
		var err error
		if r, err = retrieve.New(cfg); err != nil {
			return nil, kind, err
		}
	}
	var ps []retrieve.Passage
	var err error
	if o.Vector != nil {
		ps, err = r.RetrieveVector(ctx, question, o.Vector)
	} else {
		ps, err = r.Retrieve(ctx, question)
	}
	if err != nil {
		return nil, kind, err
	}
	if o.Threshold != nil {
		for i, p := range ps {
			if float64(p.Score) < *o.Threshold {
				return ps[:i], kind, nil // passages come best first
			}
		}
	}
	return ps, kind, nil
}

// CheckStore returns the error, wrapping errConfig, that an adapter's
// constructor gives for a missing store or embedder, or a negative number
// of results k (the field kField).
func CheckStore(errConfig error, store vectorstore.VectorStore, e vectorstore.Embedder, kField string, k int) error {
	switch {
	case store == nil:
		return fmt.Errorf("%w: Store is nil: it is required", errConfig)
	case e == nil:
		return fmt.Errorf("%w: Embedder is nil: it is required", errConfig)
	case k < 0:
		return fmt.Errorf("%w: %s is %d: must be 0 (the default) or positive", errConfig, kField, k)
	}
	return nil
}
