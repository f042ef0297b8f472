package vectorstore_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ragkit/ragkit/vectorstore"
)

func TestQueryMatchesBruteForce(t *testing.T) {
	for _, dim := range []int{3, 67, 384} {
		for _, workers := range []int{1, 2, 5} {
			t.Run(fmt.Sprintf("dim=%d/workers=%d", dim, workers), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(dim), uint64(workers)))
				recs := makeRecords(r, 40, 50, dim)
				m := newMemory(t, vectorstore.MemoryConfig{Workers: workers}, recs...)
				vectorstore.ForceFanOut(m) // small as it is, scanned by every worker
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
						if err != nil {
							t.Fatal(err)
						}
						checkHits(t, name, got, bruteForce(recs, q, len(recs), f), k)
					}
				}
			})
		}
	}
}

func TestQueryResultFields(t *testing.T) {
	m := newMemory(t, vectorstore.MemoryConfig{}, vectorstore.Record{
		ID: "a", DocID: "doc", Index: 4, Text: "hello", Vector: []float32{3, 4},
		Metadata: map[string]string{"lang": "en"},
	})
	hits, err := m.Query(bg, []float32{6, 8}, 3, vectorstore.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 {
		t.Fatalf("got %d hits, want 1", len(hits))
	}
	h := hits[0]
	if h.ID != "a" || h.DocID != "doc" || h.Index != 4 || h.Text != "hello" || h.Metadata["lang"] != "en" {
		t.Errorf("hit = %+v", h)
	}
	if math.Abs(float64(h.Score)-1) > 1e-6 {
		t.Errorf("score %v, want 1", h.Score)
	}
	// The stored vector is the normalised one.
	if math.Abs(float64(h.Vector[0])-0.6) > 1e-6 || math.Abs(float64(h.Vector[1])-0.8) > 1e-6 {
		t.Errorf("vector %v, want [0.6 0.8]", h.Vector)
	}
	// Changing a returned vector does not change the store.
	h.Vector[0] = 42
	again, _ := m.Get(bg, "a")
	if again.Vector[0] == 42 {
		t.Error("returned vector aliases the store")
	}
}

func TestQueryHugeK(t *testing.T) {
	for _, compact := range []bool{false, true} {
		m := newMemory(t, vectorstore.MemoryConfig{Compact: compact}, makeRecords(rand.New(rand.NewPCG(1, 3)), 2, 3, 4)...)
		hits, err := m.Query(bg, []float32{1, 2, 3, 4}, math.MaxInt, vectorstore.Filter{})
		if err != nil || len(hits) != 6 {
			t.Errorf("compact=%v: %d hits, %v", compact, len(hits), err)
		}
	}
}

func TestQueryTiesAreDeterministic(t *testing.T) {
	var recs []vectorstore.Record
	for i := range 100 {
		recs = append(recs, vectorstore.Record{ID: fmt.Sprintf("id%03d", 99-i), DocID: "d", Index: i, Vector: []float32{1, 1}})
	}
	for _, workers := range []int{1, 3} {
		m := newMemory(t, vectorstore.MemoryConfig{Workers: workers}, recs...)
		vectorstore.ForceFanOut(m)
		hits, err := m.Query(bg, []float32{1, 1}, 5, vectorstore.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"id000", "id001", "id002", "id003", "id004"}
		if !slices.Equal(hitIDs(hits), want) {
			t.Errorf("workers=%d: got %v, want %v", workers, hitIDs(hits), want)
		}
	}
}

func TestUpsertReplacesByID(t *testing.T) {
	m := newMemory(t, vectorstore.MemoryConfig{},
		vectorstore.Record{ID: "x", DocID: "a", Index: 0, Text: "old", Vector: []float32{1, 0}},
		vectorstore.Record{ID: "y", DocID: "a", Index: 1, Text: "y", Vector: []float32{0, 1}},
	)
	// Same place, new text and vector.
	if err := m.Upsert(bg, vectorstore.Record{ID: "x", DocID: "a", Index: 0, Text: "new", Vector: []float32{0, 1}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := m.Get(bg, "x"); got.Text != "new" || got.Vector[1] != 1 {
		t.Errorf("after replace: %+v", got)
	}
	// Moved to another document: gone from the old one's range.
	if err := m.Upsert(bg, vectorstore.Record{ID: "x", DocID: "b", Index: 7, Text: "moved", Vector: []float32{0, 1}}); err != nil {
		t.Fatal(err)
	}
	if m.Len() != 2 {
		t.Errorf("Len = %d, want 2", m.Len())
	}
	a, _ := m.Range(bg, "a", 0, 10)
	b, _ := m.Range(bg, "b", 0, 10)
	if !slices.Equal(recordIDs(a), []string{"y"}) || !slices.Equal(recordIDs(b), []string{"x"}) {
		t.Errorf("ranges after move: a=%v b=%v", recordIDs(a), recordIDs(b))
	}
	// Within one call, the last record of an ID wins.
	err := m.Upsert(bg,
		vectorstore.Record{ID: "z", DocID: "c", Index: 0, Text: "first", Vector: []float32{1, 0}},
		vectorstore.Record{ID: "z", DocID: "c", Index: 2, Text: "second", Vector: []float32{1, 0}},
	)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := m.Range(bg, "c", 0, 10)
	if len(c) != 1 || c[0].Text != "second" || c[0].Index != 2 {
		t.Errorf("duplicate IDs in one call: %+v", c)
	}
}

func TestUpsertCopiesInput(t *testing.T) {
	meta := map[string]string{"k": "v"}
	vec := []float32{1, 2}
	m := newMemory(t, vectorstore.MemoryConfig{}, vectorstore.Record{ID: "a", DocID: "d", Vector: vec, Metadata: meta})
	meta["k"] = "changed"
	vec[0] = -100
	got, _ := m.Get(bg, "a")
	if got.Metadata["k"] != "v" || got.Vector[0] < 0 {
		t.Errorf("store shares the caller's data: %+v", got)
	}
}

func TestRange(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	var recs []vectorstore.Record
	for _, i := range r.Perm(30) { // out of order on purpose
		recs = append(recs, vectorstore.Record{ID: fmt.Sprintf("u%02d", i), DocID: "doc", Index: i, Vector: randVec(r, 4)})
	}
	// Two records at the same Index: ordered by ID.
	recs = append(recs, vectorstore.Record{ID: "u05b", DocID: "doc", Index: 5, Vector: randVec(r, 4)})
	m := newMemory(t, vectorstore.MemoryConfig{}, recs...)
	tests := []struct {
		from, to int
		want     []string
	}{
		{3, 6, []string{"u03", "u04", "u05", "u05b", "u06"}},
		{-2, 1, []string{"u00", "u01"}},
		{28, 40, []string{"u28", "u29"}},
		{7, 7, []string{"u07"}},
		{31, 35, []string{}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d..%d", tt.from, tt.to), func(t *testing.T) {
			got, err := m.Range(bg, "doc", tt.from, tt.to)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(recordIDs(got), tt.want) {
				t.Errorf("got %v, want %v", recordIDs(got), tt.want)
			}
			for _, rec := range got {
				if len(rec.Vector) != 4 {
					t.Errorf("record %s has vector %v", rec.ID, rec.Vector)
				}
			}
		})
	}
	if _, err := m.Range(bg, "doc", 5, 4); !errors.Is(err, vectorstore.ErrInvalidRange) {
		t.Errorf("from > to: %v", err)
	}
	if _, err := m.Range(bg, "nope", 0, 4); !errors.Is(err, vectorstore.ErrNotFound) {
		t.Errorf("unknown document: %v", err)
	}
}

func TestDeleteDocumentAndDelete(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	recs := makeRecords(r, 5, 20, 8)
	m := newMemory(t, vectorstore.MemoryConfig{}, recs...)
	if err := m.DeleteDocument(bg, "d2"); err != nil {
		t.Fatal(err)
	}
	if err := m.DeleteDocument(bg, "d2"); err != nil {
		t.Errorf("deleting a missing document: %v", err)
	}
	if _, err := m.Range(bg, "d2", 0, 100); !errors.Is(err, vectorstore.ErrNotFound) {
		t.Errorf("Range of deleted document: %v", err)
	}
	if err := m.Delete(bg, "d0-3", "d0-4", "missing"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Get(bg, "d0-3"); !errors.Is(err, vectorstore.ErrNotFound) {
		t.Errorf("Get of deleted record: %v", err)
	}
	if m.Len() != 78 {
		t.Errorf("Len = %d, want 78", m.Len())
	}
	var left []vectorstore.Record
	for _, rec := range recs {
		if rec.DocID != "d2" && rec.ID != "d0-3" && rec.ID != "d0-4" {
			left = append(left, rec)
		}
	}
	q := randVec(r, 8)
	got, err := m.Query(bg, q, 200, vectorstore.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	checkHits(t, "after deletes", got, bruteForce(left, q, len(left), vectorstore.Filter{}), 200)
}

// TestRandomOperations checks the store against a plain map model over a
// long random sequence of writes, in both modes.
func TestRandomOperations(t *testing.T) {
	for _, compact := range []bool{false, true} {
		t.Run(fmt.Sprintf("compact=%v", compact), func(t *testing.T) {
			r := rand.New(rand.NewPCG(9, 9))
			m := newMemory(t, vectorstore.MemoryConfig{Compact: compact, Workers: 2})
			vectorstore.ForceFanOut(m)
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
					if err := m.Upsert(bg, batch...); err != nil {
						t.Fatal(err)
					}
					for _, rec := range batch {
						model[rec.ID] = rec
					}
				case op < 7:
					ids := []string{fmt.Sprintf("id%d", r.IntN(120)), fmt.Sprintf("id%d", r.IntN(120))}
					if err := m.Delete(bg, ids...); err != nil {
						t.Fatal(err)
					}
					delete(model, ids[0])
					delete(model, ids[1])
				case op < 8:
					doc := fmt.Sprintf("doc%d", r.IntN(8))
					if err := m.DeleteDocument(bg, doc); err != nil {
						t.Fatal(err)
					}
					maps.DeleteFunc(model, func(_ string, v vectorstore.Record) bool { return v.DocID == doc })
				default:
					doc := fmt.Sprintf("doc%d", r.IntN(8))
					var batch []vectorstore.Record
					for range r.IntN(5) {
						rec := newRec()
						rec.DocID = doc
						batch = append(batch, rec)
					}
					if err := m.ReplaceDocument(bg, doc, batch...); err != nil {
						t.Fatal(err)
					}
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

func checkAgainstModel(t *testing.T, step int, m *vectorstore.Memory, model map[string]vectorstore.Record, compact bool) {
	t.Helper()
	if m.Len() != len(model) {
		t.Fatalf("step %d: Len = %d, model has %d", step, m.Len(), len(model))
	}
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
			if !errors.Is(err, vectorstore.ErrNotFound) {
				t.Fatalf("step %d: Range of empty %s: %v", step, doc, err)
			}
			continue
		}
		var inRange []string
		for _, rec := range want {
			if rec.Index >= 3 && rec.Index <= 11 {
				inRange = append(inRange, rec.ID)
			}
		}
		if err != nil || !slices.Equal(recordIDs(got), append([]string{}, inRange...)) {
			t.Fatalf("step %d: Range(%s) = %v, %v; want %v", step, doc, recordIDs(got), err, inRange)
		}
		for _, rec := range got {
			if rec.Text != model[rec.ID].Text {
				t.Fatalf("step %d: record %s has text %q, want %q", step, rec.ID, rec.Text, model[rec.ID].Text)
			}
		}
	}
	if step%50 != 0 || compact {
		return
	}
	recs := slices.Collect(maps.Values(model))
	q := []float32{1, -1, 0.5, 0, 2, 1}
	got, err := m.Query(bg, q, 7, vectorstore.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	checkHits(t, fmt.Sprintf("step %d", step), got, bruteForce(recs, q, len(recs), vectorstore.Filter{}), 7)
}

func TestUpsertIsAllOrNothing(t *testing.T) {
	m := newMemory(t, vectorstore.MemoryConfig{}, vectorstore.Record{ID: "keep", DocID: "d", Vector: []float32{1, 0}})
	err := m.Upsert(bg,
		vectorstore.Record{ID: "keep", DocID: "d", Text: "changed", Vector: []float32{0, 1}},
		vectorstore.Record{ID: "new", DocID: "d", Vector: []float32{1, 0}},
		vectorstore.Record{ID: "bad", DocID: "d", Vector: []float32{0, 0}},
	)
	if !errors.Is(err, vectorstore.ErrZeroVector) {
		t.Fatalf("err = %v, want ErrZeroVector", err)
	}
	got, _ := m.Get(bg, "keep")
	if m.Len() != 1 || got.Text != "" {
		t.Errorf("a failed Upsert changed the store: Len %d, %+v", m.Len(), got)
	}
}

func TestErrors(t *testing.T) {
	nan := float32(math.NaN())
	m := newMemory(t, vectorstore.MemoryConfig{Dimension: 2})
	rec := func(mod func(*vectorstore.Record)) vectorstore.Record {
		r := vectorstore.Record{ID: "a", DocID: "d", Vector: []float32{1, 2}}
		mod(&r)
		return r
	}
	upserts := []struct {
		name string
		rec  vectorstore.Record
		want error
	}{
		{"empty ID", rec(func(r *vectorstore.Record) { r.ID = "" }), vectorstore.ErrEmptyID},
		{"empty DocID", rec(func(r *vectorstore.Record) { r.DocID = "" }), vectorstore.ErrEmptyDocID},
		{"negative Index", rec(func(r *vectorstore.Record) { r.Index = -1 }), vectorstore.ErrNegativeIndex},
		{"empty vector", rec(func(r *vectorstore.Record) { r.Vector = nil }), vectorstore.ErrEmptyVector},
		{"wrong dimension", rec(func(r *vectorstore.Record) { r.Vector = []float32{1, 2, 3} }), vectorstore.ErrDimensionMismatch},
		{"zero vector", rec(func(r *vectorstore.Record) { r.Vector = []float32{0, 0} }), vectorstore.ErrZeroVector},
		{"NaN", rec(func(r *vectorstore.Record) { r.Vector = []float32{nan, 1} }), vectorstore.ErrNonFinite},
		{"infinity", rec(func(r *vectorstore.Record) { r.Vector = []float32{float32(math.Inf(-1)), 1} }), vectorstore.ErrNonFinite},
		{"invalid UTF-8 text", rec(func(r *vectorstore.Record) { r.Text = "a\xffb" }), vectorstore.ErrInvalidUTF8},
		{"invalid UTF-8 ID", rec(func(r *vectorstore.Record) { r.ID = "\xc0" }), vectorstore.ErrInvalidUTF8},
		{"invalid UTF-8 metadata", rec(func(r *vectorstore.Record) { r.Metadata = map[string]string{"k": "\xff"} }), vectorstore.ErrInvalidUTF8},
		{"too long", rec(func(r *vectorstore.Record) { r.Vector = make([]float32, vectorstore.MaxDimension+1) }), vectorstore.ErrDimensionTooLarge},
	}
	for _, tt := range upserts {
		t.Run("Upsert/"+tt.name, func(t *testing.T) {
			if err := m.Upsert(bg, tt.rec); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
	if err := m.Upsert(bg, vectorstore.Record{ID: "a", DocID: "d", Vector: []float32{1, 0}}); err != nil {
		t.Fatal(err)
	}
	queries := []struct {
		name string
		vec  []float32
		k    int
		want error
	}{
		{"empty", nil, 1, vectorstore.ErrEmptyVector},
		{"k zero", []float32{1, 0}, 0, vectorstore.ErrInvalidK},
		{"k negative", []float32{1, 0}, -3, vectorstore.ErrInvalidK},
		{"dimension", []float32{1, 0, 0}, 1, vectorstore.ErrDimensionMismatch},
		{"zero", []float32{0, 0}, 1, vectorstore.ErrZeroVector},
		{"NaN", []float32{nan, 0}, 1, vectorstore.ErrNonFinite},
	}
	for _, tt := range queries {
		t.Run("Query/"+tt.name, func(t *testing.T) {
			if _, err := m.Query(bg, tt.vec, tt.k, vectorstore.Filter{}); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
	t.Run("ReplaceDocument/wrong document", func(t *testing.T) {
		err := m.ReplaceDocument(bg, "d", vectorstore.Record{ID: "b", DocID: "other", Vector: []float32{1, 0}})
		if !errors.Is(err, vectorstore.ErrWrongDocument) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("ReplaceDocument/empty DocID", func(t *testing.T) {
		if err := m.ReplaceDocument(bg, ""); !errors.Is(err, vectorstore.ErrEmptyDocID) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("NewMemory", func(t *testing.T) {
		for _, cfg := range []vectorstore.MemoryConfig{{Dimension: -1}, {Workers: -2}, {Dimension: vectorstore.MaxDimension + 1}} {
			if _, err := vectorstore.NewMemory(cfg); !errors.Is(err, vectorstore.ErrInvalidConfig) {
				t.Errorf("%+v: err = %v", cfg, err)
			}
		}
	})
	t.Run("Get/missing", func(t *testing.T) {
		if _, err := m.Get(bg, "missing"); !errors.Is(err, vectorstore.ErrNotFound) {
			t.Errorf("err = %v", err)
		}
	})
}

func TestEmptyStore(t *testing.T) {
	m := newMemory(t, vectorstore.MemoryConfig{})
	hits, err := m.Query(bg, []float32{1, 2, 3}, 5, vectorstore.Filter{})
	if err != nil || len(hits) != 0 {
		t.Errorf("Query on empty store = %v, %v", hits, err)
	}
	if m.Len() != 0 || m.Dimension() != 0 {
		t.Errorf("Len %d, Dimension %d", m.Len(), m.Dimension())
	}
	if err := m.Upsert(bg); err != nil {
		t.Errorf("empty Upsert: %v", err)
	}
	// The first vector fixes the dimension.
	if err := m.Upsert(bg, vectorstore.Record{ID: "a", DocID: "d", Vector: []float32{1, 2, 3}}); err != nil {
		t.Fatal(err)
	}
	if m.Dimension() != 3 {
		t.Errorf("Dimension = %d, want 3", m.Dimension())
	}
}

func TestClosed(t *testing.T) {
	m := newMemory(t, vectorstore.MemoryConfig{}, vectorstore.Record{ID: "a", DocID: "d", Vector: []float32{1}})
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
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
		if err := call(); !errors.Is(err, vectorstore.ErrClosed) {
			t.Errorf("%s after Close: %v", name, err)
		}
	}
	if m.Len() != 0 {
		t.Errorf("Len after Close = %d", m.Len())
	}
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
		m := newMemory(t, vectorstore.MemoryConfig{Compact: compact}, recs...)
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
			if err := call(ctx); !errors.Is(err, context.Canceled) {
				t.Errorf("compact=%v %s with cancelled context: %v", compact, name, err)
			}
		}
		// Cancelled while scanning and while saving.
		if _, err := m.Query(newLateCancel(), recs[0].Vector, 3, vectorstore.Filter{}); !errors.Is(err, context.Canceled) {
			t.Errorf("compact=%v Query cancelled mid-scan: %v", compact, err)
		}
		if err := m.Save(newLateCancel(), &strings.Builder{}); !errors.Is(err, context.Canceled) {
			t.Errorf("compact=%v Save cancelled midway: %v", compact, err)
		}
		if m.Len() != len(recs) {
			t.Errorf("compact=%v: cancelled calls changed the store", compact)
		}
	}
}

// checkHits compares hits with the full reference ranking all: the same
// number of hits, each with its true score, in order, and with scores equal
// to the reference's at each rank. Records whose scores differ by float32
// rounding only may trade places.
func checkHits(t *testing.T, name string, got, all []vectorstore.Hit, k int) {
	t.Helper()
	want := all[:min(k, len(all))]
	if len(got) != len(want) {
		t.Fatalf("%s k=%d: %d hits, want %d", name, k, len(got), len(want))
	}
	truth := map[string]float32{}
	for _, h := range all {
		truth[h.ID] = h.Score
	}
	const eps = 1e-5
	for i, h := range got {
		ts, ok := truth[h.ID]
		switch {
		case !ok:
			t.Fatalf("%s k=%d: hit %s does not match the filter", name, k, h.ID)
		case math.Abs(float64(h.Score-ts)) > eps:
			t.Fatalf("%s k=%d: hit %s scored %v, true score %v", name, k, h.ID, h.Score, ts)
		case math.Abs(float64(h.Score-want[i].Score)) > eps:
			t.Fatalf("%s k=%d: rank %d is %s (%v), want %s (%v)", name, k, i, h.ID, h.Score, want[i].ID, want[i].Score)
		case i > 0 && h.Score > got[i-1].Score:
			t.Fatalf("%s k=%d: hits out of order at %d", name, k, i)
		}
	}
}
