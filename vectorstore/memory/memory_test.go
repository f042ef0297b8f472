package memory_test

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/stretchr/testify/require"
)

func TestQueryMatchesBruteForce(t *testing.T) {
	for _, dim := range []int{3, 67, 384} {
		for _, workers := range []int{1, 2, 5} {
			t.Run(fmt.Sprintf("dim=%d/workers=%d", dim, workers), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(dim), uint64(workers)))
				recs := makeRecords(r, 40, 50, dim)
				m := newMemory(t, memory.Config{Workers: workers}, recs...)
				memory.ForceFanOut(m) // small as it is, scanned by every worker
				filters := map[string]vectorstore.Filter{
					"none":     {},
					"docs":     {DocIDs: []string{"d3", "d7", "d3", "missing"}},
					"metadata": {Metadata: map[string]string{"parity": "odd"}},
					"both":     {DocIDs: []string{"d1", "d2"}, Metadata: map[string]string{"parity": "even"}},
					"nothing":  {Metadata: map[string]string{"parity": "neither"}},
				}
				for _, name := range slices.Sorted(maps.Keys(filters)) {
					f := filters[name]
					for _, k := range []int{1, 10, 5000} {
						q := randVec(r, dim)
						got, err := m.Query(bg, q, k, f)
						require.NoError(t, err)
						checkHits(t, name, got, bruteForce(recs, q, len(recs), f), k)
					}
				}
			})
		}
	}
}

func TestQueryResultFields(t *testing.T) {
	m := newMemory(t, memory.Config{}, vectorstore.Record{
		ID: "a", DocID: "doc", Index: 4, Start: 10, End: 15, Text: "hello", Vector: []float32{3, 4},
		Metadata: map[string]string{"lang": "en"},
	})
	hits, err := m.Query(bg, []float32{6, 8}, 3, vectorstore.Filter{})
	require.NoError(t, err)
	require.Len(t, hits, 1)
	h := hits[0]
	require.Equal(t, vectorstore.Record{
		ID: "a", DocID: "doc", Index: 4, Start: 10, End: 15, Text: "hello",
		Metadata: map[string]string{"lang": "en"},
	}, h.Record, "a hit without its vector")
	require.InDelta(t, 1, h.Score, 1e-6)
	// The stored vector is the normalised one.
	rs, err := m.Range(bg, "doc", 4, 4)
	require.NoError(t, err)
	require.InDeltaSlice(t, []float32{0.6, 0.8}, rs[0].Vector, 1e-6)
	// Changing a returned vector does not change the store.
	rs[0].Vector[0] = 42
	again, err := m.Get(bg, "a")
	require.NoError(t, err)
	require.NotEqual(t, float32(42), again.Vector[0], "returned vector aliases the store")
}

// TestReturnedMetadataIsACopy is the regression test for records returned
// by Get, Range and Query sharing their Metadata map with the store:
// changing one changed the stored record and later filter results.
func TestReturnedMetadataIsACopy(t *testing.T) {
	rec := vectorstore.Record{ID: "a", DocID: "d", Vector: []float32{1, 0}, Metadata: map[string]string{"acl": "alice"}}
	onlyAlice := vectorstore.Filter{Metadata: map[string]string{"acl": "alice"}}
	returned := map[string]func(m *memory.Store) map[string]string{
		"Get": func(m *memory.Store) map[string]string {
			r, err := m.Get(bg, "a")
			require.NoError(t, err)
			return r.Metadata
		},
		"Range": func(m *memory.Store) map[string]string {
			rs, err := m.Range(bg, "d", 0, 0)
			require.NoError(t, err)
			return rs[0].Metadata
		},
		"Query": func(m *memory.Store) map[string]string {
			hs, err := m.Query(bg, []float32{1, 0}, 1, vectorstore.Filter{})
			require.NoError(t, err)
			return hs[0].Metadata
		},
	}
	for name, get := range returned {
		for _, compact := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/compact=%v", name, compact), func(t *testing.T) {
				m := newMemory(t, memory.Config{Compact: compact}, rec)
				md := get(m)
				md["acl"] = "mallory"
				md["extra"] = "x"
				again, err := m.Get(bg, "a")
				require.NoError(t, err)
				require.Equal(t, map[string]string{"acl": "alice"}, again.Metadata)
				hits, err := m.Query(bg, []float32{1, 0}, 1, onlyAlice)
				require.NoError(t, err)
				require.Len(t, hits, 1, "the filter no longer finds the record")
			})
		}
	}
}

func TestQueryTiesAreDeterministic(t *testing.T) {
	var recs []vectorstore.Record
	for i := range 100 {
		recs = append(recs, vectorstore.Record{ID: fmt.Sprintf("id%03d", 99-i), DocID: "d", Index: i, Vector: []float32{1, 1}})
	}
	for _, compact := range []bool{false, true} {
		for _, workers := range []int{1, 3} {
			m := newMemory(t, memory.Config{Workers: workers, Compact: compact}, recs...)
			memory.ForceFanOut(m)
			hits, err := m.Query(bg, []float32{1, 1}, 5, vectorstore.Filter{})
			require.NoError(t, err)
			require.Equal(t, []string{"id000", "id001", "id002", "id003", "id004"}, hitIDs(hits), "compact=%v workers=%d", compact, workers)
		}
	}
}

// TestQueryManyDocIDs filters by more documents than the short list that
// is de-duplicated by scanning, with repeats and unknown IDs: each
// document counts once. (Query was quadratic in the number of DocIDs;
// BenchmarkQueryDocIDs measures that it no longer is.)
func TestQueryManyDocIDs(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	recs := makeRecords(r, 300, 2, 8)
	m := newMemory(t, memory.Config{Workers: 2}, recs...)
	memory.ForceFanOut(m)
	for _, n := range []int{3, 40, 1000} {
		var f vectorstore.Filter
		for range n {
			f.DocIDs = append(f.DocIDs, fmt.Sprintf("d%d", r.IntN(400)))
		}
		q := randVec(r, 8)
		got, err := m.Query(bg, q, len(recs), f)
		require.NoError(t, err)
		checkHits(t, fmt.Sprintf("%d IDs", n), got, bruteForce(recs, q, len(recs), f), len(recs))
	}
}

func TestDeleteDocumentAndDelete(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	recs := makeRecords(r, 5, 20, 8)
	m := newMemory(t, memory.Config{}, recs...)
	require.NoError(t, m.DeleteDocument(bg, "d2"))
	require.NoError(t, m.DeleteDocument(bg, "d2"), "deleting a missing document")
	_, err := m.Range(bg, "d2", 0, 100)
	require.ErrorIs(t, err, vectorstore.ErrNotFound, "Range of deleted document")
	require.NoError(t, m.Delete(bg, "d0-3", "d0-4", "missing"))
	_, err = m.Get(bg, "d0-3")
	require.ErrorIs(t, err, vectorstore.ErrNotFound, "Get of deleted record")
	require.Equal(t, 78, m.Len())
	var left []vectorstore.Record
	for _, rec := range recs {
		if rec.DocID != "d2" && rec.ID != "d0-3" && rec.ID != "d0-4" {
			left = append(left, rec)
		}
	}
	q := randVec(r, 8)
	got, err := m.Query(bg, q, 200, vectorstore.Filter{})
	require.NoError(t, err)
	checkHits(t, "after deletes", got, bruteForce(left, q, len(left), vectorstore.Filter{}), 200)
}

// TestRandomOperations checks the store against a plain map model over a
// long random sequence of writes, in both modes.
func TestRandomOperations(t *testing.T) {
	for _, compact := range []bool{false, true} {
		t.Run(fmt.Sprintf("compact=%v", compact), func(t *testing.T) {
			r := rand.New(rand.NewPCG(9, 9))
			m := newMemory(t, memory.Config{Compact: compact, Workers: 2})
			memory.ForceFanOut(m)
			model := map[string]vectorstore.Record{}
			newRec := func() vectorstore.Record {
				d := r.IntN(8)
				return vectorstore.Record{
					ID: fmt.Sprintf("id%d", r.IntN(120)), DocID: fmt.Sprintf("doc%d", d),
					Index: r.IntN(15), Text: fmt.Sprint(r.Int()), Vector: randVec(r, 6),
				}
			}
			for step := range 1500 {
				switch op := r.IntN(10); {
				case op < 5:
					batch := make([]vectorstore.Record, 1+r.IntN(6))
					for i := range batch {
						batch[i] = newRec()
					}
					require.NoError(t, m.Upsert(bg, batch...))
					for _, rec := range batch {
						model[rec.ID] = rec
					}
				case op < 7:
					ids := []string{fmt.Sprintf("id%d", r.IntN(120)), fmt.Sprintf("id%d", r.IntN(120))}
					require.NoError(t, m.Delete(bg, ids...))
					delete(model, ids[0])
					delete(model, ids[1])
				case op < 8:
					doc := fmt.Sprintf("doc%d", r.IntN(8))
					require.NoError(t, m.DeleteDocument(bg, doc))
					maps.DeleteFunc(model, func(_ string, v vectorstore.Record) bool { return v.DocID == doc })
				default:
					doc := fmt.Sprintf("doc%d", r.IntN(8))
					var batch []vectorstore.Record
					for range r.IntN(5) {
						rec := newRec()
						rec.DocID = doc
						batch = append(batch, rec)
					}
					require.NoError(t, m.ReplaceDocument(bg, doc, batch...))
					maps.DeleteFunc(model, func(_ string, v vectorstore.Record) bool { return v.DocID == doc })
					for _, rec := range batch {
						model[rec.ID] = rec
					}
				}
				checkAgainstModel(t, step, m, model, compact)
			}
		})
	}
}

func checkAgainstModel(t *testing.T, step int, m *memory.Store, model map[string]vectorstore.Record, compact bool) {
	t.Helper()
	require.Equal(t, len(model), m.Len(), "step %d", step)
	byDoc := map[string][]vectorstore.Record{}
	for _, rec := range model {
		byDoc[rec.DocID] = append(byDoc[rec.DocID], rec)
	}
	for d := range 8 {
		doc := fmt.Sprintf("doc%d", d)
		want := byDoc[doc]
		slices.SortFunc(want, func(a, b vectorstore.Record) int {
			return cmp.Or(cmp.Compare(a.Index, b.Index), strings.Compare(a.ID, b.ID))
		})
		got, err := m.Range(bg, doc, 3, 11)
		if len(want) == 0 {
			require.ErrorIs(t, err, vectorstore.ErrNotFound, "step %d: Range of empty %s", step, doc)
			continue
		}
		inRange := []string{}
		for _, rec := range want {
			if rec.Index >= 3 && rec.Index <= 11 {
				inRange = append(inRange, rec.ID)
			}
		}
		require.NoError(t, err, "step %d", step)
		require.Equal(t, inRange, recordIDs(got), "step %d: Range(%s)", step, doc)
		for _, rec := range got {
			require.Equal(t, model[rec.ID].Text, rec.Text, "step %d: record %s", step, rec.ID)
		}
	}
	if step%50 != 0 || compact {
		return
	}
	recs := slices.Collect(maps.Values(model))
	q := []float32{1, -1, 0.5, 0, 2, 1}
	got, err := m.Query(bg, q, 7, vectorstore.Filter{})
	require.NoError(t, err)
	checkHits(t, fmt.Sprintf("step %d", step), got, bruteForce(recs, q, len(recs), vectorstore.Filter{}), 7)
}

func TestUpsertIsAllOrNothing(t *testing.T) {
	m := newMemory(t, memory.Config{}, vectorstore.Record{ID: "keep", DocID: "d", Vector: []float32{1, 0}})
	err := m.Upsert(bg,
		vectorstore.Record{ID: "keep", DocID: "d", Text: "changed", Vector: []float32{0, 1}},
		vectorstore.Record{ID: "new", DocID: "d", Vector: []float32{1, 0}},
		vectorstore.Record{ID: "bad", DocID: "d", Vector: []float32{0, 0}},
	)
	var re *vectorstore.RecordError
	require.ErrorAs(t, err, &re)
	require.Equal(t, vectorstore.RecordError{Index: 2, ID: "bad", Field: "Vector", Err: re.Err}, *re)
	got, err := m.Get(bg, "keep")
	require.NoError(t, err)
	require.Equal(t, 1, m.Len(), "a failed Upsert changed the store")
	require.Empty(t, got.Text, "a failed Upsert changed the store")
}

// TestRecordErrorMessage checks the shape of a refused record's message;
// storetest checks which records are refused and what the error holds.
func TestRecordErrorMessage(t *testing.T) {
	m := newMemory(t, memory.Config{Dimension: 2})
	err := m.Upsert(bg, vectorstore.Record{ID: "ok", DocID: "d", Vector: []float32{1, 0}}, vectorstore.Record{ID: "a", DocID: "d", Index: -1, Vector: []float32{1, 0}})
	require.EqualError(t, err, `vectorstore: invalid record: record 1 (ID "a"): Index: is negative`)
	require.Zero(t, m.Len(), "refused writes changed the store")
}

func TestArgumentAndConfigErrors(t *testing.T) {
	m := newMemory(t, memory.Config{}, vectorstore.Record{ID: "a", DocID: "d", Vector: []float32{1, 0}})
	t.Run("ReplaceDocument/empty DocID", func(t *testing.T) {
		require.ErrorIs(t, m.ReplaceDocument(bg, ""), vectorstore.ErrInvalidArgument)
	})
	t.Run("Get/missing", func(t *testing.T) {
		_, err := m.Get(bg, "missing")
		require.ErrorIs(t, err, vectorstore.ErrNotFound)
	})
	configs := []struct {
		cfg   memory.Config
		field string
	}{
		{memory.Config{Dimension: -1}, "Dimension"},
		{memory.Config{Dimension: vectorstore.MaxDimension + 1}, "Dimension"},
		{memory.Config{Workers: -2}, "Workers"},
	}
	for _, tt := range configs {
		t.Run(fmt.Sprintf("NewMemory/%+v", tt.cfg), func(t *testing.T) {
			_, err := memory.New(tt.cfg)
			require.ErrorIs(t, err, memory.ErrConfig)
			require.ErrorContains(t, err, "memory: invalid configuration: "+tt.field+" is ")
		})
	}
}

func TestEmptyStore(t *testing.T) {
	m := newMemory(t, memory.Config{})
	hits, err := m.Query(bg, []float32{1, 2, 3}, 5, vectorstore.Filter{})
	require.NoError(t, err)
	require.Empty(t, hits)
	require.Zero(t, m.Len())
	require.Zero(t, m.Config().Dimension)
	require.NoError(t, m.Upsert(bg), "empty Upsert")
	// The first vector fixes the dimension, and it stays when the store
	// is emptied.
	require.NoError(t, m.Upsert(bg, vectorstore.Record{ID: "a", DocID: "d", Vector: []float32{1, 2, 3}}))
	require.Equal(t, 3, m.Config().Dimension)
	require.NoError(t, m.DeleteDocument(bg, "d"))
	require.Equal(t, 3, m.Config().Dimension)
	require.ErrorIs(t, m.Upsert(bg, vectorstore.Record{ID: "b", DocID: "d", Vector: []float32{1, 2}}), vectorstore.ErrDimensionMismatch)
}

// defaultKeywords is the zero KeywordConfig resolved.
var defaultKeywords = memory.KeywordConfig{K1: 1.2, B: 0.75}

func TestConfig(t *testing.T) {
	m := newMemory(t, memory.Config{Compact: true, Workers: 3})
	require.Equal(t, memory.Config{Compact: true, Workers: 3, Keywords: defaultKeywords}, m.Config())
	require.NoError(t, m.Upsert(bg, vectorstore.Record{ID: "a", DocID: "d", Vector: []float32{1, 2}}))
	require.Equal(t, memory.Config{Dimension: 2, Compact: true, Workers: 3, Keywords: defaultKeywords}, m.Config())
	def := newMemory(t, memory.Config{Dimension: 5})
	require.Equal(t, memory.Config{Dimension: 5, Workers: runtime.GOMAXPROCS(0), Keywords: defaultKeywords}, def.Config())
}

// TestZeroMemory is the regression test for the zero Memory, whose Upsert
// wrote to a nil map and whose Query divided by zero: it is an empty store
// with the default configuration.
func TestZeroMemory(t *testing.T) {
	var m memory.Store
	require.Zero(t, m.Len())
	require.Equal(t, memory.Config{Workers: runtime.GOMAXPROCS(0), Keywords: defaultKeywords}, m.Config())
	_, err := m.Range(bg, "d", 0, 1)
	require.ErrorIs(t, err, vectorstore.ErrNotFound)
	recs := makeRecords(rand.New(rand.NewPCG(3, 1)), 4, 30, 16)
	require.NoError(t, m.Upsert(bg, recs...))
	q := randVec(rand.New(rand.NewPCG(3, 2)), 16)
	hits, err := m.Query(bg, q, 5, vectorstore.Filter{})
	require.NoError(t, err)
	checkHits(t, "zero Memory", hits, bruteForce(recs, q, len(recs), vectorstore.Filter{}), 5)
	got, err := m.Range(bg, "d1", 3, 4)
	require.NoError(t, err)
	require.Equal(t, []string{"d1-3", "d1-4"}, recordIDs(got))
	var buf bytes.Buffer
	require.NoError(t, m.Save(bg, &buf))
	loaded, err := memory.Load(bg, &buf, memory.Config{})
	require.NoError(t, err)
	require.Equal(t, m.Len(), loaded.Len())
	require.NoError(t, m.Close())

	var fresh memory.Store // Close, Delete and Save come first, too
	require.NoError(t, fresh.Delete(bg, "x"))
	require.NoError(t, fresh.Save(bg, io.Discard))
	require.NoError(t, fresh.Close())
}

func TestClosed(t *testing.T) {
	m := newMemory(t, memory.Config{}, vectorstore.Record{ID: "a", DocID: "d", Vector: []float32{1}})
	require.NoError(t, m.Close())
	rec := vectorstore.Record{ID: "b", DocID: "d", Vector: []float32{1}}
	calls := map[string]func() error{
		"Upsert":          func() error { return m.Upsert(bg, rec) },
		"ReplaceDocument": func() error { return m.ReplaceDocument(bg, "d", rec) },
		"Query":           func() error { _, err := m.Query(bg, []float32{1}, 1, vectorstore.Filter{}); return err },
		"Range":           func() error { _, err := m.Range(bg, "d", 0, 1); return err },
		"Get":             func() error { _, err := m.Get(bg, "a"); return err },
		"DeleteDocument":  func() error { return m.DeleteDocument(bg, "d") },
		"Delete":          func() error { return m.Delete(bg, "a") },
		"Save":            func() error { return m.Save(bg, &strings.Builder{}) },
		"Close":           m.Close,
	}
	for name, call := range calls {
		require.ErrorIs(t, call(), memory.ErrClosed, name)
	}
	require.Zero(t, m.Len(), "Len after Close")
}

// lateCancel is a context that is fine when first asked and cancelled
// from then on, to reach the checks inside a running operation.
type lateCancel struct {
	context.Context
	mu    sync.Mutex
	asked int
	done  chan struct{}
}

func newLateCancel() *lateCancel {
	c := &lateCancel{Context: context.Background(), done: make(chan struct{})}
	close(c.done)
	return c
}

func (c *lateCancel) Done() <-chan struct{} { return c.done }

func (c *lateCancel) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.asked++; c.asked == 1 {
		return nil
	}
	return context.Canceled
}

func TestContextCancelled(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	recs := makeRecords(r, 10, 300, 16)
	for _, compact := range []bool{false, true} {
		m := newMemory(t, memory.Config{Compact: compact}, recs...)
		ctx, cancel := context.WithCancel(bg)
		cancel()
		calls := map[string]func(context.Context) error{
			"Upsert":          func(ctx context.Context) error { return m.Upsert(ctx, recs[0]) },
			"ReplaceDocument": func(ctx context.Context) error { return m.ReplaceDocument(ctx, "d0", recs[0]) },
			"Query": func(ctx context.Context) error {
				_, err := m.Query(ctx, recs[0].Vector, 3, vectorstore.Filter{})
				return err
			},
			"Range":          func(ctx context.Context) error { _, err := m.Range(ctx, "d1", 0, 5); return err },
			"Get":            func(ctx context.Context) error { _, err := m.Get(ctx, "d1-1"); return err },
			"DeleteDocument": func(ctx context.Context) error { return m.DeleteDocument(ctx, "d1") },
			"Delete":         func(ctx context.Context) error { return m.Delete(ctx, "d1-1") },
			"Save":           func(ctx context.Context) error { return m.Save(ctx, &strings.Builder{}) },
		}
		for name, call := range calls {
			require.ErrorIs(t, call(ctx), context.Canceled, "compact=%v %s with cancelled context", compact, name)
		}
		// Cancelled while scanning and while saving.
		_, err := m.Query(newLateCancel(), recs[0].Vector, 3, vectorstore.Filter{})
		require.ErrorIs(t, err, context.Canceled, "compact=%v Query cancelled mid-scan", compact)
		require.ErrorIs(t, m.Save(newLateCancel(), &strings.Builder{}), context.Canceled, "compact=%v Save cancelled midway", compact)
		require.Equal(t, len(recs), m.Len(), "compact=%v: cancelled calls changed the store", compact)
	}
}

// checkHits compares hits with the full reference ranking all: the same
// number of hits, each with its true score, in order, and with scores equal
// to the reference's at each rank. Records whose scores differ by float32
// rounding only may trade places.
func checkHits(t *testing.T, name string, got, all []vectorstore.Hit, k int) {
	t.Helper()
	want := all[:min(k, len(all))]
	require.Len(t, got, len(want), "%s k=%d", name, k)
	truth := map[string]float32{}
	for _, h := range all {
		truth[h.ID] = h.Score
	}
	const eps = 1e-5
	for i, h := range got {
		ts, ok := truth[h.ID]
		require.True(t, ok, "%s k=%d: hit %s does not match the filter", name, k, h.ID)
		require.InDelta(t, ts, h.Score, eps, "%s k=%d: hit %s scored %v, true score %v", name, k, h.ID, h.Score, ts)
		require.InDelta(t, want[i].Score, h.Score, eps, "%s k=%d: rank %d is %s (%v), want %s (%v)", name, k, i, h.ID, h.Score, want[i].ID, want[i].Score)
		if i > 0 {
			require.LessOrEqual(t, h.Score, got[i-1].Score, "%s k=%d: hits out of order at %d", name, k, i)
		}
	}
}

// TestCheckRecords checks that CheckRecords refuses what Memory refuses,
// with the same error, so that adapters calling it refuse records alike.
func TestCheckRecords(t *testing.T) {
	good := vectorstore.Record{ID: "ok", DocID: "d", Vector: []float32{1, 0}}
	bad := []vectorstore.Record{
		{DocID: "d", Vector: []float32{1, 0}},
		{ID: "a", DocID: "d", Index: -1, Vector: []float32{1, 0}},
		{ID: "a", DocID: "d", Start: 4, End: 2, Vector: []float32{1, 0}},
		{ID: "a", DocID: "d", Text: "\xff", Vector: []float32{1, 0}},
		{ID: "a", DocID: "d", Vector: []float32{0, 0}},
		{ID: "a", DocID: "d", Vector: []float32{float32(math.NaN()), 0}},
		{ID: "a", DocID: "d", Vector: []float32{1, 0, 0}},
		{ID: "a", DocID: "other", Vector: []float32{1, 0}},
	}
	for i, rec := range bad {
		m := newMemory(t, memory.Config{})
		want := m.ReplaceDocument(bg, "d", good, rec)
		require.Error(t, want, "record %d", i)
		require.Equal(t, want, vectorstore.CheckRecords("d", 0, good, rec), "record %d", i)
		require.Equal(t, want, vectorstore.CheckRecords("d", 2, good, rec), "record %d", i)
	}
	require.NoError(t, vectorstore.CheckRecords("", 0))
	require.NoError(t, vectorstore.CheckRecords("", 2, good, good))
	err := vectorstore.CheckRecords("", 3, good)
	require.ErrorIs(t, err, vectorstore.ErrDimensionMismatch, "the store's dimension")
	require.ErrorIs(t, err, vectorstore.ErrInvalidRecord)
}

// TestSmallWritesCopyTheSlabLittle fills a store a record at a time, as an
// indexer writing one document at a time does: the vector slab must grow
// without copying its vectors many times. Growing one slab by a quarter,
// as append does for large slices, allocated 7.8 times the slab on the
// way; doubling, 4.4; chunks, 3.5 (each write also copies its vectors
// once into a batch of its own).
func TestSmallWritesCopyTheSlabLittle(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's allocations are its own")
	}
	const n, dim = 3000, 1024
	vecs := make([][]float32, n)
	for i := range vecs {
		vecs[i] = make([]float32, dim)
		vecs[i][i%dim] = 1
	}
	ctx := context.Background()
	var m memory.Store
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i, v := range vecs {
		require.NoError(t, m.Upsert(ctx, vectorstore.Record{ID: strconv.Itoa(i), DocID: "d", Index: i, Text: "x", Vector: v}))
	}
	runtime.ReadMemStats(&after)
	slab := float64(n * dim * 4)
	ratio := float64(after.TotalAlloc-before.TotalAlloc) / slab
	t.Logf("allocated %.2f times the slab", ratio)
	require.Less(t, ratio, 5.5, "bytes allocated filling the store, in slabs")
}

// TestMemoryPerRecord fills stores a document at a time and checks that,
// once writes stop, the heap a store holds is within 1.25 times its
// vectors (the records have no text, so no keyword index). A slab that
// doubled as it grew held 1.5 times at 10,000 records of 384 dimensions.
func TestMemoryPerRecord(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's allocations are its own")
	}
	// Sizes whose vectors are megabytes, so that what other tests leave
	// behind is noise beside them.
	for _, n := range []int{3000, 10_000} {
		const dim = 384
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			m, err := memory.New(memory.Config{})
			require.NoError(t, err)
			for d := 0; d*20 < n; d++ {
				batch := make([]vectorstore.Record, 20)
				for i := range batch {
					v := make([]float32, dim)
					v[(d*20+i)%dim], v[(d+i)%dim] = 1, 0.5
					batch[i] = vectorstore.Record{ID: fmt.Sprintf("%d-%d", d, i), DocID: strconv.Itoa(d), Index: i, Vector: v}
				}
				require.NoError(t, m.Upsert(context.Background(), batch...))
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			require.Equal(t, n, m.Len())
			ratio := float64(after.HeapAlloc-before.HeapAlloc) / float64(n*dim*4)
			t.Logf("%d records: %.3f times their vectors", n, ratio)
			require.LessOrEqual(t, ratio, 1.25)
			runtime.KeepAlive(m)
		})
	}
}
