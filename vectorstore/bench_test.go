package vectorstore_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ragkit/ragkit/vectorstore"
)

// The package's own benchmarks, on random data; the comparison with the
// floor and with chromem-go is in the benchmarks module.

func BenchmarkUpsert(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		recs := makeRecords(rand.New(rand.NewPCG(1, 1)), n/100, 100, 384)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m, _ := vectorstore.NewMemory(vectorstore.MemoryConfig{})
				if err := m.Upsert(bg, recs...); err != nil {
					b.Fatal(err)
				}
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
			m := newMemory(b, vectorstore.MemoryConfig{Compact: compact}, recs...)
			q := randVec(r, 384)
			b.Run(fmt.Sprintf("n=%d/compact=%v", n, compact), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(n * 384 * 4))
				for b.Loop() {
					if _, err := m.Query(bg, q, 10, vectorstore.Filter{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkRange(b *testing.B) {
	m := newMemory(b, vectorstore.MemoryConfig{}, makeRecords(rand.New(rand.NewPCG(3, 3)), 100, 100, 384)...)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Range(bg, "d42", 40, 44); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLexical(b *testing.B) {
	paras := paragraphs(b, "room_with_a_view.txt", 1)
	var size int64
	for _, p := range paras {
		size += int64(len(p))
	}
	l, _ := vectorstore.NewLexical(vectorstore.LexicalConfig{})
	b.ReportAllocs()
	b.SetBytes(size)
	for b.Loop() {
		if _, err := l.Embed(bg, paras); err != nil {
			b.Fatal(err)
		}
	}
}
