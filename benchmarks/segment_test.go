package benchmarks

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ragkit/ragkit/benchmarks/internal/corpus"
	"github.com/ragkit/ragkit/benchmarks/internal/peers"
	"github.com/ragkit/ragkit/segment"
)

// The segment benchmarks run ragkit's segment package and its peers over the
// same texts in one run: github.com/neurosnap/sentences (the English Punkt
// tokenizer) and github.com/rivo/uniseg (Unicode sentence and word
// boundaries). One-time build costs (neurosnap's tokenizer, ragkit's lazily
// decoded Punkt data) are paid before the timer starts.
//
//	cd benchmarks
//	go test -run '^$' -bench 'Segment' -count 6 . | tee seg.txt
//	go run golang.org/x/perf/cmd/benchstat@latest -col /impl seg.txt

var segCorpora = []string{"room_with_a_view.txt", "sherlock_1661.txt", "romeo_and_juliet.txt", "commonmark_spec.md"}

// segTexts returns the texts to run: each corpus whole and its first 4 KiB,
// a document of the size a RAG pipeline often sees.
func segTexts() []struct{ name, text string } {
	var out []struct{ name, text string }
	for _, name := range segCorpora {
		text := corpus.MustLoad(name)
		short := text[:4096]
		for !utf8.ValidString(short) {
			short = short[:len(short)-1]
		}
		base := strings.TrimSuffix(strings.TrimSuffix(name, ".txt"), ".md")
		out = append(out,
			struct{ name, text string }{fmt.Sprintf("corpus=%s/size=all", base), text},
			struct{ name, text string }{fmt.Sprintf("corpus=%s/size=4KiB", base), short})
	}
	return out
}

// benchAppend times an Append function of the segment package, reusing
// its buffer as a caller processing many documents would.
func benchAppend(b *testing.B, text string, f func([]segment.Span, string) []segment.Span) {
	dst := f(nil, text)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		dst = f(dst[:0], text)
	}
	b.ReportMetric(float64(len(dst)), "spans")
}

// benchCount times a peer that returns how many units it found.
func benchCount(b *testing.B, text string, f func(string) int) {
	var n int
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		n = f(text)
	}
	b.ReportMetric(float64(n), "spans")
}

func BenchmarkSegmentSentences(b *testing.B) {
	segment.Sentences("Warm up.") // decode the Punkt data outside the timer
	punkt, err := peers.Punkt()
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range segTexts() {
		b.Run(tc.name+"/impl=ragkit", func(b *testing.B) {
			// The plain call: one allocation for the result.
			benchCount(b, tc.text, func(text string) int { return len(segment.Sentences(text)) })
		})
		b.Run(tc.name+"/impl=ragkit-append", func(b *testing.B) { benchAppend(b, tc.text, segment.AppendSentences) })
		b.Run(tc.name+"/impl=neurosnap", func(b *testing.B) {
			benchCount(b, tc.text, func(text string) int { return len(punkt.Tokenize(text)) })
		})
		b.Run(tc.name+"/impl=uniseg", func(b *testing.B) { benchCount(b, tc.text, peers.UnisegSentences) })
	}
}

// Spans of whitespace-only segments are counted by uniseg and dropped by
// ragkit, so the span counts of the two differ.

func BenchmarkSegmentWords(b *testing.B) {
	for _, tc := range segTexts() {
		b.Run(tc.name+"/impl=ragkit", func(b *testing.B) { benchAppend(b, tc.text, segment.AppendWords) })
		b.Run(tc.name+"/impl=uniseg", func(b *testing.B) { benchCount(b, tc.text, peers.UnisegWords) })
	}
}

func BenchmarkSegmentGraphemes(b *testing.B) {
	for _, tc := range segTexts() {
		b.Run(tc.name+"/impl=ragkit", func(b *testing.B) { benchAppend(b, tc.text, segment.AppendGraphemes) })
		b.Run(tc.name+"/impl=uniseg", func(b *testing.B) { benchCount(b, tc.text, peers.UnisegGraphemes) })
	}
}

func BenchmarkSegmentParagraphs(b *testing.B) {
	for _, tc := range segTexts() {
		b.Run(tc.name+"/impl=ragkit", func(b *testing.B) { benchAppend(b, tc.text, segment.AppendParagraphs) })
	}
}
