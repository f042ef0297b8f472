package hf

import (
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"unsafe"
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

// smallCache maps pieces of up to 16 bytes (most words) to their token
// ends, with the piece and its ends in the slot itself: a lookup reads
// one cache line and allocates nothing, where cache follows a pointer to
// an entry and another to its key. A piece is two words that, with its
// length, spell it exactly (see smallKey); its ends (each 1 to 16) take
// 4 bits each in a third. Each slot is a seqlock: a reader that sees it
// being written, or written while it read, takes it for a miss, and a
// writer that finds it being written gives up.
type smallCache struct {
	seed  [2]uint64
	slots []smallSlot
	shift uint
}

type smallSlot struct {
	ver  atomic.Uint32 // odd while being written
	meta atomic.Uint32 // len<<8 | count; 0 when empty
	key  [2]atomic.Uint64
	ends atomic.Uint64 // end k-1 of token k in bits 4k..4k+3
}

const (
	maxSmall   = 16
	smallSlots = 1 << 16
	smallWays  = 4
)

func newSmallCache() *smallCache {
	return &smallCache{seed: [2]uint64{rand.Uint64(), rand.Uint64()}, slots: make([]smallSlot, smallSlots),
		shift: uint(64 - bits.TrailingZeros(smallSlots/smallWays))}
}

// smallKey returns two words that, with len(s) (1 to 16), tell s from any
// other string of its length: they hold all of its bytes, read as
// overlapping words as wyhash reads short inputs.
func smallKey(s string) (uint64, uint64) {
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	switch n := len(b); {
	case n >= 8:
		return binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		return uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[n-4:]))<<32, 0
	default:
		return uint64(b[0]) | uint64(b[n>>1])<<8 | uint64(b[n-1])<<16, 0
	}
}

// set returns the slots where s, whose key is k0, k1, may be, and a
// hash of s.
func (c *smallCache) set(n int, k0, k1 uint64) ([]smallSlot, uint64) {
	hi, lo := bits.Mul64(k0^c.seed[0]^uint64(n), k1^c.seed[1])
	h := hi ^ lo
	i := int(h>>c.shift) * smallWays
	return c.slots[i : i+smallWays : i+smallWays], h
}

// get returns the count of tokens of s and their packed ends.
func (c *smallCache) get(s string) (count int, ends uint64, ok bool) {
	k0, k1 := smallKey(s)
	set, _ := c.set(len(s), k0, k1)
	for k := range set {
		sl := &set[k]
		v := sl.ver.Load()
		m := sl.meta.Load()
		if v&1 != 0 || m>>8 != uint32(len(s)) || sl.key[0].Load() != k0 || sl.key[1].Load() != k1 {
			continue
		}
		e := sl.ends.Load()
		if sl.ver.Load() != v {
			continue
		}
		return int(m & 0xff), e, true
	}
	return 0, 0, false
}

// put records the ends of s (1 to 16 bytes) in an empty slot of its set,
// else in one that bits of its hash pick.
func (c *smallCache) put(s string, ends []int32) {
	var packed uint64
	for k, e := range ends {
		packed |= uint64(e-1) << (4 * k)
	}
	k0, k1 := smallKey(s)
	set, h := c.set(len(s), k0, k1)
	sl := &set[int(h)&(smallWays-1)]
	for k := range set {
		if set[k].meta.Load() == 0 {
			sl = &set[k]
			break
		}
	}
	v := sl.ver.Load()
	if v&1 != 0 || !sl.ver.CompareAndSwap(v, v+1) {
		return
	}
	sl.meta.Store(uint32(len(s))<<8 | uint32(len(ends)))
	sl.key[0].Store(k0)
	sl.key[1].Store(k1)
	sl.ends.Store(packed)
	sl.ver.Store(v + 2)
}

// appendEnds appends the ends packed by put.
func appendEnds(dst []int32, count int, packed uint64) []int32 {
	for k := range count {
		dst = append(dst, int32(packed>>(4*k)&0xf)+1)
	}
	return dst
}
