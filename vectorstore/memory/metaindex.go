package memory

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/ragkit/ragkit/vectorstore"
)

// metaIndex is the index of metadata values behind a filtered query of
// [Store]: for each key, the slots that hold it and, for each of its
// values, the slots that hold that value (postings); for a range, the
// key's distinct values that parse as numbers (or times), sorted, each with
// its postings. A filter is evaluated on it into a set of slots, a bit per
// slot, by set operations on postings: its cost grows with the postings
// it reads and the size of the store in words (n/64), not with the number
// of records times the cost of a predicate.
//
// The index is built from the records on the first filtered query after
// a write (writes move slots, and would otherwise have to rewrite
// postings), once, while other queries wait for it; the sorted values
// of a key are built on the first range over it.
type metaIndex struct {
	version  uint64 // the store's write count when it was built
	keys     map[string]*keyIndex
	sources  map[string][]int32 // the slots of each Source
	sections map[string][]int32 // the slots under each section path, by sectionKey
}

type keyIndex struct {
	all  []int32            // the slots that hold the key, ascending
	vals map[string][]int32 // the slots of each value, ascending

	numOnce  sync.Once
	nums     []numPosting // the values that parse as numbers, ascending
	timeOnce sync.Once
	times    []timePosting // the values that parse as times, ascending
}

type numPosting struct {
	x     float64
	slots []int32
}

type timePosting struct {
	t     timeKey
	slots []int32
}

// buildMetaIndex indexes the metadata of recs, slot i holding recs[i].
func buildMetaIndex(recs []unit, version uint64) *metaIndex {
	ix := &metaIndex{version: version, keys: make(map[string]*keyIndex), sources: make(map[string][]int32), sections: make(map[string][]int32)}
	var key []byte
	for i := range recs {
		if x := recs[i].extra; x != nil {
			ix.sources[x.source] = append(ix.sources[x.source], int32(i))
			key = key[:0]
			for _, h := range x.section {
				key = appendHeading(key, h)
				ix.sections[string(key)] = append(ix.sections[string(key)], int32(i))
			}
		} else {
			ix.sources[""] = append(ix.sources[""], int32(i))
		}
		for k, v := range recs[i].Metadata {
			ki := ix.keys[k]
			if ki == nil {
				ki = &keyIndex{vals: make(map[string][]int32)}
				ix.keys[k] = ki
			}
			ki.all = append(ki.all, int32(i))
			ki.vals[v] = append(ki.vals[v], int32(i))
		}
	}
	return ix
}

// appendHeading appends a heading to the key of a section path: its
// length and its bytes, so that no two paths share a key.
func appendHeading(key []byte, h string) []byte {
	key = append(strconv.AppendInt(key, int64(len(h)), 10), ':')
	return append(key, h...)
}

// numbers returns the key's values that parse as numbers, sorted.
func (ki *keyIndex) numbers() []numPosting {
	ki.numOnce.Do(func() {
		for v, sl := range ki.vals {
			if x, ok := vectorstore.ParseNumber(v); ok {
				ki.nums = append(ki.nums, numPosting{x, sl})
			}
		}
		slices.SortFunc(ki.nums, func(a, b numPosting) int { return cmp.Compare(a.x, b.x) })
	})
	return ki.nums
}

// timesOf returns the key's values that parse as times, sorted.
func (ki *keyIndex) timesOf() []timePosting {
	ki.timeOnce.Do(func() {
		for v, sl := range ki.vals {
			if t, ok := vectorstore.ParseTime(v); ok {
				ki.times = append(ki.times, timePosting{keyOf(t), sl})
			}
		}
		slices.SortFunc(ki.times, func(a, b timePosting) int { return a.t.compare(b.t) })
	})
	return ki.times
}

// metaIndex returns the index of the store's metadata, building it if a
// write came after the last one. The caller holds the read lock, so the
// records cannot change meanwhile.
func (m *Store) metaIndex() *metaIndex {
	if ix := m.meta.Load(); ix != nil && ix.version == m.writes {
		return ix
	}
	m.metaMu.Lock()
	defer m.metaMu.Unlock()
	if ix := m.meta.Load(); ix != nil && ix.version == m.writes {
		return ix
	}
	ix := buildMetaIndex(m.st.recs, m.writes)
	m.meta.Store(ix)
	return ix
}

// selection is the working memory of a filter's evaluation: the set of
// slots it selects, a bit per slot, and sets for the parts of And and Or,
// one per level of nesting.
type selection struct {
	set  []uint64
	temp [][]uint64
}

// selectSlots evaluates f, which Check accepted, over the store's n slots
// into sel.set and returns the number of slots selected. The caller holds
// the read lock.
func (m *Store) selectSlots(sel *selection, f vectorstore.Filter, docSlots []int32) int {
	n := len(m.st.recs)
	words := (n + 63) / 64
	sel.set = grow(sel.set, words)
	set := sel.set
	if len(f.DocIDs) > 0 {
		clear(set)
		for _, s := range docSlots {
			set[s/64] |= 1 << (s % 64)
		}
	} else {
		fill(set, n)
	}
	if onlyDocs(f) {
		return count(set)
	}
	ix := m.metaIndex()
	if len(f.Sources) > 0 {
		t := sel.tempAt(0, len(set))
		clear(t)
		for _, src := range f.Sources {
			setAll(t, ix.sources[src])
		}
		intersect(set, t)
	}
	if len(f.Section) > 0 {
		var key []byte
		for _, h := range f.Section {
			key = appendHeading(key, h)
		}
		t := sel.tempAt(0, len(set))
		clear(t)
		setAll(t, ix.sections[string(key)])
		intersect(set, t)
	}
	for k, v := range f.Metadata {
		sel.andEq(ix, k, v, set)
	}
	sel.and(ix, f.Where, set, n, 0)
	return count(set)
}

// and intersects set with the slots that satisfy c.
func (sel *selection) and(ix *metaIndex, c vectorstore.Cond, set []uint64, n, depth int) {
	if c.Kind() == vectorstore.KindAll {
		return
	}
	t := sel.tempAt(depth, len(set))
	sel.eval(ix, c, t, n, depth+1)
	for i := range set {
		set[i] &= t[i]
	}
}

// andEq intersects set with the slots whose key holds value, as and does
// with an Eq without making one.
func (sel *selection) andEq(ix *metaIndex, key, value string, set []uint64) {
	t := sel.tempAt(0, len(set))
	clear(t)
	if ki := ix.keys[key]; ki != nil {
		setAll(t, ki.vals[value])
	}
	intersect(set, t)
}

// intersect keeps in set only the slots also in t.
func intersect(set, t []uint64) {
	for i := range set {
		set[i] &= t[i]
	}
}

// onlyDocs reports whether f restricts by documents alone, which the
// per-document index answers without the metadata index.
func onlyDocs(f vectorstore.Filter) bool {
	return len(f.Sources) == 0 && len(f.Section) == 0 && len(f.Metadata) == 0 && f.Where.Kind() == vectorstore.KindAll
}

// tempAt returns the set for the parts at depth, of words words.
func (sel *selection) tempAt(depth, words int) []uint64 {
	for len(sel.temp) <= depth {
		sel.temp = append(sel.temp, nil)
	}
	sel.temp[depth] = grow(sel.temp[depth], words)
	return sel.temp[depth]
}

// eval sets dst to the slots that satisfy c; depth is the level of the
// temporary sets c's parts may use. It reads c through its accessors,
// which copy nothing, so that a query's filter costs no allocation.
func (sel *selection) eval(ix *metaIndex, c vectorstore.Cond, dst []uint64, n, depth int) {
	switch c.Kind() {
	case vectorstore.KindAll:
		fill(dst, n)
		return
	case vectorstore.KindAnd:
		fill(dst, n)
		for i := range c.Len() {
			sel.and(ix, c.Part(i), dst, n, depth)
		}
		return
	case vectorstore.KindOr:
		clear(dst)
		t := sel.tempAt(depth, len(dst))
		for i := range c.Len() {
			sel.eval(ix, c.Part(i), t, n, depth+1)
			for w := range dst {
				dst[w] |= t[w]
			}
		}
		return
	case vectorstore.KindNot:
		sel.eval(ix, c.Part(0), dst, n, depth)
		for w := range dst {
			dst[w] = ^dst[w]
		}
		mask(dst, n)
		return
	}
	clear(dst)
	ki := ix.keys[c.Key()]
	if ki == nil {
		return
	}
	switch c.Kind() {
	case vectorstore.KindIn:
		for i := range c.Len() {
			setAll(dst, ki.vals[c.Value(i)])
		}
	case vectorstore.KindExists:
		setAll(dst, ki.all)
	case vectorstore.KindBetween:
		lo, hi := c.Bounds()
		nums := ki.numbers()
		i, _ := slices.BinarySearchFunc(nums, lo, func(p numPosting, lo float64) int { return cmp.Compare(p.x, lo) })
		for ; i < len(nums) && nums[i].x <= hi; i++ {
			setAll(dst, nums[i].slots)
		}
	case vectorstore.KindTimeBetween:
		from, to := timeBounds(c)
		ts := ki.timesOf()
		i, _ := slices.BinarySearchFunc(ts, from, func(p timePosting, from timeKey) int { return p.t.compare(from) })
		for ; i < len(ts) && ts[i].t.compare(to) <= 0; i++ {
			setAll(dst, ts[i].slots)
		}
	}
}

// timeKey is an instant that orders by comparison of its fields, cheaper
// to compare in a sorted index than a [time.Time].
type timeKey struct {
	sec  int64
	nsec int32
}

func keyOf(t time.Time) timeKey { return timeKey{sec: t.Unix(), nsec: int32(t.Nanosecond())} }

func (a timeKey) compare(b timeKey) int {
	if c := cmp.Compare(a.sec, b.sec); c != 0 {
		return c
	}
	return cmp.Compare(a.nsec, b.nsec)
}

// timeBounds returns the bounds of a TimeBetween, an open bound (the zero
// time) as the earliest or latest instant.
func timeBounds(c vectorstore.Cond) (from, to timeKey) {
	f, t := c.TimeBounds()
	from, to = timeKey{sec: math.MinInt64}, timeKey{sec: math.MaxInt64, nsec: 999999999}
	if !f.IsZero() {
		from = keyOf(f)
	}
	if !t.IsZero() {
		to = keyOf(t)
	}
	return from, to
}

func setAll(set []uint64, slots []int32) {
	for _, s := range slots {
		set[s/64] |= 1 << (s % 64)
	}
}

// fill sets the first n bits of set and clears the rest.
func fill(set []uint64, n int) {
	for i := range set {
		set[i] = ^uint64(0)
	}
	mask(set, n)
}

// mask clears the bits of set from n on.
func mask(set []uint64, n int) {
	if r := n % 64; r != 0 {
		set[len(set)-1] &= 1<<r - 1
	}
}

func count(set []uint64) int {
	c := 0
	for _, w := range set {
		c += bits.OnesCount64(w)
	}
	return c
}

// members appends the slots in set to dst, ascending.
func members(dst []int32, set []uint64) []int32 {
	for i, w := range set {
		for w != 0 {
			dst = append(dst, int32(i*64+bits.TrailingZeros64(w)))
			w &= w - 1
		}
	}
	return dst
}

func grow(s []uint64, n int) []uint64 { return slices.Grow(s[:0], n)[:n] }
