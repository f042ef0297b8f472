package tokencount

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

func BenchmarkCount(b *testing.B) {
	for _, corpus := range []string{"room_with_a_view.txt", "romeo_and_juliet.txt", "sherlock_1661.txt", "commonmark_spec.md", "hashbrown_set_rs.txt"} {
		text := readCorpus(b, corpus)
		for _, name := range []string{Cl100kBase, O200kBase} {
			enc, err := encoding(name)
			require.NoError(b, err)
			b.Run(corpus+"/"+name, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				for b.Loop() {
					enc.Count(text)
				}
			})
		}
	}
}

// BenchmarkCountShapes counts the degenerate shapes, each one enormous
// piece or a run of pieces no natural text has, at growing sizes: the
// throughput must stay flat as the size grows, and the allocations must
// not grow with it. The 10 MiB inputs take one or a few iterations; run
// with -benchtime 3x.
func BenchmarkCountShapes(b *testing.B) {
	benchShapes(b, func(enc *BPE, text string) { enc.Count(text) })
}

// BenchmarkTokenEndsShapes is BenchmarkCountShapes for AppendTokenEnds,
// into a slice reused across iterations.
func BenchmarkTokenEndsShapes(b *testing.B) {
	var ends []int
	benchShapes(b, func(enc *BPE, text string) { ends = enc.AppendTokenEnds(ends[:0], text) })
}

func benchShapes(b *testing.B, run func(enc *BPE, text string)) {
	for _, name := range []string{Cl100kBase, O200kBase} {
		enc, err := encoding(name)
		require.NoError(b, err)
		for _, s := range shapes {
			for _, size := range []int{64 << 10, 1 << 20, 10 << 20} {
				b.Run(fmt.Sprintf("%s/%s/%s", name, s.Name, sizeName(size)), func(b *testing.B) {
					text := s.Make(size)
					run(enc, text) // warm, and size the reused slice
					b.SetBytes(int64(len(text)))
					b.ReportAllocs()
					for b.Loop() {
						run(enc, text)
					}
				})
			}
		}
	}
}

func sizeName(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%dMiB", n>>20)
	}
	return fmt.Sprintf("%dKiB", n>>10)
}

// BenchmarkBuild measures building each encoding's tables from the
// embedded vocabulary, what the first call to Encoding pays.
func BenchmarkBuild(b *testing.B) {
	for _, name := range Encodings() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := newBPE(specs[name]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
