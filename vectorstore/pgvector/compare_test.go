package pgvector_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/vectorstore/pgvector"
	"github.com/stretchr/testify/require"
)

func randVec(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// randomRecords returns n records of dim random components, spread over
// documents of 50, with a metadata label of three values.
func randomRecords(r *rand.Rand, n, dim int) []vectorstore.Record {
	recs := make([]vectorstore.Record, n)
	for i := range recs {
		recs[i] = vectorstore.Record{
			ID: fmt.Sprintf("r%05d", i), DocID: fmt.Sprintf("doc%03d", i/50), Index: i % 50,
			Start: 100 * (i % 50), End: 100*(i%50) + 99, Text: fmt.Sprintf("unit %d", i),
			Vector: randVec(r, dim), Metadata: map[string]string{"shard": fmt.Sprint(i % 3)},
		}
	}
	return recs
}

// TestMatchesMemory checks that an exact scan in PostgreSQL finds the
// same top 10 as Memory for 200 random queries over 5,000 records, with
// and without a filter. Records whose scores differ by float32 rounding
// only may trade places at the tenth rank.
func TestMatchesMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("5,000 records: not in -short")
	}
	const n, dim, queries, k = 5000, 64, 200, 10
	r := rand.New(rand.NewPCG(19, 5000))
	recs := randomRecords(r, n, dim)
	pg := newStore(t, pgvector.Config{Dimension: dim})
	require.NoError(t, pg.Upsert(bg, recs...))
	var mem memory.Store
	require.NoError(t, mem.Upsert(bg, recs...))
	same := 0
	for i := range queries {
		q := randVec(r, dim)
		var f vectorstore.Filter
		if i%2 == 1 {
			f.Metadata = map[string]string{"shard": fmt.Sprint(i % 3)}
		}
		want, err := mem.Query(bg, q, k+1, f)
		require.NoError(t, err)
		got, err := pg.Query(bg, q, k, f)
		require.NoError(t, err)
		require.Len(t, got, k)
		if equalIDs(got, want[:k]) {
			same++
			continue
		}
		// Only a near-tie at the last rank may differ.
		require.InDelta(t, want[k-1].Score, want[k].Score, 1e-5, "query %d: top %d differ: %v, want %v", i, k, hitIDs(got), hitIDs(want[:k]))
		require.Equal(t, hitIDs(want[:k-1]), hitIDs(got[:k-1]), "query %d", i)
	}
	t.Logf("%d of %d queries: the same top %d IDs in the same order", same, queries, k)
}

func equalIDs(a, b []vectorstore.Hit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID {
			return false
		}
	}
	return true
}

func hitIDs(hits []vectorstore.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}
