package hf

import (
	"hash/maphash"
	"strings"
	"sync/atomic"
)

// cache maps pieces to their token ends: a fixed table of atomic
// pointers, so that lookups take no lock and memory is bounded. A
// collision overwrites; a piece longer than maxCached is not kept.
type cache struct {
	seed  maphash.Seed
	slots []atomic.Pointer[cacheEntry]
}

type cacheEntry struct {
	key  string
	ends []int32
}

const (
	cacheSlots = 1 << 18
	maxCached  = 64
)

func newCache() *cache {
	return &cache{seed: maphash.MakeSeed(), slots: make([]atomic.Pointer[cacheEntry], cacheSlots)}
}

func (c *cache) get(s string) ([]int32, bool) {
	if len(s) > maxCached {
		return nil, false
	}
	e := c.slots[maphash.String(c.seed, s)&(cacheSlots-1)].Load()
	if e == nil || e.key != s {
		return nil, false
	}
	return e.ends, true
}

func (c *cache) put(s string, ends []int32) {
	if len(s) > maxCached {
		return
	}
	c.slots[maphash.String(c.seed, s)&(cacheSlots-1)].Store(&cacheEntry{key: strings.Clone(s), ends: ends})
}
