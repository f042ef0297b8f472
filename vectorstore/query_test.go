package vectorstore_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/internal/testcorpus"
	"github.com/ragkit/ragkit/vectorstore"
)

// storedRecords returns the records of m as it stores them: for a compact
// store, with the vectors rebuilt from its codes.
func storedRecords(t *testing.T, m *vectorstore.Memory, recs []vectorstore.Record) []vectorstore.Record {
	t.Helper()
	out := make([]vectorstore.Record, len(recs))
	for i, r := range recs {
		got, err := m.Get(bg, r.ID)
		if err != nil {
			t.Fatal(err)
		}
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
		m := newMemory(t, vectorstore.MemoryConfig{Compact: true, Workers: workers}, recs...)
		vectorstore.ForceFanOut(m)
		stored := storedRecords(t, m, recs)
		for name, f := range filters {
			for _, k := range []int{1, 5, 64} {
				q := randVec(r, 96)
				got, err := m.Query(bg, q, k, f)
				if err != nil {
					t.Fatal(err)
				}
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
	m := newMemory(t, vectorstore.MemoryConfig{Compact: true, Workers: 4})
	vectorstore.ForceFanOut(m)
	if err := m.Upsert(bg, recs...); err != nil {
		t.Fatal(err)
	}
	for range 10 {
		q := randVec(r, 128)
		hits, err := m.Query(bg, q, 10, vectorstore.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 10 {
			t.Fatalf("%d hits", len(hits))
		}
		for i, h := range hits {
			if want := unitDot(q, h.Vector); abs(float64(h.Score)-want) > 1e-5 {
				t.Errorf("hit %s: score %v, dot product with its vector %v", h.ID, h.Score, want)
			}
			if i > 0 && h.Score > hits[i-1].Score {
				t.Errorf("hits out of order at %d", i)
			}
		}
	}
}

func abs(x float64) float64 { return max(x, -x) }

// recallAt10 returns the mean recall@10 of the compact store against exact
// search over the same records: a hit counts when its exact score is at
// least the exact tenth best, so that ties at the tenth place count for
// either store.
func recallAt10(t *testing.T, recs []vectorstore.Record, queries [][]float32) float64 {
	t.Helper()
	exact := newMemory(t, vectorstore.MemoryConfig{}, recs...)
	compact := newMemory(t, vectorstore.MemoryConfig{Compact: true}, recs...)
	var sum float64
	for _, q := range queries {
		truth, err := exact.Query(bg, q, len(recs), vectorstore.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		score := make(map[string]float32, len(truth))
		for _, h := range truth {
			score[h.ID] = h.Score
		}
		kth := truth[9].Score
		got, err := compact.Query(bg, q, 10, vectorstore.Filter{})
		if err != nil {
			t.Fatal(err)
		}
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
		if got := recallAt10(t, recs, queries); got < 0.99 {
			t.Errorf("recall@10 = %.4f, want >= 0.99", got)
		}
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
		l, _ := vectorstore.NewLexical(vectorstore.LexicalConfig{Dimension: 384})
		vecs, err := l.Embed(bg, pieces)
		if err != nil {
			t.Fatal(err)
		}
		queries, err := l.Embed(bg, texts)
		if err != nil {
			t.Fatal(err)
		}
		recs := make([]vectorstore.Record, len(vecs))
		for i, v := range vecs {
			recs[i] = vectorstore.Record{ID: fmt.Sprintf("p%05d", i), DocID: "room", Index: i, Vector: v}
		}
		if got := recallAt10(t, recs, queries); got < 0.99 {
			t.Errorf("recall@10 = %.4f over %d pieces, want >= 0.99", got, len(recs))
		}
	})
}

// TestQueryAllocs guards the allocations of a query: the hits and one slab
// for their vectors, plus one closure per goroutine when the scan is
// shared.
func TestQueryAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under -race")
	}
	r := rand.New(rand.NewPCG(19, 20))
	recs := makeRecords(r, 10, 100, 64)
	q := randVec(r, 64)
	for _, compact := range []bool{false, true} {
		for _, workers := range []int{1, 3} {
			m := newMemory(t, vectorstore.MemoryConfig{Compact: compact, Workers: workers}, recs...)
			vectorstore.ForceFanOut(m)
			allocs := testing.AllocsPerRun(50, func() {
				if _, err := m.Query(bg, q, 10, vectorstore.Filter{}); err != nil {
					t.Fatal(err)
				}
			})
			want := 2.0
			if workers > 1 {
				want += float64(workers)
			}
			if allocs > want {
				t.Errorf("compact=%v workers=%d: %v allocations per query, want at most %v", compact, workers, allocs, want)
			}
		}
	}
}
