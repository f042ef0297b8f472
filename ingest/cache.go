package ingest

import (
	"context"
	"slices"

	"github.com/ragkit/ragkit/internal/syncmap"
)

// A Cache keeps embedding vectors between runs and across documents, under
// a key that [Indexer] derives from the embed text and Config.EmbedderName.
// Implement it with a file or a database to keep vectors across processes;
// [MemoryCache] keeps them in memory. A Cache must be safe for concurrent
// use. Get reports a miss with false and a nil error; an error fails the
// document (wrapping [ErrCache]) rather than being taken as a miss, so that
// a broken cache never turns silently into paid Embed calls. A vector Get
// returns is the caller's to keep: the Indexer does not modify it, and
// neither may the Cache afterwards.
type Cache interface {
	Get(ctx context.Context, key string) (vector []float32, ok bool, err error)
	Put(ctx context.Context, key string, vector []float32) error
}

// A MemoryCache is a [Cache] in memory, safe for concurrent use. Its zero
// value is empty and ready to use. It keeps its own copy of each vector.
type MemoryCache struct{ m syncmap.Map[[]float32] }

// Get returns a copy of the vector stored under key. It never fails.
func (c *MemoryCache) Get(_ context.Context, key string) ([]float32, bool, error) {
	v, ok := c.m.Get(key)
	return slices.Clone(v), ok, nil
}

// Put stores a copy of vector under key, replacing any vector there. It
// never fails.
func (c *MemoryCache) Put(_ context.Context, key string, vector []float32) error {
	c.m.Put(key, slices.Clone(vector))
	return nil
}

// Len returns the number of entries; 0 for a nil MemoryCache.
func (c *MemoryCache) Len() int {
	if c == nil {
		return 0
	}
	return c.m.Len()
}
