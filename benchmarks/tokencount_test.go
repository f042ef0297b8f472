package benchmarks

import (
	"fmt"
	"testing"

	"github.com/ragkit/ragkit/benchmarks/internal/corpus"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/tiktoken"
	"github.com/tiktoken-go/tokenizer"
)

var tokencountCorpora = []string{"room_with_a_view.txt", "sherlock_1661.txt", "commonmark_spec.md"}

// BenchmarkCount compares ragkit's exact Count with tiktoken-go's
// EncodeOrdinary and github.com/tiktoken-go/tokenizer's Count, warm: each
// runs over the same text repeatedly, so ragkit's piece cache is filled by
// earlier iterations. Cold (first pass in a fresh process) figures come
// from cmd/coldcount.
func BenchmarkCount(b *testing.B) {
	for _, name := range tokencountCorpora {
		text := corpus.MustLoad(name)
		for _, enc := range []string{tokencount.Cl100kBase, tokencount.O200kBase} {
			ragkit, err := tokencount.Encoding(enc)
			if err != nil {
				b.Fatal(err)
			}
			want := ragkit.Count(text)
			tk, err := tiktoken.Encoding(enc) // github.com/pkoukk/tiktoken-go, offline
			if err != nil {
				b.Fatal(err)
			}
			codec, err := tokenizer.Get(tokenizer.Encoding(enc))
			if err != nil {
				b.Fatal(err)
			}
			run := func(impl string, count func(string) int) {
				b.Run(fmt.Sprintf("%s/%s/%s", name, enc, impl), func(b *testing.B) {
					if got := count(text); got != want {
						b.Logf("%s counts %d tokens, ragkit %d", impl, got, want)
					}
					b.SetBytes(int64(len(text)))
					b.ReportAllocs()
					for b.Loop() {
						count(text)
					}
				})
			}
			run("ragkit", ragkit.Count)
			run("tiktoken-go", tk.Count) // len(EncodeOrdinary(s))
			run("tiktoken-go-tokenizer", func(s string) int { n, _ := codec.Count(s); return n })
		}
	}
}

// BenchmarkCountParallel counts from GOMAXPROCS goroutines at once with
// one shared Tokenizer.
func BenchmarkCountParallel(b *testing.B) {
	for _, name := range tokencountCorpora {
		text := corpus.MustLoad(name)
		for _, enc := range []string{tokencount.Cl100kBase, tokencount.O200kBase} {
			ragkit, err := tokencount.Encoding(enc)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(name+"/"+enc, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						ragkit.Count(text)
					}
				})
			})
		}
	}
}

// BenchmarkTokenEnds measures the single pass the chunker sizes chunks with.
func BenchmarkTokenEnds(b *testing.B) {
	for _, name := range tokencountCorpora {
		text := corpus.MustLoad(name)
		enc, err := tokencount.Encoding(tokencount.Cl100kBase)
		if err != nil {
			b.Fatal(err)
		}
		o := enc.(tokencount.Offsetter)
		ends := o.AppendTokenEnds(nil, text)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				ends = o.AppendTokenEnds(ends[:0], text)
			}
		})
	}
}

// BenchmarkHeuristic measures the vocabulary-free estimate.
func BenchmarkHeuristic(b *testing.B) {
	for _, name := range tokencountCorpora {
		text := corpus.MustLoad(name)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				tokencount.Heuristic{}.Count(text)
			}
		})
	}
}
