package benchmarks

// Benchmarks of ragkit's chunker against langchaingo's text splitters, side
// by side in one run, with the cost of one tiktoken-go pass over the same
// text as the yardstick:
//
//	cd benchmarks && go test -run '^$' -bench 'Chunker' -benchtime 10x -count 5 . | tee /tmp/chunker.txt
//	go run golang.org/x/perf/cmd/benchstat@latest -row /corpus,/max -col /impl -filter .unit:sec/op /tmp/chunker.txt
//
// Sub-benchmarks are named corpus=/max=/impl=; tiktoken-encode is one
// EncodeOrdinary pass over the corpus, the same at every size.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/benchmarks/internal/corpus"
	"github.com/ragkit/ragkit/benchmarks/internal/peers"
	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/tmc/langchaingo/textsplitter"
)

var chunkerCorpora = []string{"room_with_a_view.txt", "romeo_and_juliet.txt", "sherlock_1661.txt", "commonmark_spec.md"}

func BenchmarkChunker(b *testing.B) {
	tk, err := peers.Tiktoken()
	if err != nil {
		b.Fatal(err)
	}
	tok, err := tokencount.Encoding("cl100k_base")
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range chunkerCorpora {
		text := corpus.MustLoad(name)
		for _, max := range []int{128, 512, 2048} {
			run := func(impl string, split func() (int, error)) {
				b.Run(fmt.Sprintf("corpus=%s/max=%d/impl=%s", name, max, impl), func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(len(text)))
					n := 0
					for b.Loop() {
						var err error
						if n, err = split(); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(n), "chunks")
				})
			}
			for _, strategy := range []chunker.Strategy{chunker.Balanced, chunker.Greedy} {
				c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: max, Format: peers.FormatOf(name), Strategy: strategy})
				if err != nil {
					b.Fatal(err)
				}
				run("ragkit-"+strings.ToLower(strategy.String()), func() (int, error) {
					chunks, err := c.Split(text)
					return len(chunks), err
				})
			}
			rec := peers.LangchainRecursive(max, tk)
			run("langchaingo-recursive", func() (int, error) {
				chunks, err := rec.SplitText(text)
				return len(chunks), err
			})
			ts := textsplitter.NewTokenSplitter(
				textsplitter.WithChunkSize(max),
				textsplitter.WithChunkOverlap(0),
				textsplitter.WithEncodingName("cl100k_base"),
			)
			run("langchaingo-token", func() (int, error) {
				chunks, err := ts.SplitText(text)
				return len(chunks), err
			})
			run("tiktoken-encode", func() (int, error) {
				return len(tk.EncodeOrdinary(text)), nil
			})
		}
	}
}

// BenchmarkChunkerLarge splits generated text of growing size: the time per
// byte stays flat, so Split is linear in time and memory.
func BenchmarkChunkerLarge(b *testing.B) {
	tok, err := tokencount.Encoding("cl100k_base")
	if err != nil {
		b.Fatal(err)
	}
	for _, mb := range []int{1, 10, 50} {
		text := chunkerGenerated(mb << 20)
		for _, max := range []int{128, 512} {
			c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: max})
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("size=%dMB/max=%d", mb, max), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					if _, err := c.Split(text); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// chunkerGenerated returns about n bytes of English-like text in chapters,
// paragraphs and sentences of varied length, built from the corpora's
// sentences so that it tokenizes like prose.
func chunkerGenerated(n int) string {
	src := strings.Fields(corpus.MustLoad("room_with_a_view.txt"))
	var b strings.Builder
	b.Grow(n + 1024)
	for i, w := 0, 0; b.Len() < n; i++ {
		switch {
		case i%400 == 0:
			fmt.Fprintf(&b, "\n\n\nChapter %d\n\n", i/400)
		case i%9 == 0:
			b.WriteString("\n\n")
		}
		words := 5 + (i*13)%35
		for k := 0; k < words; k++ {
			if k > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(src[w%len(src)])
			w += 7
		}
		b.WriteString(". ")
	}
	return b.String()
}
