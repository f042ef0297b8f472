package chunker_test

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
)

// BenchmarkSplitShort splits texts around the size of one chunk: those that
// fit are counted once, with no planning; the Count sub-benchmark is the
// floor.
func BenchmarkSplitShort(b *testing.B) {
	tok := cl100k(b)
	room := corpus(b, "room_with_a_view.txt")
	for _, n := range []int{600, 1800, 4000} {
		text := room[20000 : 20000+n]
		b.Run(fmt.Sprintf("bytes=%d/impl=Split", n), func(b *testing.B) {
			c := mustNew(b, chunker.Config{Tokenizer: tok, MaxTokens: 512})
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Split(text); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("bytes=%d/impl=Count", n), func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				tok.Count(text)
			}
		})
	}
}

// BenchmarkSplitShapes splits, at 1x and 4x the size, texts of the shapes
// that once made Split super-linear: line breaks that are all bare
// carriage returns (old Mac files, some exports), in plain text and
// Markdown, and MaxTokens 1. The time and bytes per byte should stay flat
// from 1x to 4x.
func BenchmarkSplitShapes(b *testing.B) {
	tok := cl100k(b)
	sherlock := corpus(b, "sherlock_1661.txt")
	cr := strings.ReplaceAll(sherlock, "\n", "\r")
	for _, tc := range []struct {
		name string
		text string
		cfg  chunker.Config
	}{
		{"CR/Text", cr, chunker.Config{MaxTokens: 128}},
		{"CR/Markdown", cr, chunker.Config{MaxTokens: 128, Format: document.Markdown}},
		{"max=1", sherlock, chunker.Config{MaxTokens: 1}},
	} {
		for _, n := range []int{150_000, 600_000} {
			text := tc.text[:n]
			b.Run(fmt.Sprintf("%s/bytes=%d", tc.name, n), func(b *testing.B) {
				tc.cfg.Tokenizer = tok
				c := mustNew(b, tc.cfg)
				b.SetBytes(int64(n))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := c.Split(text); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkSplitVsCount times Split against one Count of the same text,
// warm, in interleaved rounds (a Count, then a Split, each round), by the
// process's CPU time on Linux (a loaded machine inflates wall time), and
// reports the ratio of the two per round as min, median and max: the
// cost of chunking in units of tokenizing the text once. It also reports
// the median CPU milliseconds of each, since a faster Count raises the
// ratio of an unchanged Split.
func BenchmarkSplitVsCount(b *testing.B) {
	for _, name := range []string{"room_with_a_view.txt", "romeo_and_juliet.txt", "sherlock_1661.txt", "commonmark_spec.md"} {
		text := corpus(b, name)
		for _, enc := range []string{tokencount.Cl100kBase, tokencount.O200kBase} {
			tok, err := tokencount.Encoding(enc)
			if err != nil {
				b.Fatal(err)
			}
			splitVsCount(b, tok, enc, name, text)
		}
	}
}

// splitVsCount runs BenchmarkSplitVsCount's rounds for one text and
// encoding.
func splitVsCount(b *testing.B, tok tokencount.Tokenizer, enc, name, text string) {
	for _, format := range []document.Format{document.Text, document.Markdown} {
		for _, max := range []int{128, 512} {
			b.Run(fmt.Sprintf("%s/%s/%v/max=%d", name, enc, format, max), func(b *testing.B) {
				c := mustNew(b, chunker.Config{Tokenizer: tok, MaxTokens: max, Format: format})
				if _, err := c.Split(text); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				var ratios, counts, splits []float64
				for b.Loop() {
					t0 := cpuTime()
					tok.Count(text)
					t1 := cpuTime()
					if _, err := c.Split(text); err != nil {
						b.Fatal(err)
					}
					t2 := cpuTime()
					ratios = append(ratios, float64(t2-t1)/float64(t1-t0))
					counts, splits = append(counts, float64(t1-t0)/1e6), append(splits, float64(t2-t1)/1e6)
				}
				slices.Sort(ratios)
				slices.Sort(counts)
				slices.Sort(splits)
				b.ReportMetric(ratios[0], "min-ratio")
				b.ReportMetric(ratios[len(ratios)/2], "med-ratio")
				b.ReportMetric(ratios[len(ratios)-1], "max-ratio")
				b.ReportMetric(counts[len(counts)/2], "count-ms")
				b.ReportMetric(splits[len(splits)/2], "split-ms")
			})
		}
	}
}

// BenchmarkSplitFloor times, in interleaved rounds of process CPU time,
// the two passes over the whole text that any Split makes, against one
// Count: tokenizing with token ends (tokencount.AppendTokenEnds) and
// segmenting each paragraph into sentences (segment.AppendSentences over
// the text cut at blank lines, as the chunker's prose blocks roughly
// are). Their sum is the floor under BenchmarkSplitVsCount's ratio before
// any planning; each is reported as a ratio to Count (min, median, max).
func BenchmarkSplitFloor(b *testing.B) {
	tok := cl100k(b)
	for _, name := range []string{"room_with_a_view.txt", "sherlock_1661.txt", "commonmark_spec.md"} {
		text := corpus(b, name)
		paras := strings.Split(text, "\n\n")
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			var ends []int
			var spans []segment.Span
			var tokens, sentences []float64
			tok.Count(text)
			for b.Loop() {
				t0 := cpuTime()
				tok.Count(text)
				t1 := cpuTime()
				ends = tokencount.AppendTokenEnds(tok, ends[:0], text)
				t2 := cpuTime()
				for _, p := range paras {
					spans = segment.AppendSentences(spans[:0], p)
				}
				t3 := cpuTime()
				tokens = append(tokens, float64(t2-t1)/float64(t1-t0))
				sentences = append(sentences, float64(t3-t2)/float64(t1-t0))
			}
			for _, m := range []struct {
				unit string
				r    []float64
			}{{"tokens", tokens}, {"sentences", sentences}} {
				slices.Sort(m.r)
				b.ReportMetric(m.r[0], "min-"+m.unit)
				b.ReportMetric(m.r[len(m.r)/2], "med-"+m.unit)
				b.ReportMetric(m.r[len(m.r)-1], "max-"+m.unit)
			}
		})
	}
}

// BenchmarkSplitGrowth splits a novel repeated 1, 4 and 16 times at 128
// tokens: the bytes allocated per byte of text (B/op over the text's
// length) should stay flat as the text grows.
func BenchmarkSplitGrowth(b *testing.B) {
	tok := cl100k(b)
	room := corpus(b, "room_with_a_view.txt")
	for _, times := range []int{1, 4, 16} {
		text := strings.Repeat(room+"\n\n", times)
		b.Run(fmt.Sprintf("x%d", times), func(b *testing.B) {
			c := mustNew(b, chunker.Config{Tokenizer: tok, MaxTokens: 128})
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			var allocated uint64
			var ms runtime.MemStats
			for b.Loop() {
				runtime.ReadMemStats(&ms)
				before := ms.TotalAlloc
				if _, err := c.Split(text); err != nil {
					b.Fatal(err)
				}
				runtime.ReadMemStats(&ms)
				allocated += ms.TotalAlloc - before
			}
			b.ReportMetric(float64(allocated)/float64(b.N)/float64(len(text)), "B/byte")
		})
	}
}
