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
// candidates skip it. The units beside one it leaves out lose their
// offsets, so that no window claims a span that holds the excluded text
// (a caller slicing the document by a passage's offsets would put it in
// a prompt): a passage holding one has no offsets.
type filtered struct {
	store  vectorstore.VectorStore
	filter vectorstore.Filter
}

func (f filtered) Range(ctx context.Context, docID string, from, to int) ([]vectorstore.Record, error) {
	recs, err := f.store.Range(ctx, docID, from, to)
	return f.keep(recs), err
}

func (f filtered) keep(recs []vectorstore.Record) []vectorstore.Record {
	out := recs[:0]
	gap := false // a unit left out since the last one kept
	for _, r := range recs {
		if !f.filter.Match(r) {
			gap = true
			if n := len(out); n > 0 {
				out[n-1].Start, out[n-1].End = 0, 0
			}
			continue
		}
		if gap {
			r.Start, r.End, gap = 0, 0, false
		}
		out = append(out, r)
	}
	return out
}
