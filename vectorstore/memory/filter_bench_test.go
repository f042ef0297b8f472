package memory_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/stretchr/testify/require"
)

// BenchmarkQueryFilter is a vector query of 100,000 records of 384
// dimensions under filters that select 0.1%, 1% and 10% of them, by a
// list of values (In) and by a numeric range, against no filter. Run it
// with -count to interleave the cases.
func BenchmarkQueryFilter(b *testing.B) {
	const n, dim = 100_000, 384
	r := rand.New(rand.NewPCG(5, 5))
	recs := make([]vectorstore.Record, n)
	for i := range recs {
		recs[i] = vectorstore.Record{
			ID: fmt.Sprintf("r%d", i), DocID: fmt.Sprintf("d%d", i/10), Index: i % 10,
			Text: "unit", Vector: randVec(r, dim),
			Metadata: map[string]string{"bucket": strconv.Itoa(r.IntN(1000)), "year": strconv.Itoa(r.IntN(1000))},
		}
	}
	m := newMemory(b, memory.Config{}, recs...)
	q := randVec(r, dim)
	buckets := func(k int) []string {
		out := make([]string, k)
		for i := range out {
			out[i] = strconv.Itoa(i)
		}
		return out
	}
	cases := []struct {
		name string
		f    vectorstore.Filter
	}{{"none", vectorstore.Filter{}}}
	for _, sel := range []struct {
		name string
		per  int // of 1,000
	}{{"0.1%", 1}, {"1%", 10}, {"10%", 100}} {
		cases = append(cases,
			struct {
				name string
				f    vectorstore.Filter
			}{"in/" + sel.name, vectorstore.Filter{Where: vectorstore.In("bucket", buckets(sel.per)...)}},
			struct {
				name string
				f    vectorstore.Filter
			}{"range/" + sel.name, vectorstore.Filter{Where: vectorstore.Between("year", 0, float64(sel.per-1))}})
	}
	for _, c := range cases {
		_, err := m.Query(bg, q, 10, c.f) // builds the metadata index once
		require.NoError(b, err)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, err := m.Query(bg, q, 10, c.f)
				require.NoError(b, err)
			}
		})
	}
}
