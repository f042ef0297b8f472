// Package harness holds the vector store comparisons shared by the
// benchmarks (benchmarks/vectorstore_test.go) and the table printer
// (cmd/vsbench): data sets, the stores under test built on them, an
// independent exact search as the floor, recall and memory measurements.
package harness

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"

	chromem "github.com/philippgille/chromem-go"

	"github.com/ragkit/ragkit/benchmarks/internal/corpus"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// K is the number of hits every query asks for.
const K = 10

// Dataset is a set of unit vectors in one slab, with queries.
type Dataset struct {
	Name    string
	N, Dim  int
	Vecs    []float32 // N*Dim, unit length
	IDs     []string
	Queries [][]float32
}

// Vector returns vector i.
func (d *Dataset) Vector(i int) []float32 { return d.Vecs[i*d.Dim : (i+1)*d.Dim : (i+1)*d.Dim] }

// Random returns n random unit vectors of dim components (Gaussian
// coordinates, normalised) and 64 random unit queries.
func Random(n, dim int) *Dataset {
	r := rand.New(rand.NewPCG(uint64(n), uint64(dim)))
	d := &Dataset{Name: "random", N: n, Dim: dim, Vecs: make([]float32, n*dim)}
	for i := range d.Vecs {
		d.Vecs[i] = float32(r.NormFloat64())
	}
	for i := range n {
		normalize(d.Vector(i))
	}
	for range 64 {
		q := make([]float32, dim)
		for j := range q {
			q[j] = float32(r.NormFloat64())
		}
		normalize(q)
		d.Queries = append(d.Queries, q)
	}
	d.ids()
	return d
}

func (d *Dataset) ids() {
	d.IDs = make([]string, d.N)
	for i := range d.IDs {
		d.IDs[i] = fmt.Sprintf("u%07d", i)
	}
}

func normalize(v []float32) {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	r := 1 / math.Sqrt(ss)
	for i := range v {
		v[i] = float32(float64(v[i]) * r)
	}
}

// Lexical returns the default embedder's vectors of every corpus cut into
// pieces of 30 words, and queries made of 8-word excerpts of some pieces.
func Lexical(dim int) (*Dataset, error) {
	var pieces []string
	for _, name := range corpus.All {
		text, err := corpus.Load(name)
		if err != nil {
			return nil, err
		}
		words := strings.Fields(text)
		for i := 0; i < len(words); i += 30 {
			pieces = append(pieces, strings.Join(words[i:min(i+30, len(words))], " "))
		}
	}
	r := rand.New(rand.NewPCG(7, uint64(dim)))
	var queries []string
	for range 300 {
		words := strings.Fields(pieces[r.IntN(len(pieces))])
		start := r.IntN(max(1, len(words)-8))
		queries = append(queries, strings.Join(words[start:min(start+8, len(words))], " "))
	}
	emb, err := lexical.New(lexical.Config{Dimension: dim})
	if err != nil {
		return nil, err
	}
	vecs, err := emb.Embed(context.Background(), pieces)
	if err != nil {
		return nil, err
	}
	d := &Dataset{Name: "lexical", N: len(vecs), Dim: dim, Vecs: make([]float32, 0, len(vecs)*dim)}
	for _, v := range vecs {
		d.Vecs = append(d.Vecs, v...)
	}
	if d.Queries, err = emb.Embed(context.Background(), queries); err != nil {
		return nil, err
	}
	d.ids()
	return d, nil
}

// Records returns the data set as records, 100 units to a document.
func (d *Dataset) Records() []vectorstore.Record {
	recs := make([]vectorstore.Record, d.N)
	for i := range recs {
		recs[i] = vectorstore.Record{ID: d.IDs[i], DocID: fmt.Sprintf("doc%05d", i/100), Index: i % 100, Vector: d.Vector(i)}
	}
	return recs
}

// NewMemory builds a ragkit in-memory store over d.
func NewMemory(d *Dataset, compact bool) *memory.Store {
	m, err := memory.New(memory.Config{Compact: compact})
	if err != nil {
		panic(err)
	}
	if err := m.Upsert(context.Background(), d.Records()...); err != nil {
		panic(err)
	}
	return m
}

// NewChromem builds a chromem-go collection over d.
func NewChromem(d *Dataset) *chromem.Collection {
	db := chromem.NewDB()
	noEmbed := func(context.Context, string) ([]float32, error) { return nil, fmt.Errorf("no embedder") }
	c, err := db.CreateCollection("bench", nil, noEmbed)
	if err != nil {
		panic(err)
	}
	docs := make([]chromem.Document, d.N)
	for i := range docs {
		// A copy, as the store would own it; chromem-go keeps the slice.
		docs[i] = chromem.Document{ID: d.IDs[i], Embedding: slices.Clone(d.Vector(i)), Content: " "}
	}
	if err := c.AddDocuments(context.Background(), docs, runtime.GOMAXPROCS(0)); err != nil {
		panic(err)
	}
	return c
}

// Recall returns the mean recall@K of approx against exact over the data
// set's queries. A hit counts when its exact score is at least the exact
// K-th best score, so that ties at the K-th place are not held against
// either store.
func Recall(d *Dataset, exact, approx *memory.Store) (float64, error) {
	ctx := context.Background()
	var sum float64
	for _, q := range d.Queries {
		truth, err := exact.Query(ctx, q, d.N, vectorstore.Filter{})
		if err != nil {
			return 0, err
		}
		score := make(map[string]float32, len(truth))
		for _, h := range truth {
			score[h.ID] = h.Score
		}
		kth := truth[min(K, len(truth))-1].Score
		got, err := approx.Query(ctx, q, K, vectorstore.Filter{})
		if err != nil {
			return 0, err
		}
		n := 0
		for _, h := range got {
			if score[h.ID] >= kth-1e-6 {
				n++
			}
		}
		sum += float64(n) / float64(min(K, len(truth)))
	}
	return sum / float64(len(d.Queries)), nil
}

// HeapBytes returns how much the live heap grows while build runs and its
// result is kept alive.
func HeapBytes[T any](build func() T) (T, uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	return v, after.HeapAlloc - min(before.HeapAlloc, after.HeapAlloc)
}

// Sizes are the benchmark's store sizes and dimensions.
var (
	Sizes = []int{1_000, 10_000, 100_000}
	Dims  = []int{384, 1536}
)

// Cache keeps the data set and stores of one size at a time, so that
// sub-benchmarks share them and the largest sizes do not pile up.
type Cache struct {
	mu sync.Mutex
	cached
}

type cached struct {
	key     string
	d       *Dataset
	float   *memory.Store
	compact *memory.Store
	chromem *chromem.Collection
}

func (c *Cache) at(n, dim int) {
	key := fmt.Sprint(n, dim)
	if c.key != key {
		c.cached = cached{}
		runtime.GC()
		c.cached = cached{key: key, d: Random(n, dim)}
	}
}

// Dataset returns the random data set of n vectors of dim.
func (c *Cache) Dataset(n, dim int) *Dataset {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at(n, dim)
	return c.d
}

// Memory returns a ragkit store over Dataset(n, dim).
func (c *Cache) Memory(n, dim int, compact bool) *memory.Store {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at(n, dim)
	p := &c.float
	if compact {
		p = &c.compact
	}
	if *p == nil {
		*p = NewMemory(c.d, compact)
	}
	return *p
}

// Chromem returns a chromem-go collection over Dataset(n, dim).
func (c *Cache) Chromem(n, dim int) *chromem.Collection {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at(n, dim)
	if c.chromem == nil {
		c.chromem = NewChromem(c.d)
	}
	return c.chromem
}

// Name returns a sub-benchmark name for a size, such as "100k/1536".
func Name(n, dim int) string {
	s := fmt.Sprint(n)
	if n%1000 == 0 {
		s = fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprintf("%s/%d", s, dim)
}
