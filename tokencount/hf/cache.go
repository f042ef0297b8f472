package hf

import (
	"hash/maphash"
	"strings"
	"sync/atomic"
)

// cache maps pieces to their token ends: a fixed, set-associative table
// of atomic pointers to immutable entries, so that lookups take no lock
// and memory is bounded. A piece lives in one of the cacheWays slots of
// its set, all on one cache line; a newer piece evicts the oldest. A
// piece longer than maxCached is not kept.
type cache struct {
	seed  maphash.Seed
	slots []atomic.Pointer[cacheEntry]
}

type cacheEntry struct {
	key  string
	ends []int32
}

const (
	cacheSlots = 1 << 16
	cacheWays  = 4
	maxCached  = 64
)

func newCache() *cache {
	return &cache{seed: maphash.MakeSeed(), slots: make([]atomic.Pointer[cacheEntry], cacheSlots)}
}

func (c *cache) set(s string) []atomic.Pointer[cacheEntry] {
	i := maphash.String(c.seed, s) & (cacheSlots - 1) &^ (cacheWays - 1)
	return c.slots[i : i+cacheWays : i+cacheWays]
}

func (c *cache) get(s string) ([]int32, bool) {
	if len(s) > maxCached {
		return nil, false
	}
	set := c.set(s)
	for k := range set {
		if e := set[k].Load(); e != nil && e.key == s {
			return e.ends, true
		}
	}
	return nil, false
}

func (c *cache) put(s string, ends []int32) {
	if len(s) > maxCached {
		return
	}
	set := c.set(s)
	// Shift the set down by one and put the new entry first.
	for k := cacheWays - 1; k > 0; k-- {
		set[k].Store(set[k-1].Load())
	}
	set[0].Store(&cacheEntry{key: strings.Clone(s), ends: ends})
}
