package storetest

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/stretchr/testify/require"
)

// fields checks that every field of a record comes back as written, the
// vector at unit length, from Query and from Range.
func (s suite) fields(t *testing.T) {
	recs := []vectorstore.Record{
		{ID: "a", DocID: "doc", Index: 4, Start: 10, End: 15, Text: "hello", Vector: []float32{3, 4},
			Metadata: map[string]string{"lang": "en", "quote": `"x'y\z`, "": "empty key", "ü": "ÿ"}},
		{ID: "b ' \" ; --", DocID: "doc ' \"", Index: 0, Text: "", Vector: []float32{-1, 0}, Metadata: map[string]string{}},
		{ID: "日本", DocID: "doc", Index: 9, Start: 3, End: 3, Text: "東京 🙂\ttab\nline", Vector: []float32{0, 1e-3}},
	}
	st := s.store(t, 2, recs...)
	for _, want := range recs {
		hits, err := st.Query(bg, want.Vector, 1, vectorstore.Filter{DocIDs: []string{want.DocID}, Metadata: want.Metadata})
		require.NoError(t, err)
		require.Len(t, hits, 1, "record %s", want.ID)
		s.checkRecord(t, want, hits[0].Record, false)
		require.InDelta(t, 1, hits[0].Score, s.cfg.Tolerance, "record %s against its own vector", want.ID)
		got, err := st.Range(bg, want.DocID, want.Index, want.Index)
		require.NoError(t, err)
		require.Len(t, got, 1, "record %s", want.ID)
		s.checkRecord(t, want, got[0], true)
	}
}

// upsertReplaces checks that Upsert replaces by ID: in place, into
// another document, and within one call (the last record wins).
func (s suite) upsertReplaces(t *testing.T) {
	st := s.store(t, 2,
		vectorstore.Record{ID: "x", DocID: "a", Index: 0, Text: "old", Vector: []float32{1, 0}, Metadata: map[string]string{"v": "1"}},
		vectorstore.Record{ID: "y", DocID: "a", Index: 1, Text: "y", Vector: []float32{0, 1}},
	)
	x := vectorstore.Record{ID: "x", DocID: "a", Index: 0, Start: 3, End: 6, Text: "new", Vector: []float32{0, 1}}
	require.NoError(t, st.Upsert(bg, x))
	got, err := st.Range(bg, "a", 0, 10)
	require.NoError(t, err)
	require.Equal(t, []string{"x", "y"}, recordIDs(got))
	s.checkRecord(t, x, got[0], true)
	hits, err := st.Query(bg, []float32{1, 0}, 10, vectorstore.Filter{Metadata: map[string]string{"v": "1"}})
	require.NoError(t, err)
	require.Empty(t, hits, "the old metadata still matches")

	moved := vectorstore.Record{ID: "x", DocID: "b", Index: 7, Text: "moved", Vector: []float32{0, 1}}
	require.NoError(t, st.Upsert(bg, moved))
	a, err := st.Range(bg, "a", 0, 10)
	require.NoError(t, err)
	require.Equal(t, []string{"y"}, recordIDs(a))
	b, err := st.Range(bg, "b", 0, 10)
	require.NoError(t, err)
	require.Equal(t, []string{"x"}, recordIDs(b))
	all, err := st.Query(bg, []float32{1, 1}, 10, vectorstore.Filter{})
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"x", "y"}, hitIDs(all))

	require.NoError(t, st.Upsert(bg,
		vectorstore.Record{ID: "z", DocID: "c", Index: 0, Text: "first", Vector: []float32{1, 0}},
		vectorstore.Record{ID: "w", DocID: "c", Index: 1, Text: "w", Vector: []float32{1, 0}},
		vectorstore.Record{ID: "z", DocID: "c", Index: 2, Text: "second", Vector: []float32{0, 1}},
	))
	c, err := st.Range(bg, "c", 0, 10)
	require.NoError(t, err)
	require.Equal(t, []string{"w", "z"}, recordIDs(c))
	require.Equal(t, "second", c[1].Text)
	require.Equal(t, 2, c[1].Index)
}

// recordErrors checks the records that writes refuse, what the error
// says, and that a refused write changes nothing.
func (s suite) recordErrors(t *testing.T) {
	keep := vectorstore.Record{ID: "keep", DocID: "d", Text: "kept", Vector: []float32{1, 0}}
	st := s.store(t, 2, keep)
	rp, replacer := st.(vectorstore.DocumentReplacer)
	nan := float32(math.NaN())
	rec := func(mod func(*vectorstore.Record)) vectorstore.Record {
		r := vectorstore.Record{ID: "a", DocID: "d", Vector: []float32{1, 2}}
		mod(&r)
		return r
	}
	for _, tt := range []struct {
		name     string
		rec      vectorstore.Record
		field    string
		mismatch bool // also ErrDimensionMismatch
	}{
		{"empty ID", rec(func(r *vectorstore.Record) { r.ID = "" }), "ID", false},
		{"invalid UTF-8 ID", rec(func(r *vectorstore.Record) { r.ID = "\xc0" }), "ID", false},
		{"empty DocID", rec(func(r *vectorstore.Record) { r.DocID = "" }), "DocID", false},
		{"invalid UTF-8 DocID", rec(func(r *vectorstore.Record) { r.DocID = "d\xff" }), "DocID", false},
		{"negative Index", rec(func(r *vectorstore.Record) { r.Index = -1 }), "Index", false},
		{"negative Start", rec(func(r *vectorstore.Record) { r.Start, r.End = -1, 3 }), "Start", false},
		{"End before Start", rec(func(r *vectorstore.Record) { r.Start, r.End = 5, 4 }), "End", false},
		{"End alone", rec(func(r *vectorstore.Record) { r.Start, r.End = 2, 0 }), "End", false},
		{"invalid UTF-8 text", rec(func(r *vectorstore.Record) { r.Text = "a\xffb" }), "Text", false},
		{"invalid UTF-8 metadata", rec(func(r *vectorstore.Record) { r.Metadata = map[string]string{"k": "\xff"} }), "Metadata", false},
		{"empty vector", rec(func(r *vectorstore.Record) { r.Vector = nil }), "Vector", false},
		{"wrong dimension", rec(func(r *vectorstore.Record) { r.Vector = []float32{1, 2, 3} }), "Vector", true},
		{"zero vector", rec(func(r *vectorstore.Record) { r.Vector = []float32{0, 0} }), "Vector", false},
		{"NaN", rec(func(r *vectorstore.Record) { r.Vector = []float32{nan, 1} }), "Vector", false},
		{"infinity", rec(func(r *vectorstore.Record) { r.Vector = []float32{float32(math.Inf(-1)), 1} }), "Vector", false},
		{"too long", rec(func(r *vectorstore.Record) { r.Vector = make([]float32, vectorstore.MaxDimension+1) }), "Vector", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ok := vectorstore.Record{ID: "ok", DocID: "d", Vector: []float32{1, 0}}
			writes := map[string]func() error{"Upsert": func() error { return st.Upsert(bg, ok, tt.rec) }}
			if replacer {
				writes["ReplaceDocument"] = func() error { return rp.ReplaceDocument(bg, "d", ok, tt.rec) }
			}
			for name, write := range writes {
				err := write()
				require.ErrorIs(t, err, vectorstore.ErrInvalidRecord, name)
				require.Equal(t, tt.mismatch, errors.Is(err, vectorstore.ErrDimensionMismatch), "%s: %v", name, err)
				var re *vectorstore.RecordError
				require.ErrorAs(t, err, &re, name)
				require.Equal(t, 1, re.Index, name)
				require.Equal(t, tt.rec.ID, re.ID, name)
				require.Equal(t, tt.field, re.Field, name)
			}
		})
	}
	// A bad record is refused even when a later record of the same write
	// replaces it: every record is checked, not only the one kept.
	for _, bad := range [][]float32{{0, 0}, {nan, 1}} {
		shadowed := []vectorstore.Record{rec(func(r *vectorstore.Record) { r.Vector = bad }), rec(func(*vectorstore.Record) {})}
		writes := map[string]func() error{"Upsert": func() error { return st.Upsert(bg, shadowed...) }}
		if replacer {
			writes["ReplaceDocument"] = func() error { return rp.ReplaceDocument(bg, "d", shadowed...) }
		}
		for name, write := range writes {
			var re *vectorstore.RecordError
			require.ErrorAs(t, write(), &re, "%s of a bad record replaced within the write", name)
			require.Equal(t, 0, re.Index, name)
			require.Equal(t, "Vector", re.Field, name)
		}
	}
	if replacer {
		err := rp.ReplaceDocument(bg, "d", vectorstore.Record{ID: "b", DocID: "other", Vector: []float32{1, 0}})
		var re *vectorstore.RecordError
		require.ErrorAs(t, err, &re, "a record of another document")
		require.Equal(t, "DocID", re.Field)
	}
	got, err := st.Range(bg, "d", math.MinInt, math.MaxInt)
	require.NoError(t, err)
	require.Len(t, got, 1, "refused writes changed the store")
	s.checkRecord(t, keep, got[0], true)
	_, err = st.Range(bg, "other", 0, 10)
	require.ErrorIs(t, err, vectorstore.ErrNotFound, "refused writes changed the store")
}

// deleteDocument checks that DeleteDocument removes exactly one document,
// and that deleting a missing one is not an error.
func (s suite) deleteDocument(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	recs := makeRecords(r, 5, 10, 8)
	st := s.store(t, 8, recs...)
	require.NoError(t, st.DeleteDocument(bg, "d2"))
	require.NoError(t, st.DeleteDocument(bg, "d2"), "deleting it again")
	require.NoError(t, st.DeleteDocument(bg, "never there"))
	require.NoError(t, st.DeleteDocument(bg, ""))
	_, err := st.Range(bg, "d2", 0, 100)
	require.ErrorIs(t, err, vectorstore.ErrNotFound, "Range of a deleted document")
	left := slices.DeleteFunc(slices.Clone(recs), func(r vectorstore.Record) bool { return r.DocID == "d2" })
	q := randVec(r, 8)
	got, err := st.Query(bg, q, 100, vectorstore.Filter{})
	require.NoError(t, err)
	s.checkHits(t, "after DeleteDocument", got, bruteForce(left, q, vectorstore.Filter{}), 100)
	got, err = st.Query(bg, q, 100, vectorstore.Filter{DocIDs: []string{"d2"}})
	require.NoError(t, err)
	require.Empty(t, got)
}

// replaceDocument checks ReplaceDocument, if the store has it.
func (s suite) replaceDocument(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	recs := makeRecords(r, 3, 6, 4)
	st := s.store(t, 4, recs...)
	rp, ok := st.(vectorstore.DocumentReplacer)
	if !ok {
		t.Skip("the store does not implement vectorstore.DocumentReplacer")
	}
	next := makeRecords(r, 2, 3, 4)[3:] // d1-0..d1-2: replaces six records by three
	next[1].ID = "d1-new"
	require.NoError(t, rp.ReplaceDocument(bg, "d1", next...))
	got, err := st.Range(bg, "d1", 0, 100)
	require.NoError(t, err)
	require.Equal(t, []string{"d1-0", "d1-new", "d1-2"}, recordIDs(got))
	for i := range got {
		s.checkRecord(t, next[i], got[i], true)
	}
	other, err := st.Range(bg, "d0", 0, 100)
	require.NoError(t, err)
	require.Len(t, other, 6, "another document changed")

	require.NoError(t, rp.ReplaceDocument(bg, "new", vectorstore.Record{ID: "n", DocID: "new", Vector: []float32{1, 0, 0, 0}}))
	got, err = st.Range(bg, "new", 0, 0)
	require.NoError(t, err)
	require.Equal(t, []string{"n"}, recordIDs(got), "replacing a document that was not there")

	require.NoError(t, rp.ReplaceDocument(bg, "d1"))
	_, err = st.Range(bg, "d1", 0, 100)
	require.ErrorIs(t, err, vectorstore.ErrNotFound, "replacing with no records deletes")
	require.ErrorIs(t, rp.ReplaceDocument(bg, ""), vectorstore.ErrInvalidArgument, "an empty document ID")

	// A record that moves in from another document leaves it.
	require.NoError(t, rp.ReplaceDocument(bg, "new", vectorstore.Record{ID: "d0-0", DocID: "new", Index: 1, Vector: []float32{0, 1, 0, 0}}))
	got, err = st.Range(bg, "new", 0, 5)
	require.NoError(t, err)
	require.Equal(t, []string{"d0-0"}, recordIDs(got))
	other, err = st.Range(bg, "d0", 0, 100)
	require.NoError(t, err)
	require.Len(t, other, 5)
}

// randomOperations checks the store against a plain map over a random
// sequence of writes.
func (s suite) randomOperations(t *testing.T) {
	const docs, ids, dim = 6, 60, 6
	r := rand.New(rand.NewPCG(9, 9))
	st := s.store(t, dim)
	rp, replacer := st.(vectorstore.DocumentReplacer)
	model := map[string]vectorstore.Record{}
	newRec := func(doc string) vectorstore.Record {
		if doc == "" {
			doc = fmt.Sprintf("doc%d", r.IntN(docs))
		}
		return vectorstore.Record{
			ID: fmt.Sprintf("id%d", r.IntN(ids)), DocID: doc, Index: r.IntN(12),
			Text: fmt.Sprint(r.Int()), Vector: randVec(r, dim),
			Metadata: map[string]string{"m": fmt.Sprint(r.IntN(3))},
		}
	}
	for step := range 150 {
		switch op := r.IntN(10); {
		case op < 6:
			batch := make([]vectorstore.Record, 1+r.IntN(6))
			for i := range batch {
				batch[i] = newRec("")
			}
			require.NoError(t, st.Upsert(bg, batch...))
			for _, rec := range batch {
				model[rec.ID] = rec
			}
		case op < 8 || !replacer:
			doc := fmt.Sprintf("doc%d", r.IntN(docs))
			require.NoError(t, st.DeleteDocument(bg, doc))
			maps.DeleteFunc(model, func(_ string, v vectorstore.Record) bool { return v.DocID == doc })
		default:
			doc := fmt.Sprintf("doc%d", r.IntN(docs))
			var batch []vectorstore.Record
			for range r.IntN(5) {
				batch = append(batch, newRec(doc))
			}
			require.NoError(t, rp.ReplaceDocument(bg, doc, batch...))
			maps.DeleteFunc(model, func(_ string, v vectorstore.Record) bool { return v.DocID == doc })
			for _, rec := range batch {
				model[rec.ID] = rec
			}
		}
		s.checkModel(t, step, st, model, docs, dim)
	}
}

// checkModel compares st with model: every document's Range, and now and
// then a query.
func (s suite) checkModel(t *testing.T, step int, st vectorstore.VectorStore, model map[string]vectorstore.Record, docs, dim int) {
	t.Helper()
	recs := slices.Collect(maps.Values(model))
	for d := range docs {
		doc := fmt.Sprintf("doc%d", d)
		want := inRange(recs, doc, 0, math.MaxInt)
		got, err := st.Range(bg, doc, 2, 9)
		if len(want) == 0 {
			require.ErrorIs(t, err, vectorstore.ErrNotFound, "step %d: Range of empty %s", step, doc)
			continue
		}
		require.NoError(t, err, "step %d", step)
		want = inRange(recs, doc, 2, 9)
		require.Equal(t, recordIDs(want), recordIDs(got), "step %d: Range(%s)", step, doc)
		for i := range got {
			s.checkRecord(t, want[i], got[i], true)
		}
	}
	if step%10 != 0 {
		return
	}
	q := make([]float32, dim)
	for i := range q {
		q[i] = float32(i%3) - 0.5
	}
	f := vectorstore.Filter{Metadata: map[string]string{"m": "1"}}
	got, err := st.Query(bg, q, 7, f)
	require.NoError(t, err)
	s.checkHits(t, fmt.Sprintf("step %d", step), got, bruteForce(recs, q, f), 7)
}
