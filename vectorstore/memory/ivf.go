package memory

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/ragkit/ragkit/vectorstore/internal/kernel"
)

// IndexConfig configures the approximate index of a [Store]. The zero
// value is no index: every query is an exact scan, as it always was.
//
// The index is an inverted file (IVF): the vectors are grouped into lists
// around centroids found by k-means, and a query scans only the lists of
// the centroids nearest to it (with the int8 codes of a [Config].Compact
// store, then re-ranking its best candidates against the refined vectors,
// as the exact compact scan does). IVF rather than a graph (HNSW) because
// a filter is applied during the list scan at the cost of one bit test per
// record and the scan widens until it has found enough records that pass,
// so that a filter never makes a query return fewer hits than match; a
// write is a nearest-centroid lookup, not a graph repair; and the index is
// built in a few passes over a sample. On data without neighbourhoods
// (random vectors) no index is good; measure recall on your own vectors.
type IndexConfig struct {
	// IVF turns the index on. False (the zero value) means exact search.
	IVF bool

	// Lists is the number of lists. Zero means about the square root of
	// the store's size when the index is trained.
	Lists int

	// Probes is how many lists a query scans: the search width, trading
	// time for recall. Zero means [DefaultProbes]; a value of Lists or
	// more scans every list, which makes the result that of exact search.
	// [Store.SetProbes] changes it on a live store.
	Probes int

	// MinRecords is the size at which the index is first trained; a
	// smaller store is searched exactly, which is then as fast. Zero
	// means 10,000.
	MinRecords int
}

// DefaultProbes is the number of lists a query scans when
// [IndexConfig].Probes is zero.
const DefaultProbes = 32

const (
	defaultMinRecords = 10_000
	// samplePerList is how many vectors per list k-means trains on:
	// enough for stable centroids, few enough to keep the build to a
	// few passes over the store.
	samplePerList = 48
	// kmeansIters is the number of k-means iterations; the assignments
	// change little after the first few.
	kmeansIters = 8
	// regrowFactor is how much the store must grow (or shrink) since the
	// index was trained before a write retrains it, so that the lists
	// stay near the square root of the size at an amortised cost.
	regrowFactor = 4
	// maxLists bounds the number of lists whatever the configuration.
	maxLists = 1 << 16
	// ivfSeed makes the training deterministic.
	ivfSeed = 0x5eed_1f1f
)

func (c IndexConfig) check() error {
	switch {
	case c.Lists < 0 || c.Lists > maxLists:
		return configError("Index.Lists", c.Lists, "must be 0 (about the square root of the size) to 65536")
	case c.Probes < 0:
		return configError("Index.Probes", c.Probes, "must be 0 (DefaultProbes) or more")
	case c.MinRecords < 0:
		return configError("Index.MinRecords", c.MinRecords, "must be 0 (10,000) or more")
	case !c.IVF && c != IndexConfig{}:
		return configError("Index.IVF", c.IVF, "must be true when another Index field is set")
	}
	return nil
}

// ivf is the index: centroids, the members of each list, and for each
// slot its list and its position there, so that a write moves a slot in
// O(1). It is changed only under the store's write lock.
type ivf struct {
	cfg      IndexConfig
	trainedN int       // the store's size when last trained; 0 while untrained
	cents    []int8    // the int8 codes of the unit centroids, one row per list
	cscale   []float32 // their scales
	dim      int
	members  [][]int32
	list     []int32 // slot -> list
	pos      []int32 // slot -> position in members[list]
}

// active reports whether queries may use the index.
func (ix *ivf) active() bool { return ix.trainedN > 0 }

func (ix *ivf) lists() int { return len(ix.cscale) }

// nearest returns the list whose centroid is nearest to the vector with
// int8 codes iq (a slot's codes, or a quantized float vector).
func (ix *ivf) nearest(iq *kernel.Int8Query, dots []int32) int32 {
	best, bestScore := int32(0), float32(math.Inf(-1))
	dim := ix.dim
	for base := 0; base < ix.lists(); base += len(dots) {
		n := min(len(dots), ix.lists()-base)
		kernel.DotInt8Many(iq, ix.cents[base*dim:(base+n)*dim], dots[:n])
		for j, d := range dots[:n] {
			if s := float32(d) * ix.cscale[base+j]; s > bestScore {
				best, bestScore = int32(base+j), s
			}
		}
	}
	return best
}

// coder turns a store's slots into int8 queries for [ivf.nearest].
type coder struct {
	st   *slots
	qc   []int8
	iq   kernel.Int8Query
	dots [64]int32
}

func newCoder(st *slots, dim int) *coder {
	return &coder{st: st, qc: make([]int8, dim)}
}

// slot prepares the codes of slot i: a compact store's own codes, or the
// float vector quantized.
func (c *coder) slot(i int) *kernel.Int8Query {
	if c.st.compact {
		c.iq.Set(c.st.codes.row(i))
		return &c.iq
	}
	return c.float(c.st.vecs.row(i))
}

func (c *coder) float(v []float32) *kernel.Int8Query {
	kernel.QuantizeQuery(v, c.qc)
	c.iq.Set(c.qc)
	return &c.iq
}

// add puts slot, the last one, in its nearest list.
func (ix *ivf) add(c *coder, slot int32) {
	l := ix.nearest(c.slot(int(slot)), c.dots[:])
	for int(slot) >= len(ix.list) {
		ix.list, ix.pos = append(ix.list, 0), append(ix.pos, 0)
	}
	ix.list[slot], ix.pos[slot] = l, int32(len(ix.members[l]))
	ix.members[l] = append(ix.members[l], slot)
}

// unlink takes slot out of its list.
func (ix *ivf) unlink(slot int32) {
	l, p := ix.list[slot], ix.pos[slot]
	mem := ix.members[l]
	last := mem[len(mem)-1]
	mem[p] = last
	ix.pos[last] = p
	ix.members[l] = mem[:len(mem)-1]
}

// remove takes slot out of the index before the store moves its last slot,
// last, into slot's place.
func (ix *ivf) remove(slot, last int32) {
	ix.unlink(slot)
	if slot != last {
		l, p := ix.list[last], ix.pos[last]
		ix.members[l][p] = slot
		ix.list[slot], ix.pos[slot] = l, p
	}
	ix.list, ix.pos = ix.list[:last], ix.pos[:last]
}

// ivfAfterWrite keeps the index in step with a write b that changed the
// store from before records (the slots from before on, if any, being new):
// it installs the index of a loaded file; trains the index when the store
// first reaches MinRecords or has grown or shrunk by regrowFactor since it
// was trained, unless it has shrunk below MinRecords, which drops the
// index until the store grows back; and otherwise puts the new slots in
// their lists. The caller holds the write lock.
func (m *Store) ivfAfterWrite(before int, b *batch) {
	ix := m.ivf
	if ix == nil {
		return
	}
	n := len(m.st.recs)
	shrunk := ix.active() && regrowFactor*n <= ix.trainedN
	switch {
	case n == 0, shrunk && n < ix.minRecords():
		m.ivf = &ivf{cfg: ix.cfg}
		return
	case before == 0 && b != nil && b.saved != nil && len(b.saved.list) == n:
		ix.install(b.saved, m.dim)
		return
	case !ix.active() && n >= ix.minRecords(),
		ix.active() && n >= regrowFactor*ix.trainedN, shrunk:
		m.train(context.Background())
		return
	case !ix.active():
		return
	}
	c := newCoder(&m.st, m.dim)
	for s := before; s < n; s++ {
		ix.add(c, int32(s))
	}
}

// ivfReplaced moves slot, whose vector was replaced, to its nearest list.
// c holds a coder made on first use.
func (m *Store) ivfReplaced(c **coder, slot int32) {
	ix := m.ivf
	if ix == nil || !ix.active() {
		return
	}
	if *c == nil {
		*c = newCoder(&m.st, m.dim)
	}
	ix.unlink(slot)
	l := ix.nearest((*c).slot(int(slot)), (*c).dots[:])
	ix.list[slot], ix.pos[slot] = l, int32(len(ix.members[l]))
	ix.members[l] = append(ix.members[l], slot)
}

// ivfRemove is the index's part of removing slot, the last slot being
// moved into its place.
func (m *Store) ivfRemove(slot, last int32) {
	if m.ivf != nil && m.ivf.active() {
		m.ivf.remove(slot, last)
	}
}

func (ix *ivf) minRecords() int {
	if ix.cfg.MinRecords == 0 {
		return defaultMinRecords
	}
	return ix.cfg.MinRecords
}

// Retrain rebuilds the approximate index from the records stored now:
// new centroids by k-means over a sample, every record in its nearest
// list. Writes keep the index up to date without it, and retrain by
// themselves when the store has grown or shrunk fourfold since the last
// training; call Retrain after writes that moved the data's distribution
// (a new kind of document) to restore the recall. It holds the write lock
// while it runs. Without [IndexConfig].IVF it does nothing.
func (m *Store) Retrain(ctx context.Context) error {
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	if m.ivf == nil || len(m.st.recs) == 0 {
		return nil
	}
	return m.train(ctx)
}

// SetProbes sets the number of lists a query scans (see
// [IndexConfig].Probes; zero is [DefaultProbes]), for the queries that
// start after it returns; [Store.Config] reports it. A store without
// [IndexConfig].IVF keeps the number and does not use it. A negative n gives an error wrapping
// [ErrConfig].
func (m *Store) SetProbes(n int) error {
	if n < 0 {
		return configError("Index.Probes", n, "must be 0 (DefaultProbes) or more")
	}
	m.init()
	m.probes.Store(int64(n))
	return nil
}

func (m *Store) probeCount(lists int) int {
	p := int(m.probes.Load())
	if p == 0 {
		p = DefaultProbes
	}
	return min(p, lists)
}

// train runs k-means over a sample of the stored vectors and assigns every
// slot to its nearest centroid, or returns ctx's error and leaves the index
// as it was. The caller holds the write lock.
func (m *Store) train(ctx context.Context) error {
	// The new index is built aside and replaces the old one only when
	// complete, so that a cancelled training leaves the old one whole.
	ix := &ivf{cfg: m.ivf.cfg}
	n, dim := len(m.st.recs), m.dim
	nl := ix.cfg.Lists
	if nl == 0 {
		nl = int(math.Round(math.Sqrt(float64(n))))
	}
	nl = max(1, min(nl, n))
	rng := rand.New(rand.NewPCG(ivfSeed, uint64(n)))
	// The sample: a prefix of a random permutation, drawn without
	// materializing the permutation of the whole store.
	ns := min(n, nl*samplePerList)
	picked := make(map[int]struct{}, ns)
	sample := make([]float32, ns*dim)
	for i := 0; i < ns; {
		s := i
		if ns < n {
			s = rng.IntN(n)
			if _, dup := picked[s]; dup {
				continue
			}
			picked[s] = struct{}{}
		}
		m.st.vector(sample[i*dim:(i+1)*dim], s)
		i++
	}
	// The first centroids: nl distinct sample vectors.
	cents := make([]float32, nl*dim)
	perm := rng.Perm(ns)
	for j := range nl {
		copy(cents[j*dim:(j+1)*dim], sample[perm[j]*dim:(perm[j]+1)*dim])
	}
	ix.dim = dim
	assign := make([]int32, ns)
	counts := make([]int, nl)
	for it := 0; it < kmeansIters; it++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		ix.setCentroids(cents, nl)
		m.parallel(ns, func(c *coder, lo, hi int) {
			for i := lo; i < hi; i++ {
				assign[i] = ix.nearest(c.float(sample[i*dim:(i+1)*dim]), c.dots[:])
			}
		})
		clear(cents)
		clear(counts)
		for i, l := range assign {
			addTo(cents[int(l)*dim:(int(l)+1)*dim], sample[i*dim:(i+1)*dim])
			counts[l]++
		}
		for j := range nl {
			c := cents[j*dim : (j+1)*dim]
			if counts[j] == 0 {
				// An empty list restarts at a random sample vector.
				r := rng.IntN(ns)
				copy(c, sample[r*dim:(r+1)*dim])
			}
			kernel.Normalize(c)
		}
	}
	ix.setCentroids(cents, nl)
	list := make([]int32, n)
	m.parallel(n, func(c *coder, lo, hi int) {
		for i := lo; i < hi; i++ {
			list[i] = ix.nearest(c.slot(i), c.dots[:])
		}
	})
	clear(counts)
	for _, l := range list {
		counts[l]++
	}
	ix.members = make([][]int32, nl)
	for j := range nl {
		ix.members[j] = make([]int32, 0, counts[j])
	}
	ix.pos = make([]int32, n)
	for s, l := range list {
		ix.pos[s] = int32(len(ix.members[l]))
		ix.members[l] = append(ix.members[l], int32(s))
	}
	ix.list = list
	ix.trainedN = n
	m.ivf = ix
	return nil
}

// setCentroids quantizes the nl float centroids in cents.
func (ix *ivf) setCentroids(cents []float32, nl int) {
	dim := ix.dim
	ix.cents = slices.Grow(ix.cents[:0], nl*dim)[:nl*dim]
	ix.cscale = slices.Grow(ix.cscale[:0], nl)[:nl]
	for j := range nl {
		ix.cscale[j] = kernel.QuantizeQuery(cents[j*dim:(j+1)*dim], ix.cents[j*dim:(j+1)*dim])
	}
}

// parallel runs f over [0, n) in as many shares as the store has workers,
// each with a coder of its own.
func (m *Store) parallel(n int, f func(c *coder, lo, hi int)) {
	w := max(1, min(m.workers, n/1024))
	var wg sync.WaitGroup
	for i := range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(newCoder(&m.st, m.dim), i*n/w, (i+1)*n/w)
		}()
	}
	wg.Wait()
}

// addTo adds v to sum.
func addTo(sum, v []float32) {
	v = v[:len(sum)]
	for i, x := range v {
		sum[i] += x
	}
}
