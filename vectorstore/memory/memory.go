package memory

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ragkit/ragkit/vectorstore"
)

// Config configures a [Store] store. The zero value is a float32 store
// whose dimension is set by the first vector upserted and whose queries use
// every CPU.
type Config struct {
	// Dimension fixes the length of every vector, at most
	// [MaxDimension]. Zero takes it from the first record upserted.
	Dimension int

	// Compact stores each vector as int8 codes with 2-bit refinement codes,
	// under a third of the memory of float32. A query scans the int8
	// codes, then re-ranks its best candidates (every one, in a store or
	// filtered set of at most 64 vectors) against the refined vectors with
	// the float32 query. On amd64 with AVX2 both steps run in assembly and
	// read a fraction of the bytes of a float32 scan; elsewhere they are
	// plain Go, no faster than float32, and the gain is memory only (the
	// measured times are in the repository's benchmarks/README.md). The
	// refined vectors are within 1/8 of a quantization step of the
	// originals, so scores differ slightly from exact cosine and the order
	// of near-ties can differ from exact search: recall against exact
	// search is measured in the package README. Vectors returned by a
	// compact store are these reconstructions.
	Compact bool

	// Workers is the most goroutines one query may scan with. Zero means
	// runtime.GOMAXPROCS(0) when the store is made. A query uses as many
	// as its work keeps busy, so small stores are scanned by one.
	Workers int

	// Keywords configures the keyword index of [Store.QueryKeywords]; the
	// zero value is BM25 with the usual parameters.
	Keywords KeywordConfig

	// Index configures an approximate index for [Store.Query]; the zero
	// value is none, exact search.
	Index IndexConfig
}

// Store is an in-memory [VectorStore]: exact cosine search over vectors kept
// in one contiguous slab (or an int8 slab with [Config.Compact]), or
// approximate search from an IVF index with [Config.Index], a
// BM25 keyword index over the records' texts for [Store.QueryKeywords], a
// per-document index for [Store.Range], and persistence with
// [Store.Save] and [Load]. It is safe for concurrent use: queries run in
// parallel with each other, writes wait for running queries and queries
// for running writes, and every write is all-or-nothing.
//
// The vectors are kept in chunks of about 192 KiB that are allocated as
// writes need them, so that writing never copies the vectors already
// stored, however the store is filled (a document at a time, or all at
// once), and the memory allocated ahead of them is at most one chunk, or an
// eighth of a store smaller than that. Once writes stop, a store holds its
// vectors (4 bytes a component, or about 1.3 with Compact), its records'
// texts, IDs and metadata, a fixed amount per record for the record and
// the indexes by ID and document, and, for records with text, the keyword
// index (see [KeywordConfig]); vectorstore/memory/README.md has the measured
// figures. Deleting gives the memory of the vectors back a chunk at a
// time.
//
// The zero Store is an empty store with the zero [Config], ready to
// use; [New] makes one with another configuration. A Store must not
// be copied after first use.
type Store struct {
	once    sync.Once // sets up a zero Store on first use
	workers int
	minWork int // see minWorkPerWorker; tests lower it to force a fan-out
	compact bool
	kwCfg   KeywordConfig // as given; resolved into bm25 by init
	bm25    bm25

	mu     sync.RWMutex
	closed bool
	dim    int
	st     slots
	byID   map[string]int32
	docs   map[string][]int32 // slots of each document, sorted by (Index, ID)
	kw     keywords
	an     analyzer // the writers', for the texts of removed records
	writes uint64   // the number of writes applied, which date the metadata index

	meta   atomic.Pointer[metaIndex] // built by the first filtered query after a write
	metaMu sync.Mutex                // held while it is built

	idBefore func(a, b int32) bool // breaks ties in score by ID

	ivf    *ivf         // the approximate index; nil without Config.Index.IVF
	probes atomic.Int64 // the lists a query of the index scans; 0 for DefaultProbes
}

// New returns an empty store configured by cfg. A Dimension outside
// [0, MaxDimension], a negative Workers, or a K1 or B of cfg.Keywords out
// of range gives an error wrapping [ErrConfig].
func New(cfg Config) (*Store, error) {
	if cfg.Dimension < 0 || cfg.Dimension > vectorstore.MaxDimension {
		return nil, configError("Dimension", cfg.Dimension, dimensionRange)
	}
	if cfg.Workers < 0 {
		return nil, configError("Workers", cfg.Workers, "must be 0 (every CPU) or more")
	}
	if err := cfg.Keywords.check(); err != nil {
		return nil, err
	}
	if err := cfg.Index.check(); err != nil {
		return nil, err
	}
	m := &Store{workers: cfg.Workers, compact: cfg.Compact, dim: cfg.Dimension, kwCfg: cfg.Keywords}
	if cfg.Index.IVF {
		m.ivf = &ivf{cfg: cfg.Index}
		m.probes.Store(int64(cfg.Index.Probes))
	}
	m.init()
	return m, nil
}

// init fills in the defaults of the configuration and makes the maps, once,
// so that the zero Store works. Every method calls it first.
func (m *Store) init() {
	m.once.Do(func() {
		if m.workers == 0 {
			m.workers = runtime.GOMAXPROCS(0)
		}
		if m.minWork == 0 {
			m.minWork = minWorkPerWorker
		}
		m.st.compact = m.compact
		m.bm25 = m.kwCfg.resolve()
		m.an.keepStops, m.an.noStem = m.bm25.keepStops, m.bm25.noStem
		m.kw = keywords{ids: make(map[string]int32)}
		m.byID = make(map[string]int32)
		m.docs = make(map[string][]int32)
		m.idBefore = func(a, b int32) bool { return m.st.recs[a].ID < m.st.recs[b].ID }
	})
}

// Len returns the number of records stored; 0 once the store is closed.
func (m *Store) Len() int {
	m.init()
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.st.recs)
}

// Config returns the store's configuration with its defaults resolved:
// Dimension is the store's dimension (0 while not yet known; once known it
// stays, even when every record is deleted, and [Store.Save] keeps it),
// Workers the number of goroutines a query may use, Keywords.K1 and
// Keywords.B the BM25 parameters (0 with NoSaturation or NoLengthNorm set
// for one that is 0). A store made by [New] with the result accepts the
// same vectors and scores keywords alike.
func (m *Store) Config() Config {
	m.init()
	m.mu.RLock()
	defer m.mu.RUnlock()
	c := Config{Dimension: m.dim, Compact: m.compact, Workers: m.workers, Keywords: m.bm25.config()}
	if m.ivf != nil {
		c.Index = m.ivf.cfg
		c.Index.Probes = int(m.probes.Load())
	}
	return c
}

// Close releases the stored data. Every later call returns [ErrClosed].
func (m *Store) Close() error {
	m.init()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return ErrClosed
	}
	m.closed = true
	m.st = slots{compact: m.compact}
	m.byID, m.docs, m.kw = nil, nil, keywords{}
	m.meta.Store(nil)
	if m.ivf != nil {
		m.ivf = &ivf{cfg: m.ivf.cfg}
	}
	return nil
}

// lock takes the write lock, unless ctx is done or the store is closed.
func (m *Store) lock(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.init()
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return ErrClosed
	}
	return nil
}

// rlock takes the read lock, unless ctx is done or the store is closed.
func (m *Store) rlock(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.init()
	m.mu.RLock()
	if m.closed {
		m.mu.RUnlock()
		return ErrClosed
	}
	return nil
}

// Get returns the record with the given ID, or an error wrapping
// [ErrNotFound].
func (m *Store) Get(ctx context.Context, id string) (vectorstore.Record, error) {
	if err := m.rlock(ctx); err != nil {
		return vectorstore.Record{}, err
	}
	defer m.mu.RUnlock()
	slot, ok := m.byID[id]
	if !ok {
		return vectorstore.Record{}, fmt.Errorf("%w: record %q", vectorstore.ErrNotFound, id)
	}
	return m.records([]int32{slot})[0], nil
}

// Range returns the records of document docID whose Index is in [from, to],
// in order of Index (then ID), in O(log n + results). It returns an error
// wrapping [ErrNotFound] if the document has no records and one wrapping
// [ErrInvalidArgument] if from > to. A range past either end of the
// document is cut to the records that exist, so a sentence window may ask
// for Index-2 .. Index+2 without checking bounds.
func (m *Store) Range(ctx context.Context, docID string, from, to int) ([]vectorstore.Record, error) {
	if from > to {
		return nil, fmt.Errorf("%w: range start %d is after its end %d", vectorstore.ErrInvalidArgument, from, to)
	}
	if err := m.rlock(ctx); err != nil {
		return nil, err
	}
	defer m.mu.RUnlock()
	list, ok := m.docs[docID]
	if !ok {
		return nil, fmt.Errorf("%w: document %q", vectorstore.ErrNotFound, docID)
	}
	lo, _ := slices.BinarySearchFunc(list, from, func(s int32, i int) int {
		return cmp.Compare(m.st.recs[s].Index, i)
	})
	hi := lo
	for hi < len(list) && m.st.recs[list[hi]].Index <= to {
		hi++
	}
	return m.records(list[lo:hi]), nil
}

// DocumentIDs returns the IDs of the documents in the store, sorted. It
// implements [DocumentLister].
func (m *Store) DocumentIDs(ctx context.Context) ([]string, error) {
	if err := m.rlock(ctx); err != nil {
		return nil, err
	}
	defer m.mu.RUnlock()
	return slices.Sorted(maps.Keys(m.docs)), nil
}

// records returns copies of the records in the given slots, their vectors
// sharing one allocation. The caller holds the read lock.
func (m *Store) records(sl []int32) []vectorstore.Record {
	out := make([]vectorstore.Record, len(sl))
	slab := make([]float32, len(sl)*m.dim)
	for i, s := range sl {
		out[i] = m.record(s, nth(slab, i, m.dim))
	}
	return out
}

// nth returns the i'th vector of dim in slab, with no room to grow into
// the next one.
func nth(slab []float32, i, dim int) []float32 { return slab[i*dim : (i+1)*dim : (i+1)*dim] }

// record returns a copy of the record in slot, with its metadata copied
// and, if vec is not nil, its vector written into vec. The caller holds
// the read lock.
func (m *Store) record(slot int32, vec []float32) vectorstore.Record {
	r := m.st.recs[slot].record()
	if vec != nil {
		m.st.vector(vec, int(slot))
		r.Vector = vec
	}
	return r
}

var (
	_ vectorstore.VectorStore      = (*Store)(nil)
	_ vectorstore.DocumentReplacer = (*Store)(nil)
	_ vectorstore.KeywordQuerier   = (*Store)(nil)
)
