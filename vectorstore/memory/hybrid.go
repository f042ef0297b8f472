package memory

import (
	"context"

	"github.com/ragkit/ragkit/vectorstore"
)

// QueryHybrid runs [Store.Query] and [Store.QueryKeywords] under one
// read lock. It implements [vectorstore.HybridQuerier].
func (m *Store) QueryHybrid(ctx context.Context, vector []float32, text string, k int, filter vectorstore.Filter) (vectorHits, keywordHits []vectorstore.Hit, err error) {
	return m.hybridSearch(ctx, vector, text, k, filter)
}
