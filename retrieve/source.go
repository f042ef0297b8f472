package retrieve

import (
	"context"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/window"
)

// source is what a Widener reads: the store itself, or, with a filter,
// a view of it without the records the filter excludes.
func (r *Retriever) source() window.Source {
	if r.cfg.Filter.IsZero() {
		return r.cfg.Store
	}
	return filtered{store: r.cfg.Store, filter: r.cfg.Filter}
}

// filtered reads a store's units that pass a filter. A unit it leaves out
// is as if it were not stored: a window grows over the units on either
// side of it (so its text is not in the window's), and a segment's
// candidates skip it.
type filtered struct {
	store  vectorstore.VectorStore
	filter vectorstore.Filter
}

func (f filtered) Range(ctx context.Context, docID string, from, to int) ([]vectorstore.Record, error) {
	recs, err := f.store.Range(ctx, docID, from, to)
	return f.keep(recs), err
}

// RangeText reads without vectors where the store can.
func (f filtered) RangeText(ctx context.Context, docID string, from, to int) ([]vectorstore.Record, error) {
	tr, ok := f.store.(vectorstore.TextRanger)
	if !ok {
		return f.Range(ctx, docID, from, to)
	}
	recs, err := tr.RangeText(ctx, docID, from, to)
	return f.keep(recs), err
}

func (f filtered) keep(recs []vectorstore.Record) []vectorstore.Record {
	out := recs[:0]
	for _, r := range recs {
		if f.filter.Match(r) {
			out = append(out, r)
		}
	}
	return out
}
