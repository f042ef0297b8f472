package ingest

import (
	"context"
	"fmt"

	"github.com/ragkit/ragkit/vectorstore"
)

// Prune deletes from the store every document whose ID is not in keep:
// the documents gone from the source, when keep lists the source's
// documents. It returns the IDs of the documents deleted, sorted. The
// store must list its documents (vectorstore.DocumentLister, which Memory
// implements), or the error wraps ErrConfig; with another store, call
// its DeleteDocument for the documents known to be gone. A failed delete
// stops Prune with an error wrapping ErrStore, and the deletions done so far
// stay done.
func (ix *Indexer) Prune(ctx context.Context, keep ...string) ([]string, error) {
	if ix == nil || ix.cfg.Store == nil {
		return nil, fmt.Errorf("%w: Indexer not made by New", ErrConfig)
	}
	lister, ok := ix.cfg.Store.(vectorstore.DocumentLister)
	if !ok {
		return nil, fmt.Errorf("%w: the Store (%T) cannot list its documents: Prune needs a vectorstore.DocumentLister", ErrConfig, ix.cfg.Store)
	}
	ids, err := lister.DocumentIDs(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: listing documents: %w", ErrStore, err)
	}
	kept := make(map[string]bool, len(keep))
	for _, id := range keep {
		kept[id] = true
	}
	var deleted []string
	for _, id := range ids {
		if kept[id] {
			continue
		}
		if err := ix.cfg.Store.DeleteDocument(ctx, id); err != nil {
			return deleted, fmt.Errorf("%w: deleting document %q: %w", ErrStore, id, err)
		}
		deleted = append(deleted, id)
	}
	return deleted, nil
}
