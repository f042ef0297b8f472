package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ragkit/ragkit/benchmarks/internal/chart"
	"github.com/ragkit/ragkit/benchmarks/internal/peers"
	"github.com/ragkit/ragkit/tokencount"
)

// A distribution is the chunk sizes, in tokens, of each splitter on one
// corpus at one chunk size.
type distribution struct {
	corpus string
	max    int
	rows   []chart.Distribution
}

// sizeCorpora are the corpora of the chunk-size distributions: prose and
// Markdown.
var sizeCorpora = []string{"room_with_a_view.txt", "commonmark_spec.md"}

// distributions splits each corpus at each size with every splitter and
// counts every chunk's tokens by tok.
func distributions(tok tokencount.Tokenizer, sizes []int, small bool) ([]distribution, error) {
	var out []distribution
	for _, name := range sizeCorpora {
		text, err := load(name, small)
		if err != nil {
			return nil, err
		}
		for _, max := range sizes {
			d, err := distributionOf(tok, name, text, max)
			if err != nil {
				return nil, err
			}
			out = append(out, d)
		}
	}
	return out, nil
}

func distributionOf(tok tokencount.Tokenizer, name, text string, max int) (distribution, error) {
	sps, err := peers.Splitters(peers.FormatOf(name), max, tok)
	if err != nil {
		return distribution{}, err
	}
	// The evaluation's greedy baseline, after ragkit's own two.
	sps = slices.Insert(sps, 2, peers.Splitter{Name: "recursive baseline", Split: peers.Recursive(tok, max, peers.FormatOf(name))})
	d := distribution{corpus: name, max: max}
	for _, sp := range sps {
		chunks, err := sp.Split(text)
		if err != nil {
			return distribution{}, fmt.Errorf("%s on %s at %d: %w", sp.Name, name, max, err)
		}
		row := chart.Distribution{Label: sp.Name}
		for _, c := range chunks {
			row.Values = append(row.Values, tok.Count(c))
		}
		d.rows = append(d.rows, row)
	}
	return d, nil
}

func (d distribution) file() string {
	base := strings.TrimSuffix(strings.TrimSuffix(d.corpus, ".txt"), ".md")
	return fmt.Sprintf("sizes-%s-%d.svg", strings.ReplaceAll(base, "_", "-"), d.max)
}

func (d distribution) chart() chart.Histograms {
	return chart.Histograms{
		Title: fmt.Sprintf("Chunk sizes: %s, at most %d tokens", d.corpus, d.max),
		Rows:  d.rows,
		Max:   d.max,
		Bins:  16,
		Axis:  "chunk size (cl100k_base tokens); bars: share of each splitter's chunks",
	}
}

// table writes one row per splitter: chunks, smallest, median, largest,
// chunks under a quarter of the maximum, chunks over it.
func (d distribution) table(b *strings.Builder) {
	fmt.Fprintf(b, "| %s, max %d | chunks | min | median | max | under %d | over %d |\n|---|--:|--:|--:|--:|--:|--:|\n", d.corpus, d.max, d.max/4, d.max)
	for _, r := range d.rows {
		v := slices.Sorted(slices.Values(r.Values))
		if len(v) == 0 {
			fmt.Fprintf(b, "| %s | 0 | – | – | – | – | – |\n", r.Label)
			continue
		}
		under := count(v, func(x int) bool { return x < d.max/4 })
		over := count(v, func(x int) bool { return x > d.max })
		fmt.Fprintf(b, "| %s | %d | %d | %d | %d | %d | %d |\n", r.Label, len(v), v[0], v[len(v)/2], v[len(v)-1], under, over)
	}
}

func count(v []int, f func(int) bool) int {
	n := 0
	for _, x := range v {
		if f(x) {
			n++
		}
	}
	return n
}
