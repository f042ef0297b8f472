package benchmarks

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/ragkit/ragkit/benchmarks/cmd/vsbench/harness"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// vsCache holds the data set and stores of the size being benchmarked, so
// each is built once and shared by the sub-benchmarks of that size.
var vsCache harness.Cache

// BenchmarkVectorQuery compares, on the same random unit vectors and k=10:
// the floor, an exact search written in harness independently of the store
// (with an unrolled loop, and with the naive loop as floor-naive), ragkit's Memory store (float32 and compact) and chromem-go's
// QueryEmbedding. SetBytes is the float32 size of the data, so MB/s is
// comparable across engines. Run with -benchtime=20x or so for the largest
// sizes; cmd/vsbench prints the same comparison as a table.
func BenchmarkVectorQuery(b *testing.B) {
	ctx := context.Background()
	for _, n := range harness.Sizes {
		for _, dim := range harness.Dims {
			b.Run(harness.Name(n, dim), func(b *testing.B) {
				d := vsCache.Dataset(n, dim)
				run := func(name string, query func(q []float32)) {
					b.Run(name, func(b *testing.B) {
						b.ReportAllocs()
						b.SetBytes(int64(n * dim * 4))
						i := 0
						for b.Loop() {
							query(d.Queries[i%len(d.Queries)])
							i++
						}
					})
				}
				run("floor", harness.NewFloor(d, true).Run)
				run("floor-naive", harness.NewFloor(d, false).Run)
				for _, compact := range []bool{false, true} {
					m := vsCache.Memory(n, dim, compact)
					name := map[bool]string{false: "ragkit", true: "ragkit-compact"}[compact]
					run(name, func(q []float32) {
						if _, err := m.Query(ctx, q, harness.K, vectorstore.Filter{}); err != nil {
							b.Fatal(err)
						}
					})
				}
				c := vsCache.Chromem(n, dim)
				run("chromem", func(q []float32) {
					if _, err := c.QueryEmbedding(ctx, q, harness.K, nil, nil); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
}

// BenchmarkVectorUpsert builds stores of 384-dimensional records, in one
// Upsert call and one record per call; ns/record should not grow with the
// size of the store.
func BenchmarkVectorUpsert(b *testing.B) {
	ctx := context.Background()
	for _, n := range harness.Sizes {
		recs := harness.Random(n, 384).Records()
		for _, mode := range []string{"batch", "single"} {
			b.Run(fmt.Sprintf("%s/%s", harness.Name(n, 384), mode), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					m, _ := memory.New(memory.Config{})
					if mode == "batch" {
						m.Upsert(ctx, recs...)
						continue
					}
					for _, r := range recs {
						m.Upsert(ctx, r)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/record")
			})
		}
	}
}

// TestVectorStoresAgree checks that the engines compared above answer the
// same: ragkit's exact search, the floor and chromem-go find the same ten
// records, and the compact store finds (nearly) the same.
func TestVectorStoresAgree(t *testing.T) {
	ctx := context.Background()
	d := harness.Random(2000, 96)
	exact, compact, c := harness.NewMemory(d, false), harness.NewMemory(d, true), harness.NewChromem(d)
	floors := []*harness.Floor{harness.NewFloor(d, true), harness.NewFloor(d, false)}
	for _, q := range d.Queries[:16] {
		hits, err := exact.Query(ctx, q, harness.K, vectorstore.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.QueryEmbedding(ctx, q, harness.K, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		var want, got []string
		for i := range hits {
			got = append(got, hits[i].ID)
			want = append(want, res[i].ID)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("ragkit %v, chromem %v", got, want)
		}
		for _, f := range floors {
			f.Run(q)
			var floor []string
			for _, i := range f.Top() {
				floor = append(floor, d.IDs[i])
			}
			slices.Sort(floor)
			if !slices.Equal(got, floor) {
				t.Fatalf("ragkit %v, floor %v", got, floor)
			}
		}
	}
	r, err := harness.Recall(d, exact, compact)
	if err != nil {
		t.Fatal(err)
	}
	if r < 0.97 {
		t.Errorf("compact recall@10 = %.3f", r)
	}
}
