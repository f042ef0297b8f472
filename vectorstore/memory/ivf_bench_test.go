package memory_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/stretchr/testify/require"
)

// BenchmarkQueryIndex times a query of the IVF index at several widths
// beside the exact compact scan, on the clustered test set; SetBytes is
// the store's codes, so that MB/s compares with BenchmarkQuery's. The
// command benchmarks/cmd/annbench measures recall and larger stores.
func BenchmarkQueryIndex(b *testing.B) {
	const n, dim = 20_000, 64
	r := rand.New(rand.NewPCG(6, 6))
	vecs := clustered(r, n+1, dim, testClusters, testSpread)
	recs := annRecords(r, vecs[:n])
	q := vecs[n]
	exact, ann := pair(b, true, memory.IndexConfig{IVF: true}, recs)
	run := func(name string, m *memory.Store) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(n * dim))
			for b.Loop() {
				_, err := m.Query(bg, q, 10, vectorstore.Filter{})
				require.NoError(b, err)
			}
		})
	}
	run("exact", exact)
	for _, p := range []int{4, 16, memory.DefaultProbes} {
		require.NoError(b, ann.SetProbes(p))
		run(fmt.Sprintf("probes=%d", p), ann)
	}
}
