package memory_test

import (
	"context"
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// TestQueryHugeK is a regression test: a query's k sized its heap before
// anything bounded it by the store, so QueryKeywords with k = 2^28 on a
// two-record store allocated gigabytes, and k = math.MaxInt panicked.
// Every query now allocates by what the store holds, whatever k is.
func TestQueryHugeK(t *testing.T) {
	ctx := context.Background()
	m, err := memory.New(memory.Config{})
	require.NoError(t, err)
	require.NoError(t, m.Upsert(ctx,
		vectorstore.Record{ID: "a", DocID: "d", Text: "red apple", Vector: []float32{1, 0}},
		vectorstore.Record{ID: "b", DocID: "d", Index: 1, Text: "green apple", Vector: []float32{0, 1}}))
	queries := map[string]func(k int) ([]vectorstore.Hit, error){
		"Query": func(k int) ([]vectorstore.Hit, error) {
			return m.Query(ctx, []float32{1, 1}, k, vectorstore.Filter{})
		},
		"QueryKeywords": func(k int) ([]vectorstore.Hit, error) {
			return m.QueryKeywords(ctx, "apple", k, vectorstore.Filter{})
		},
		"QueryKeywords filtered": func(k int) ([]vectorstore.Hit, error) {
			return m.QueryKeywords(ctx, "apple", k, vectorstore.Filter{DocIDs: []string{"d"}})
		},
	}
	for name, query := range queries {
		for _, k := range []int{1 << 28, math.MaxInt} {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			hits, err := query(k)
			runtime.ReadMemStats(&after)
			require.NoError(t, err, "%s, k = %d", name, k)
			require.Len(t, hits, 2, "%s, k = %d", name, k)
			require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "%s, k = %d: bytes allocated", name, k)
		}
	}
}
