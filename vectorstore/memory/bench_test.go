package memory_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ragkit/ragkit/internal/testcorpus"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/stretchr/testify/require"
)

// The package's own benchmarks, on random data; the comparison with the
// floor and with chromem-go is in the benchmarks module.

func BenchmarkUpsert(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		recs := makeRecords(rand.New(rand.NewPCG(1, 1)), n/100, 100, 384)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var m memory.Store
				require.NoError(b, m.Upsert(bg, recs...))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/record")
		})
	}
}

func BenchmarkQuery(b *testing.B) {
	r := rand.New(rand.NewPCG(2, 2))
	for _, n := range []int{1000, 10000} {
		recs := makeRecords(r, n/100, 100, 384)
		for _, compact := range []bool{false, true} {
			m := newMemory(b, memory.Config{Compact: compact}, recs...)
			q := randVec(r, 384)
			b.Run(fmt.Sprintf("n=%d/compact=%v", n, compact), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(n * 384 * 4))
				for b.Loop() {
					_, err := m.Query(bg, q, 10, vectorstore.Filter{})
					require.NoError(b, err)
				}
			})
		}
	}
}

// BenchmarkRange reads a sentence window (5 units) and a whole document
// (100 units), at 384 and 1,536 dimensions.
func BenchmarkRange(b *testing.B) {
	for _, dim := range []int{384, 1536} {
		m := newMemory(b, memory.Config{}, makeRecords(rand.New(rand.NewPCG(3, 3)), 100, 100, dim)...)
		for _, units := range []int{5, 100} {
			from := 50 - units/2
			for _, method := range []struct {
				name string
				call func(ctx context.Context, docID string, from, to int) ([]vectorstore.Record, error)
			}{{"Range", m.Range}} {
				b.Run(fmt.Sprintf("dim=%d/units=%d/%s", dim, units, method.name), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						recs, err := method.call(bg, "d42", from, from+units-1)
						require.NoError(b, err)
						require.Len(b, recs, units)
					}
				})
			}
		}
	}
}

func BenchmarkLexical(b *testing.B) {
	paras := testcorpus.Paragraphs(b, "room_with_a_view.txt", 1)
	var size int64
	for _, p := range paras {
		size += int64(len(p))
	}
	var l lexical.Embedder
	b.ReportAllocs()
	b.SetBytes(size)
	for b.Loop() {
		_, err := l.Embed(bg, paras)
		require.NoError(b, err)
	}
}

// BenchmarkQueryDocIDs is a filter by many documents, as an access-control
// list makes: a store of 50,000 one-record documents, a filter naming a
// share of them (none: no filter, for comparison).
func BenchmarkQueryDocIDs(b *testing.B) {
	const n, dim = 50_000, 128
	r := rand.New(rand.NewPCG(4, 4))
	m := newMemory(b, memory.Config{}, makeRecords(r, n, 1, dim)...)
	q := randVec(r, dim)
	for _, ids := range []int{0, 5_000, 20_000, 50_000} {
		f := vectorstore.Filter{}
		for _, d := range r.Perm(n)[:ids] {
			f.DocIDs = append(f.DocIDs, fmt.Sprintf("d%d", d))
		}
		b.Run(fmt.Sprintf("ids=%d", ids), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, err := m.Query(bg, q, 10, f)
				require.NoError(b, err)
			}
		})
	}
}
