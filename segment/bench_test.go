package segment_test

import (
	"strings"
	"testing"

	"github.com/ragkit/ragkit/internal/testcorpus"
	"github.com/ragkit/ragkit/segment"
)

// BenchmarkSentences times AppendSentences on the corpora, whole and one
// paragraph at a time, as the chunker calls it on each block of prose: a
// call's fixed cost shows in the second.
//
//	go test ./segment -run '^$' -bench Sentences -count 6
func BenchmarkSentences(b *testing.B) {
	for _, name := range []string{"room_with_a_view.txt", "sherlock_1661.txt", "romeo_and_juliet.txt", "commonmark_spec.md"} {
		text := testcorpus.Must(b, name)
		paras := segment.Paragraphs(text)
		corpus := strings.TrimSuffix(strings.TrimSuffix(name, ".txt"), ".md")
		b.Run("corpus="+corpus+"/call=whole", func(b *testing.B) {
			dst := segment.AppendSentences(nil, text)
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				dst = segment.AppendSentences(dst[:0], text)
			}
		})
		b.Run("corpus="+corpus+"/call=paragraph", func(b *testing.B) {
			var dst []segment.Span
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				for _, p := range paras {
					dst = segment.AppendSentences(dst[:0], text[p.Start:p.End])
				}
			}
		})
	}
}
