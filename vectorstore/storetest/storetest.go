package storetest

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/stretchr/testify/require"
)

// Config describes the store under test.
type Config struct {
	// New returns an empty store for vectors of dim components; it is
	// required. The suite calls it once for each subtest (with t the
	// subtest's), so stores need not be emptied between tests: release
	// what a store holds with t.Cleanup. A store that takes its
	// dimension from the first record may ignore dim.
	New func(t *testing.T, dim int) vectorstore.VectorStore

	// Tolerance is how far a score, or a component of a returned unit
	// vector, may be from the exact value (computed in float64). Zero
	// means 1e-5, which float32 arithmetic keeps to.
	Tolerance float64
}

// Run runs the conformance suite against the stores cfg.New makes, each
// check as a subtest of t.
func Run(t *testing.T, cfg Config) {
	if cfg.New == nil {
		t.Fatal("storetest: Config.New is nil")
	}
	if cfg.Tolerance == 0 {
		cfg.Tolerance = 1e-5
	}
	s := suite{cfg}
	for _, tt := range []struct {
		name string
		run  func(t *testing.T)
	}{
		{"Fields", s.fields},
		{"Query", s.query},
		{"QueryTies", s.queryTies},
		{"QueryErrors", s.queryErrors},
		{"EmptyStore", s.emptyStore},
		{"UpsertReplaces", s.upsertReplaces},
		{"Copies", s.copies},
		{"RecordErrors", s.recordErrors},
		{"Range", s.rangeOrder},
		{"DeleteDocument", s.deleteDocument},
		{"ReplaceDocument", s.replaceDocument},
		{"Keywords", s.keywords},
		{"Filters", s.filters},
		{"Cancelled", s.cancelled},
		{"Concurrent", s.concurrent},
		{"RandomOperations", s.randomOperations},
	} {
		t.Run(tt.name, tt.run)
	}
}

type suite struct{ cfg Config }

var bg = context.Background()

// store returns a new store for dim holding recs.
func (s suite) store(t *testing.T, dim int, recs ...vectorstore.Record) vectorstore.VectorStore {
	t.Helper()
	st := s.cfg.New(t, dim)
	require.NotNil(t, st, "Config.New returned nil")
	if len(recs) > 0 {
		require.NoError(t, st.Upsert(bg, recs...))
	}
	return st
}

func randVec(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// makeRecords returns docs*perDoc records with random vectors; record j of
// document d has ID "d<d>-<j>", Index j, offsets 10j..10j+9, metadata
// {"parity": even|odd} by d and, but in every third document, a title, a
// source, a section path, a location and notes in every field.
func makeRecords(r *rand.Rand, docs, perDoc, dim int) []vectorstore.Record {
	var out []vectorstore.Record
	for d := range docs {
		for j := range perDoc {
			rec := vectorstore.Record{
				ID:       fmt.Sprintf("d%d-%d", d, j),
				DocID:    fmt.Sprintf("d%d", d),
				Index:    j,
				Start:    10 * j,
				End:      10*j + 9,
				Text:     fmt.Sprintf("unit %d of document %d", j, d),
				Vector:   randVec(r, dim),
				Metadata: map[string]string{"parity": []string{"even", "odd"}[d%2], "doc": fmt.Sprint(d)},
			}
			if d%3 != 2 { // the others have no provenance and no notes
				rec.Title, rec.Source = fmt.Sprintf("Document %d", d), fmt.Sprintf("docs/%d.pdf", d)
				rec.Section = [][]string{nil, {"Part 1"}, {"Part 1", "Détails"}}[j%3]
				rec.Location = document.Location{Page: j + 1, LastPage: j + 2, Line: j, LastLine: j + 3, Sheet: "Σ", Row: j % 2, LastRow: j % 2}
				rec.Notes = vectorstore.Notes{Keywords: "header words", Gap: "\n\n", Embed: fmt.Sprintf("e%d", j),
					Fingerprint: fmt.Sprint("f", d), Summary: "a summary", SummaryOf: "s"}
			}
			out = append(out, rec)
		}
	}
	return out
}

// bruteForce is the reference search: cosine similarity in float64 over
// every record that matches f, best first, ties by ID.
func bruteForce(recs []vectorstore.Record, q []float32, f vectorstore.Filter) []vectorstore.Hit {
	var hits []vectorstore.Hit
	for _, r := range recs {
		if f.Match(r) {
			hits = append(hits, vectorstore.Hit{Record: r, Score: float32(cosine(q, r.Vector))})
		}
	}
	slices.SortFunc(hits, func(a, b vectorstore.Hit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.ID, b.ID))
	})
	return hits
}

func cosine(a, b []float32) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	return ab / math.Sqrt(aa*bb)
}

// unit returns v scaled to unit length, in float64.
func unit(v []float32) []float64 {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x) / math.Sqrt(ss)
	}
	return out
}

// checkHits compares hits with the full reference ranking all: as many
// hits as k allows, each matching the filter with its true score, in
// order, with the reference's score at each rank. Records whose scores
// differ by less than the tolerance may trade places.
func (s suite) checkHits(t *testing.T, name string, got, all []vectorstore.Hit, k int) {
	t.Helper()
	want := all[:min(k, len(all))]
	require.Len(t, got, len(want), "%s k=%d: number of hits", name, k)
	truth := make(map[string]float32, len(all))
	for _, h := range all {
		truth[h.ID] = h.Score
	}
	tol := s.cfg.Tolerance
	for i, h := range got {
		ts, ok := truth[h.ID]
		require.True(t, ok, "%s k=%d: hit %s does not match the filter", name, k, h.ID)
		require.InDelta(t, ts, h.Score, tol, "%s k=%d: hit %s scored %v, its cosine similarity is %v", name, k, h.ID, h.Score, ts)
		require.InDelta(t, want[i].Score, h.Score, tol, "%s k=%d: rank %d is %s (%v), want %s (%v)", name, k, i, h.ID, h.Score, want[i].ID, want[i].Score)
		if i > 0 {
			require.LessOrEqual(t, h.Score, got[i-1].Score, "%s k=%d: hits out of order at %d", name, k, i)
		}
	}
}

// checkRecord checks that got is want as a store returns it: every field
// equal (provenance and notes included), an empty Metadata or Section as
// nil, and the vector at unit length (or nil,
// if vectors is false).
func (s suite) checkRecord(t *testing.T, want, got vectorstore.Record, vectors bool) {
	t.Helper()
	wantVec, gotVec := want.Vector, got.Vector
	want.Vector, got.Vector = nil, nil
	want.Metadata = nilIfEmpty(want.Metadata)
	if len(want.Section) == 0 {
		want.Section = nil
	}
	require.Equal(t, want, got, "record %s", want.ID)
	if !vectors {
		require.Nil(t, gotVec, "record %s: a vector where none was asked for", want.ID)
		return
	}
	require.Len(t, gotVec, len(wantVec), "record %s: vector length", want.ID)
	for i, x := range unit(wantVec) {
		require.InDelta(t, x, gotVec[i], s.cfg.Tolerance, "record %s: component %d of the unit vector", want.ID, i)
	}
}

func nilIfEmpty(md map[string]string) map[string]string {
	if len(md) == 0 {
		return nil
	}
	return maps.Clone(md)
}

func hitIDs(hits []vectorstore.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

func recordIDs(recs []vectorstore.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.ID
	}
	return out
}

// byIndex orders records as Range returns them.
func byIndex(a, b vectorstore.Record) int {
	return cmp.Or(cmp.Compare(a.Index, b.Index), cmp.Compare(a.ID, b.ID))
}

// inRange returns the records of doc among recs with Index in [from, to],
// in the order of Range.
func inRange(recs []vectorstore.Record, doc string, from, to int) []vectorstore.Record {
	out := []vectorstore.Record{}
	for _, r := range recs {
		if r.DocID == doc && r.Index >= from && r.Index <= to {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, byIndex)
	return out
}
