package memory_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/internal/testcorpus"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/stretchr/testify/require"
)

// storedRecords returns the records of m as it stores them: for a compact
// store, with the vectors rebuilt from its codes.
func storedRecords(t *testing.T, m *memory.Store, recs []vectorstore.Record) []vectorstore.Record {
	t.Helper()
	out := make([]vectorstore.Record, len(recs))
	for i, r := range recs {
		got, err := m.Get(bg, r.ID)
		require.NoError(t, err)
		out[i] = got
	}
	return out
}

// TestCompactSmallStoreIsExact checks that a compact store small enough to
// re-rank every candidate returns exactly the top k of brute-force search
// over the vectors it stores (rebuilt from its codes, scored as it scores
// them: the dot product with the unit query), with and without filters, on
// one goroutine and shared among several.
func TestCompactSmallStoreIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	recs := makeRecords(r, 4, 16, 96) // 64 records
	filters := map[string]vectorstore.Filter{
		"none":     {},
		"docs":     {DocIDs: []string{"d1", "d3"}},
		"metadata": {Metadata: map[string]string{"parity": "even"}},
	}
	for _, workers := range []int{1, 3} {
		m := newMemory(t, memory.Config{Compact: true, Workers: workers}, recs...)
		memory.ForceFanOut(m)
		stored := storedRecords(t, m, recs)
		for name, f := range filters {
			for _, k := range []int{1, 5, 64} {
				q := randVec(r, 96)
				got, err := m.Query(bg, q, k, f)
				require.NoError(t, err)
				want := bruteForceBy(stored, q, len(stored), f, unitDot)
				checkHits(t, fmt.Sprintf("workers=%d/%s", workers, name), got, want, k)
			}
		}
	}
}

// TestCompactScoresAreRefined checks a large compact store scanned by
// several goroutines: every hit's score is the dot product of the unit
// query with the vector the store returns for it, and the hits are in
// order.
func TestCompactScoresAreRefined(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	recs := makeRecords(r, 30, 100, 128)
	m := newMemory(t, memory.Config{Compact: true, Workers: 4})
	memory.ForceFanOut(m)
	require.NoError(t, m.Upsert(bg, recs...))
	for range 10 {
		q := randVec(r, 128)
		hits, err := m.Query(bg, q, 10, vectorstore.Filter{})
		require.NoError(t, err)
		require.Len(t, hits, 10)
		for i, h := range hits {
			stored, err := m.Get(bg, h.ID)
			require.NoError(t, err)
			require.InDelta(t, unitDot(q, stored.Vector), h.Score, 1e-5, "hit %s: score against the dot product with its vector", h.ID)
			if i > 0 {
				require.LessOrEqual(t, h.Score, hits[i-1].Score, "hits out of order at %d", i)
			}
		}
	}
}

// TestScoresWithinUnitRange is the regression test for compact-store
// scores above 1 (1.00098 for a 65,536-dimensional all-ones vector, whose
// refined reconstruction is longer than the original), though scores are
// documented within [-1, 1]: in both modes, a vector queried with itself
// or its opposite scores within the range, and equal clamped scores are
// ordered by ID.
func TestScoresWithinUnitRange(t *testing.T) {
	for _, dim := range []int{3, 384, vectorstore.MaxDimension} {
		ones := make([]float32, dim)
		for i := range ones {
			ones[i] = 1
		}
		minus := make([]float32, dim)
		for i := range minus {
			minus[i] = -1
		}
		for _, compact := range []bool{false, true} {
			m := newMemory(t, memory.Config{Compact: compact},
				vectorstore.Record{ID: "b", DocID: "d", Vector: ones},
				vectorstore.Record{ID: "a", DocID: "d", Index: 1, Vector: ones},
				vectorstore.Record{ID: "c", DocID: "d", Index: 2, Vector: minus},
			)
			hits, err := m.Query(bg, ones, 3, vectorstore.Filter{})
			require.NoError(t, err)
			require.Equal(t, []string{"a", "b", "c"}, hitIDs(hits), "dim=%d compact=%v", dim, compact)
			for _, h := range hits {
				require.LessOrEqual(t, h.Score, float32(1), "dim=%d compact=%v", dim, compact)
				require.GreaterOrEqual(t, h.Score, float32(-1), "dim=%d compact=%v", dim, compact)
			}
		}
	}
}

// recallAt10 returns the mean recall@10 of the compact store against exact
// search over the same records: a hit counts when its exact score is at
// least the exact tenth best, so that ties at the tenth place count for
// either store.
func recallAt10(t *testing.T, recs []vectorstore.Record, queries [][]float32) float64 {
	t.Helper()
	exact := newMemory(t, memory.Config{}, recs...)
	compact := newMemory(t, memory.Config{Compact: true}, recs...)
	var sum float64
	for _, q := range queries {
		truth, err := exact.Query(bg, q, len(recs), vectorstore.Filter{})
		require.NoError(t, err)
		score := make(map[string]float32, len(truth))
		for _, h := range truth {
			score[h.ID] = h.Score
		}
		kth := truth[9].Score
		got, err := compact.Query(bg, q, 10, vectorstore.Filter{})
		require.NoError(t, err)
		n := 0
		for _, h := range got {
			if score[h.ID] >= kth-1e-6 {
				n++
			}
		}
		sum += float64(n) / 10
	}
	return sum / float64(len(queries))
}

// TestCompactRecall measures the bar for the compact mode, recall@10
// of at least 0.99 against exact search, on random unit vectors and on the
// lexical embedder's vectors of a book (queries: runs of eight words from
// its pieces).
func TestCompactRecall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds stores of thousands of vectors")
	}
	t.Run("random", func(t *testing.T) {
		r := rand.New(rand.NewPCG(15, 16))
		recs := makeRecords(r, 50, 100, 384)
		var queries [][]float32
		for range 64 {
			queries = append(queries, randVec(r, 384))
		}
		require.GreaterOrEqual(t, recallAt10(t, recs, queries), 0.99, "recall@10")
	})
	t.Run("lexical", func(t *testing.T) {
		words := strings.Fields(testcorpus.Must(t, "room_with_a_view.txt"))
		var pieces []string
		for i := 0; i < len(words); i += 30 {
			pieces = append(pieces, strings.Join(words[i:min(i+30, len(words))], " "))
		}
		r := rand.New(rand.NewPCG(17, 18))
		var texts []string
		for range 200 {
			w := strings.Fields(pieces[r.IntN(len(pieces))])
			start := r.IntN(max(1, len(w)-8))
			texts = append(texts, strings.Join(w[start:min(start+8, len(w))], " "))
		}
		l, err := lexical.New(lexical.Config{Dimension: 384})
		require.NoError(t, err)
		vecs, err := l.Embed(bg, pieces)
		require.NoError(t, err)
		queries, err := l.Embed(bg, texts)
		require.NoError(t, err)
		recs := make([]vectorstore.Record, len(vecs))
		for i, v := range vecs {
			recs[i] = vectorstore.Record{ID: fmt.Sprintf("p%05d", i), DocID: "room", Index: i, Vector: v}
		}
		require.GreaterOrEqual(t, recallAt10(t, recs, queries), 0.99, "recall@10 over %d pieces", len(recs))
	})
}

// TestQueryAllocs guards the allocations of a query: the hits (no
// vectors), plus one closure per goroutine
// when the scan is shared, plus a copy of each hit's metadata.
func TestQueryAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under -race")
	}
	r := rand.New(rand.NewPCG(19, 20))
	recs := makeRecords(r, 10, 100, 64)
	bare := slices.Clone(recs)
	for i := range bare {
		bare[i].Metadata = nil
	}
	q := randVec(r, 64)
	md := map[string]string{"k": "v"}
	metadataCopyAllocs := testing.AllocsPerRun(10, func() { _ = maps.Clone(md) })
	for _, meta := range []bool{false, true} {
		for _, compact := range []bool{false, true} {
			for _, workers := range []int{1, 3} {
				m := newMemory(t, memory.Config{Compact: compact, Workers: workers}, map[bool][]vectorstore.Record{false: bare, true: recs}[meta]...)
				memory.ForceFanOut(m)
				for base, query := range map[float64]func(context.Context, []float32, int, vectorstore.Filter) ([]vectorstore.Hit, error){1: m.Query} {
					allocs := testing.AllocsPerRun(50, func() {
						_, err := query(bg, q, 10, vectorstore.Filter{})
						require.NoError(t, err)
					})
					want := base
					if workers > 1 {
						want += float64(workers)
					}
					if meta {
						want += 10 * metadataCopyAllocs
					}
					require.LessOrEqual(t, allocs, want, "metadata=%v compact=%v workers=%d base=%v", meta, compact, workers, base)
				}
			}
		}
	}
}
