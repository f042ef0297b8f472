package window

import (
	"context"

	"github.com/ragkit/ragkit/vectorstore"
)

// Widen is [Expander.Expand] reading the units from src in place of the
// configured Source, so that a caller can put a view of the store in
// front of it (one that leaves out the records a filter excludes, say).
// It makes Expander and [Extractor] interchangeable behind one method.
func (e *Expander) Widen(ctx context.Context, src Source, hits []vectorstore.Hit) ([]Window, error) {
	if e == nil || src == nil {
		return nil, errNoSource
	}
	c := *e
	c.cfg.Source = src
	return c.Expand(ctx, hits)
}

// Widen is [Extractor.Extract] reading the units from src in place of the
// configured Source; see [Expander.Widen].
func (x *Extractor) Widen(ctx context.Context, src Source, hits []vectorstore.Hit) ([]Window, error) {
	if x == nil || src == nil {
		return nil, errNoSource
	}
	c := *x
	c.cfg.Source = src
	return c.Extract(ctx, hits)
}
