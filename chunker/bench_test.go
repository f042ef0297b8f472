package chunker_test

import (
	"fmt"
	"strings"
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
		{"CR/Markdown", cr, chunker.Config{MaxTokens: 128, Format: chunker.Markdown}},
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
