package chunker_test

import (
	"fmt"
	"testing"

	"github.com/ragkit/ragkit/chunker"
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
