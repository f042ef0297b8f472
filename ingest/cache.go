package ingest

import (
	"context"
	"slices"
	"sync"
)

// A Cache keeps vectors between runs and across documents, under the
// [Key] of the embed text they were made from, so that a text embedded
// once is never embedded again, whatever document it turns up in. Back it
// with a file or a database to keep vectors across processes; MemoryCache
// keeps them in memory. A Cache must be safe for concurrent use. An error
// from it fails the document (wrapping ErrCache).
type Cache interface {
	// Get returns the vector stored under key, and whether there is one.
	Get(ctx context.Context, key string) (vector []float32, ok bool, err error)
	// Put stores vector under key.
	Put(ctx context.Context, key string, vector []float32) error
}

// A MemoryCache is a Cache in memory, safe for concurrent use. Its zero
// value is an empty cache ready to use. It never evicts: it holds one
// vector per distinct embed text.
type MemoryCache struct {
	mu sync.RWMutex
	m  map[string][]float32
}

// Get returns a copy of the vector stored under key.
func (c *MemoryCache) Get(_ context.Context, key string) ([]float32, bool, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[key]
	return slices.Clone(v), ok, nil
}

// Put stores a copy of vector under key.
func (c *MemoryCache) Put(_ context.Context, key string, vector []float32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[string][]float32)
	}
	c.m[key] = slices.Clone(vector)
	return nil
}

// Len returns the number of vectors cached.
func (c *MemoryCache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}
