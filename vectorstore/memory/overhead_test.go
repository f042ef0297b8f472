package memory

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/internal/kernel"
	"github.com/stretchr/testify/require"
)

// BenchmarkQueryOverhead measures what Query adds to a bare pass over the
// same slab with the same dot product: as many goroutines as Query uses,
// each over a contiguous share, keeping a sorted top 10, merged by the
// caller. Each iteration times a bare pass and a query, in turn, on the
// same query vector; the metrics are the medians of each and of their
// ratio, which a busy machine disturbs much less than the means. The store
// of 16 vectors shows the fixed cost alone.
func BenchmarkQueryOverhead(b *testing.B) {
	for _, n := range []int{16, 1000, 10_000, 100_000} {
		const dim = 384
		m, queries := overheadStore(b, n, dim)
		flat := slices.Concat(m.st.vecs.chunks...) // the bare pass's one slab
		tops := make([][10]kernel.Candidate, m.workersFor(n))
		merged := make([]kernel.Candidate, 10*len(tops))
		for _, method := range []struct {
			name  string
			query func(context.Context, []float32, int, vectorstore.Filter) ([]vectorstore.Hit, error)
		}{{"Query", m.Query}} {
			b.Run(fmt.Sprintf("n=%d/dim=%d/%s", n, dim, method.name), func(b *testing.B) {
				var bare, query, ratio []float64
				i := 0
				for b.Loop() {
					q := queries[i%len(queries)]
					i++
					t0 := time.Now()
					barePass(flat, dim, q, tops, merged)
					t1 := time.Now()
					_, err := method.query(context.Background(), q, 10, vectorstore.Filter{})
					t2 := time.Now()
					require.NoError(b, err)
					bare = append(bare, float64(t1.Sub(t0)))
					query = append(query, float64(t2.Sub(t1)))
					ratio = append(ratio, float64(t2.Sub(t1))/float64(t1.Sub(t0)))
				}
				b.ReportMetric(median(bare), "bare-ns")
				b.ReportMetric(median(query), "query-ns")
				b.ReportMetric(median(query)-median(bare), "overhead-ns")
				b.ReportMetric(median(ratio), "query/bare")
			})
		}
	}
}

func overheadStore(b *testing.B, n, dim int) (*Store, [][]float32) {
	r := rand.New(rand.NewPCG(uint64(n), uint64(dim)))
	recs := make([]vectorstore.Record, n)
	for i := range recs {
		v := make([]float32, dim)
		for j := range v {
			v[j] = float32(r.NormFloat64())
		}
		recs[i] = vectorstore.Record{ID: fmt.Sprintf("u%07d", i), DocID: fmt.Sprintf("doc%05d", i/100), Index: i % 100, Vector: v}
	}
	m, err := New(Config{})
	require.NoError(b, err)
	require.NoError(b, m.Upsert(context.Background(), recs...))
	queries := make([][]float32, 64)
	for i := range queries {
		queries[i] = make([]float32, dim)
		for j := range queries[i] {
			queries[i][j] = float32(r.NormFloat64())
		}
		kernel.Normalize(queries[i])
	}
	return m, queries
}

// barePass scores every vector of vecs against q on len(tops) goroutines
// (on the caller, if one), each keeping a sorted top 10 of its contiguous
// share in tops[w], and merges them into merged, best first.
func barePass(vecs []float32, dim int, q []float32, tops [][10]kernel.Candidate, merged []kernel.Candidate) {
	n, workers := len(vecs)/dim, len(tops)
	share := func(w int) {
		top, k := &tops[w], 0
		for i := w * n / workers; i < (w+1)*n/workers; i++ {
			s := kernel.Dot(q, vecs[i*dim:(i+1)*dim])
			if k == len(top) && s <= top[k-1].Score {
				continue
			}
			k = min(k+1, len(top))
			j := k - 1
			for ; j > 0 && top[j-1].Score < s; j-- {
				top[j] = top[j-1]
			}
			top[j] = kernel.Candidate{Score: s, Slot: int32(i)}
		}
	}
	if workers == 1 {
		share(0)
		copy(merged, tops[0][:])
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			share(w)
		}()
	}
	wg.Wait()
	merged = merged[:0]
	for w := range tops {
		merged = append(merged, tops[w][:]...)
	}
	slices.SortFunc(merged, func(a, b kernel.Candidate) int { return cmp.Compare(b.Score, a.Score) })
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	x = slices.Clone(x)
	slices.Sort(x)
	return x[len(x)/2]
}
