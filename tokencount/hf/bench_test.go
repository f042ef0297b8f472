package hf_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/tokencount/hf"
)

// benchText is a novel from the shared corpora when they are there
// (../../../shared from this directory, as in CI), else the unit texts
// repeated to a similar size.
func benchText(b *testing.B) string {
	if data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "corpora", "sherlock_1661.txt")); err == nil {
		return string(data)
	}
	return strings.Repeat(strings.Join(loadExpected(b).Texts, "\n"), 600)
}

// BenchmarkCount counts a novel with each family's cut-down file; the
// real vocabularies are measured by exactness/cmd/hfmeasure.
func BenchmarkCount(b *testing.B) {
	text := benchText(b)
	for _, g := range genFiles {
		tok := load(b, g.name, hf.Options{})
		b.Run(g.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				tok.Count(text)
			}
		})
	}
}

// BenchmarkTokenEnds is BenchmarkCount for AppendTokenEnds, into a slice
// reused across iterations.
func BenchmarkTokenEnds(b *testing.B) {
	text := benchText(b)
	for _, g := range genFiles {
		tok := load(b, g.name, hf.Options{})
		b.Run(g.name, func(b *testing.B) {
			var ends []int
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				ends = tok.AppendTokenEnds(ends[:0], text)
			}
		})
	}
}

// BenchmarkLoad reads each family's cut-down file.
func BenchmarkLoad(b *testing.B) {
	for _, g := range genFiles {
		data, err := os.ReadFile(filepath.Join("testdata", g.name+".json"))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(g.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := hf.Load(bytes.NewReader(data), hf.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAddedLong counts a text of "a" with an added token of 4,095
// "a" and a "b" (issue 37): a trie walked from each position reads 4,095
// bytes at each, the square of the text; the automaton one pass.
func BenchmarkAddedLong(b *testing.B) {
	long := strings.Repeat("a", 4095) + "b"
	tok := bpeWith(b, []string{"a", "b"}, nil, []map[string]any{addedTok(long, false, false)}, "")
	for _, n := range []int{25_000, 100_000} {
		text := strings.Repeat("a", n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				tok.Count(text)
			}
		})
	}
}
