package ingest_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// firstGetCache answers its first Get with a vector of its own, the others
// from the MemoryCache.
type firstGetCache struct {
	ingest.MemoryCache
	mu     sync.Mutex
	gets   int
	vector []float32
}

func (c *firstGetCache) Get(ctx context.Context, key string) ([]float32, bool, error) {
	c.mu.Lock()
	c.gets++
	first := c.gets == 1
	c.mu.Unlock()
	if !first {
		return c.MemoryCache.Get(ctx, key)
	}
	return slices.Clone(c.vector), true, nil
}

// A Cache entry of another length than the Embedder's vectors is a miss,
// as Config.Cache documents: it never becomes the length the run holds
// the Embedder's vectors to. It used to: the first document was written
// with the 2-dimensional vector, the other three failed.
func TestCacheEntryOfAnotherLengthIsAMiss(t *testing.T) {
	ctx := context.Background()
	docs := []document.Document{
		{ID: "a", Text: "The first text."}, {ID: "b", Text: "The second text."},
		{ID: "c", Text: "The third text."}, {ID: "d", Text: "The fourth text."},
	}
	for name, tt := range map[string]struct {
		vector         []float32
		cached, embeds int
	}{
		"short":         {[]float32{0.6, 0.8}, 0, 4},
		"the right one": {fakeVector(docs[0].Text), 1, 3},
	} {
		t.Run(name, func(t *testing.T) {
			store := &memory.Store{}
			cache := &firstGetCache{vector: tt.vector}
			stats, err := newIndexer(t, ingest.Config{Cache: cache, Store: store, Embedder: &counting{}, BatchSize: 1}).Index(ctx, docs...)
			require.NoError(t, err)
			require.Equal(t, 4, stats.Written)
			require.Equal(t, tt.cached, stats.Cached)
			require.Equal(t, tt.embeds, stats.Embedded)
			for _, d := range docs {
				recs, err := store.Range(ctx, d.ID, 0, 0)
				require.NoError(t, err)
				require.Len(t, recs, 1)
				require.Len(t, recs[0].Vector, fakeDim, "document %s", d.ID)
			}
		})
	}
}
