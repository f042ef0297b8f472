package pgvector_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/vectorstore/pgvector"
	"github.com/stretchr/testify/require"
)

// The throughput of the issue: 10,000 records upserted, 100 queries, with
// Memory beside the server for the ratio. The server is whatever
// RAGKIT_PGVECTOR_URL names; say which when quoting figures. The table
// has no HNSW index: building one record by record is slow on PGlite
// (PostgreSQL in WebAssembly), and the exact scan is what is compared.
const (
	benchRecords = 10000
	benchQueries = 100
	benchDim     = 384
)

// benchStores returns the stores to compare, empty.
func benchStores(b *testing.B) map[string]func() vectorstore.VectorStore {
	return map[string]func() vectorstore.VectorStore{
		"store=memory": func() vectorstore.VectorStore { return new(memory.Store) },
		"store=pgvector": func() vectorstore.VectorStore {
			return newStore(b, pgvector.Config{Dimension: benchDim})
		},
	}
}

// BenchmarkUpsert upserts 10,000 records into an empty store per
// iteration (the store's table emptied between iterations).
func BenchmarkUpsert(b *testing.B) {
	recs := randomRecords(rand.New(rand.NewPCG(1, 2)), benchRecords, benchDim)
	for _, name := range []string{"store=memory", "store=pgvector"} {
		b.Run(name, func(b *testing.B) {
			st := benchStores(b)[name]()
			b.ReportAllocs()
			b.SetBytes(int64(benchRecords * benchDim * 4))
			for b.Loop() {
				b.StopTimer()
				for d := range benchRecords / 50 {
					require.NoError(b, st.DeleteDocument(bg, recs[d*50].DocID))
				}
				b.StartTimer()
				require.NoError(b, st.Upsert(bg, recs...))
			}
			b.ReportMetric(float64(benchRecords*b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}

// BenchmarkQuery runs 100 queries (k = 10) per iteration against 10,000
// records.
func BenchmarkQuery(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	recs := randomRecords(r, benchRecords, benchDim)
	queries := make([][]float32, benchQueries)
	for i := range queries {
		queries[i] = randVec(r, benchDim)
	}
	for _, name := range []string{"store=memory", "store=pgvector"} {
		b.Run(name, func(b *testing.B) {
			st := benchStores(b)[name]()
			require.NoError(b, st.Upsert(bg, recs...))
			b.ReportAllocs()
			for b.Loop() {
				for _, q := range queries {
					if _, err := st.Query(bg, q, 10, vectorstore.Filter{}); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(benchQueries*b.N)/b.Elapsed().Seconds(), "queries/s")
		})
	}
}

// BenchmarkQueryFilter is a vector query (k = 10) of 10,000 records
// under filters that select 0.1%, 1% and 10% of them, by a list of
// values (In, JSONB containments served by the GIN index) and by a
// numeric range (a guarded cast per row), against no filter. Run it with
// -count to interleave the cases.
func BenchmarkQueryFilter(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	recs := randomRecords(r, benchRecords, benchDim)
	for i := range recs {
		recs[i].Metadata = map[string]string{"bucket": strconv.Itoa(r.IntN(1000)), "year": strconv.Itoa(r.IntN(1000))}
	}
	table := fmt.Sprintf("ragkit_bench_%d", os.Getpid())
	st := newStore(b, pgvector.Config{Dimension: benchDim, Table: table})
	require.NoError(b, st.Upsert(bg, recs...))
	_, err := testPool(b).Exec(bg, "ANALYZE "+pgx.Identifier{table}.Sanitize())
	require.NoError(b, err)
	q := randVec(r, benchDim)
	buckets := func(k int) []string {
		out := make([]string, k)
		for i := range out {
			out[i] = strconv.Itoa(i)
		}
		return out
	}
	type filterCase struct {
		name string
		f    vectorstore.Filter
	}
	cases := []filterCase{{"none", vectorstore.Filter{}}}
	for _, sel := range []struct {
		name string
		per  int // of 1,000
	}{{"0.1%", 1}, {"1%", 10}, {"10%", 100}} {
		cases = append(cases,
			filterCase{"in/" + sel.name, vectorstore.Filter{Where: vectorstore.In("bucket", buckets(sel.per)...)}},
			filterCase{"range/" + sel.name, vectorstore.Filter{Where: vectorstore.Between("year", 0, float64(sel.per-1))}})
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, err := st.Query(bg, q, 10, c.f)
				require.NoError(b, err)
			}
		})
	}
}
