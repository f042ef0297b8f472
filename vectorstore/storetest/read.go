package storetest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/stretchr/testify/require"
)

// query checks Query against brute-force search, with each kind of
// filter and with k below, at and far above the number of matches.
func (s suite) query(t *testing.T) {
	for _, dim := range []int{3, 67} {
		r := rand.New(rand.NewPCG(uint64(dim), 1))
		recs := makeRecords(r, 8, 12, dim)
		st := s.store(t, dim, recs...)
		filters := []struct {
			name string
			f    vectorstore.Filter
		}{
			{"none", vectorstore.Filter{}},
			{"docs", vectorstore.Filter{DocIDs: []string{"d3", "d7", "d3", "missing"}}},
			{"metadata", vectorstore.Filter{Metadata: map[string]string{"parity": "odd"}}},
			{"two pairs", vectorstore.Filter{Metadata: map[string]string{"parity": "odd", "doc": "5"}}},
			{"both", vectorstore.Filter{DocIDs: []string{"d1", "d2"}, Metadata: map[string]string{"parity": "even"}}},
			{"nothing", vectorstore.Filter{Metadata: map[string]string{"parity": "neither"}}},
			{"unknown key", vectorstore.Filter{Metadata: map[string]string{"colour": "even"}}},
		}
		for _, f := range filters {
			for _, k := range []int{1, 10, math.MaxInt} {
				q := randVec(r, dim)
				got, err := st.Query(bg, q, k, f.f)
				require.NoError(t, err)
				s.checkHits(t, fmt.Sprintf("dim=%d filter %s", dim, f.name), got, bruteForce(recs, q, f.f), k)
			}
		}
		// Each hit is the whole record.
		want := make(map[string]vectorstore.Record, len(recs))
		for _, rec := range recs {
			want[rec.ID] = rec
		}
		hits, err := st.Query(bg, randVec(r, dim), 5, vectorstore.Filter{})
		require.NoError(t, err)
		for _, h := range hits {
			s.checkRecord(t, want[h.ID], h.Record, false) // hits carry no vectors
		}
	}
}

// queryTies checks that records of equal score come in order of ID,
// whatever order they were written in.
func (s suite) queryTies(t *testing.T) {
	var recs []vectorstore.Record
	for i := range 40 {
		recs = append(recs, vectorstore.Record{ID: fmt.Sprintf("id%03d", 39-i), DocID: "d", Index: i, Vector: []float32{1, 1}})
	}
	recs = append(recs, vectorstore.Record{ID: "away", DocID: "d", Index: 40, Vector: []float32{1, -1}})
	st := s.store(t, 2, recs...)
	hits, err := st.Query(bg, []float32{2, 2}, 5, vectorstore.Filter{})
	require.NoError(t, err)
	require.Equal(t, []string{"id000", "id001", "id002", "id003", "id004"}, hitIDs(hits))
	hits, err = st.Query(bg, []float32{1, -1}, 2, vectorstore.Filter{})
	require.NoError(t, err)
	require.Equal(t, []string{"away", "id000"}, hitIDs(hits))
	require.InDelta(t, 1, hits[0].Score, s.cfg.Tolerance, "a vector's similarity to itself")
	require.InDelta(t, 0, hits[1].Score, s.cfg.Tolerance, "similarity of orthogonal vectors")
	hits, err = st.Query(bg, []float32{-1, -1}, 100, vectorstore.Filter{})
	require.NoError(t, err)
	require.Len(t, hits, len(recs))
	require.Equal(t, "id039", hits[len(hits)-1].ID)
	require.InDelta(t, -1, hits[len(hits)-1].Score, s.cfg.Tolerance, "similarity of opposite vectors")
}

// queryErrors checks the arguments Query refuses.
func (s suite) queryErrors(t *testing.T) {
	nan := float32(math.NaN())
	st := s.store(t, 2, vectorstore.Record{ID: "a", DocID: "d", Vector: []float32{1, 0}})
	for _, tt := range []struct {
		name string
		vec  []float32
		k    int
		want error
	}{
		{"empty", nil, 1, vectorstore.ErrInvalidArgument},
		{"k zero", []float32{1, 0}, 0, vectorstore.ErrInvalidArgument},
		{"k negative", []float32{1, 0}, -3, vectorstore.ErrInvalidArgument},
		{"zero vector", []float32{0, 0}, 1, vectorstore.ErrInvalidArgument},
		{"NaN", []float32{nan, 0}, 1, vectorstore.ErrInvalidArgument},
		{"infinity", []float32{float32(math.Inf(1)), 0}, 1, vectorstore.ErrInvalidArgument},
		{"longer", []float32{1, 0, 0}, 1, vectorstore.ErrDimensionMismatch},
		{"shorter", []float32{1}, 1, vectorstore.ErrDimensionMismatch},
	} {
		t.Run(tt.name, func(t *testing.T) {
			hits, err := st.Query(bg, tt.vec, tt.k, vectorstore.Filter{})
			require.ErrorIs(t, err, tt.want)
			require.Nil(t, hits)
		})
	}
}

// emptyStore checks a store with no records, and one emptied.
func (s suite) emptyStore(t *testing.T) {
	st := s.store(t, 3)
	hits, err := st.Query(bg, []float32{1, 2, 3}, 5, vectorstore.Filter{})
	require.NoError(t, err)
	require.Empty(t, hits)
	_, err = st.Range(bg, "d", 0, 5)
	require.ErrorIs(t, err, vectorstore.ErrNotFound)
	require.NoError(t, st.Upsert(bg), "Upsert of no records")
	require.NoError(t, st.Upsert(bg, vectorstore.Record{ID: "a", DocID: "d", Vector: []float32{1, 2, 3}}))
	require.NoError(t, st.DeleteDocument(bg, "d"))
	hits, err = st.Query(bg, []float32{1, 2, 3}, 5, vectorstore.Filter{})
	require.NoError(t, err)
	require.Empty(t, hits)
	// The dimension stays once known.
	err = st.Upsert(bg, vectorstore.Record{ID: "b", DocID: "d", Vector: []float32{1, 2}})
	require.ErrorIs(t, err, vectorstore.ErrDimensionMismatch)
	require.ErrorIs(t, err, vectorstore.ErrInvalidRecord)
}

// rangeOrder checks Range: order by Index then ID whatever the order of
// writing, clipping at both ends, and its errors.
func (s suite) rangeOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	var recs []vectorstore.Record
	for _, i := range r.Perm(30) {
		recs = append(recs, vectorstore.Record{ID: fmt.Sprintf("u%02d", i), DocID: "doc", Index: i, Start: 7 * i, End: 7*i + 5, Text: fmt.Sprint("unit ", i), Vector: randVec(r, 4)})
	}
	recs = append(recs,
		vectorstore.Record{ID: "u05b", DocID: "doc", Index: 5, Vector: randVec(r, 4)},
		vectorstore.Record{ID: "u05a", DocID: "doc", Index: 5, Vector: randVec(r, 4)},
		vectorstore.Record{ID: "o1", DocID: "other", Index: 3, Vector: randVec(r, 4)},
		vectorstore.Record{ID: "big", DocID: "doc", Index: bigIndex, Vector: randVec(r, 4)},
	)
	st := s.store(t, 4, recs...)
	for _, tt := range [][2]int{{3, 6}, {-2, 1}, {28, 40}, {7, 7}, {31, 35}, {math.MinInt, math.MaxInt}, {0, math.MaxInt}} {
		t.Run(fmt.Sprintf("%d..%d", tt[0], tt[1]), func(t *testing.T) {
			got, err := st.Range(bg, "doc", tt[0], tt[1])
			require.NoError(t, err)
			require.NotNil(t, got, "an empty range is an empty slice")
			want := inRange(recs, "doc", tt[0], tt[1])
			require.Equal(t, recordIDs(want), recordIDs(got))
			for i := range got {
				s.checkRecord(t, want[i], got[i], true)
			}
		})
	}
	_, err := st.Range(bg, "doc", 5, 4)
	require.ErrorIs(t, err, vectorstore.ErrInvalidArgument, "from > to")
	_, err = st.Range(bg, "nope", 0, 4)
	require.ErrorIs(t, err, vectorstore.ErrNotFound, "unknown document")
	_, err = st.Range(bg, "", 0, 4)
	require.ErrorIs(t, err, vectorstore.ErrNotFound, "empty document ID")
}

// bigIndex is an Index past 32 bits where int has 64.
var bigIndex = int(min(int64(1)<<40, int64(math.MaxInt)))

// copies checks that records returned are copies and that the store
// copies what it is given.
func (s suite) copies(t *testing.T) {
	md := map[string]string{"acl": "alice"}
	vec := []float32{1, 0}
	st := s.store(t, 2, vectorstore.Record{ID: "a", DocID: "d", Vector: vec, Metadata: md})
	md["acl"] = "mallory"
	vec[0], vec[1] = 0, 1
	onlyAlice := vectorstore.Filter{Metadata: map[string]string{"acl": "alice"}}
	check := func(what string) {
		t.Helper()
		hits, err := st.Query(bg, []float32{1, 0}, 1, onlyAlice)
		require.NoError(t, err)
		require.Len(t, hits, 1, "%s: the filter no longer finds the record", what)
		require.Equal(t, map[string]string{"acl": "alice"}, hits[0].Metadata, what)
		require.InDelta(t, 1, hits[0].Score, s.cfg.Tolerance, "%s: the stored vector changed", what)
	}
	check("changing the upserted record")
	spoil := func(r *vectorstore.Record) {
		r.Metadata["acl"] = "mallory"
		r.Metadata["extra"] = "x"
		if r.Vector != nil {
			r.Vector[0], r.Vector[1] = 0, 1
		}
	}
	hits, err := st.Query(bg, []float32{1, 0}, 1, vectorstore.Filter{})
	require.NoError(t, err)
	spoil(&hits[0].Record)
	check("changing a hit of Query")
	recs, err := st.Range(bg, "d", 0, 0)
	require.NoError(t, err)
	spoil(&recs[0])
	check("changing a record of Range")
}
