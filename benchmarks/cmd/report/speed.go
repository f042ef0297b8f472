package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ragkit/ragkit/benchmarks/cmd/vsbench/harness"
	"github.com/ragkit/ragkit/benchmarks/internal/corpus"
	"github.com/ragkit/ragkit/benchmarks/internal/peers"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/tiktoken"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/tiktoken-go/tokenizer"
)

// A comparison times ragkit (impls[0]) and its peers on one input.
type comparison struct {
	group string // "Token counting"
	name  string // the input, such as "room_with_a_view.txt, cl100k_base"
	short string // the comparison in a few words, such as "count room cl100k"
	bytes int64  // input size, for MB/s; 0 if not meaningful
	impls []impl
}

// An impl is one side of a comparison: op does the work once.
type impl struct {
	name string
	op   func() error
}

// A timing is what the rounds measured of one comparison: ns/op and
// allocs/op of each impl, one entry per round.
type timing struct {
	comparison
	ns     [][]float64 // [impl][round]
	allocs []int64     // [impl], from the last round
}

// median returns the median of ns of impl i.
func (t *timing) median(i int) float64 { return median(t.ns[i]) }

// ratio returns the median over rounds of impl i's time over ragkit's:
// load from elsewhere during a round slows both sides of it alike.
func (t *timing) ratio(i int) float64 { return median(t.ratios(i)) }

// ratios returns impl i's time over ragkit's in each round.
func (t *timing) ratios(i int) []float64 {
	rs := make([]float64, len(t.ns[0]))
	for r := range rs {
		rs[r] = t.ns[i][r] / t.ns[0][r]
	}
	return rs
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// measure runs every impl of every comparison once per round with
// testing.Benchmark, in an order that rotates from round to round, so
// that no side always runs first or right after the same neighbour.
func measure(cs []comparison, rounds int, progress func(string)) ([]timing, error) {
	ts := make([]timing, len(cs))
	type job struct{ c, i int }
	var jobs []job
	for c := range cs {
		ts[c] = timing{comparison: cs[c], ns: make([][]float64, len(cs[c].impls)), allocs: make([]int64, len(cs[c].impls))}
		for i := range cs[c].impls {
			jobs = append(jobs, job{c, i})
		}
	}
	for r := range rounds {
		progress(fmt.Sprintf("speed: round %d of %d", r+1, rounds))
		for k := range jobs {
			j := jobs[(k+r*len(jobs)/max(rounds, 1))%len(jobs)]
			ns, allocs, err := bench(cs[j.c].bytes, cs[j.c].impls[j.i].op)
			if err != nil {
				return nil, fmt.Errorf("%s, %s, %s: %w", cs[j.c].group, cs[j.c].name, cs[j.c].impls[j.i].name, err)
			}
			ts[j.c].ns[j.i] = append(ts[j.c].ns[j.i], ns)
			ts[j.c].allocs[j.i] = allocs
		}
	}
	return ts, nil
}

func bench(bytes int64, op func() error) (ns float64, allocs int64, err error) {
	res := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(bytes)
		for b.Loop() {
			if err = op(); err != nil {
				return
			}
		}
	})
	if err == nil && res.N == 0 {
		err = fmt.Errorf("the benchmark did not run")
	}
	return float64(res.T.Nanoseconds()) / float64(max(res.N, 1)), res.AllocsPerOp(), err
}

// comparisons returns the speed comparisons: token counting against
// tiktoken-go and tiktoken-go/tokenizer, sentences and words against
// neurosnap/sentences and uniseg, chunking against langchaingo, vector
// queries against chromem-go. With small, every text is cut to its first
// 8 KiB and the store holds 1,000 vectors.
func comparisons(small bool) ([]comparison, error) {
	var out []comparison
	for _, add := range []func(bool) ([]comparison, error){countComparisons, segmentComparisons, chunkComparisons, vectorComparisons} {
		cs, err := add(small)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	return out, nil
}

// load returns a corpus, cut to its first 8 KiB (at a character) if small.
func load(name string, small bool) (string, error) {
	text, err := corpus.Load(name)
	if err != nil || !small || len(text) <= 8<<10 {
		return text, err
	}
	text = text[:8<<10]
	for !utf8.ValidString(text) {
		text = text[:len(text)-1]
	}
	return text, nil
}

// shortName returns a corpus's name up to its first '_' or '.'.
func shortName(name string) string {
	if i := strings.IndexAny(name, "_."); i > 0 {
		return name[:i]
	}
	return name
}

var speedCorpora = []string{"room_with_a_view.txt", "commonmark_spec.md"}

func countComparisons(small bool) ([]comparison, error) {
	var out []comparison
	for _, name := range speedCorpora {
		text, err := load(name, small)
		if err != nil {
			return nil, err
		}
		for _, enc := range []string{tokencount.Cl100kBase, tokencount.O200kBase} {
			ragkit, err := tokencount.Encoding(enc)
			if err != nil {
				return nil, err
			}
			tk, err := tiktoken.Encoding(enc)
			if err != nil {
				return nil, err
			}
			codec, err := tokenizer.Get(tokenizer.Encoding(enc))
			if err != nil {
				return nil, err
			}
			out = append(out, comparison{group: "Token counting", name: name + ", " + enc, short: "count " + shortName(name) + " " + strings.TrimSuffix(enc, "_base"), bytes: int64(len(text)), impls: []impl{
				{"ragkit", func() error { ragkit.Count(text); return nil }},
				{"tiktoken-go", func() error { tk.Count(text); return nil }},
				{"tiktoken-go/tokenizer", func() error { _, err := codec.Count(text); return err }},
			}})
		}
	}
	return out, nil
}

func segmentComparisons(small bool) ([]comparison, error) {
	punkt, err := peers.Punkt()
	if err != nil {
		return nil, err
	}
	segment.Sentences("Warm up.") // decode the Punkt data outside the timer
	var out []comparison
	for _, name := range []string{"room_with_a_view.txt", "sherlock_1661.txt"} {
		text, err := load(name, small)
		if err != nil {
			return nil, err
		}
		var spans []segment.Span
		out = append(out,
			comparison{group: "Sentences", name: name, short: "sentences " + shortName(name), bytes: int64(len(text)), impls: []impl{
				{"ragkit", func() error { spans = segment.AppendSentences(spans[:0], text); return nil }},
				{"neurosnap/sentences", func() error { punkt.Tokenize(text); return nil }},
				{"uniseg", func() error { peers.UnisegSentences(text); return nil }},
			}},
			comparison{group: "Words", name: name, short: "words " + shortName(name), bytes: int64(len(text)), impls: []impl{
				{"ragkit", func() error { spans = segment.AppendWords(spans[:0], text); return nil }},
				{"uniseg", func() error { peers.UnisegWords(text); return nil }},
			}})
	}
	return out, nil
}

// chunkMax is the chunk size of the chunking comparison, in tokens.
const chunkMax = 512

func chunkComparisons(small bool) ([]comparison, error) {
	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	if err != nil {
		return nil, err
	}
	var out []comparison
	for _, name := range speedCorpora {
		text, err := load(name, small)
		if err != nil {
			return nil, err
		}
		sps, err := peers.Splitters(peers.FormatOf(name), chunkMax, tok)
		if err != nil {
			return nil, err
		}
		c := comparison{group: "Chunking", name: fmt.Sprintf("%s, at most %d tokens", name, chunkMax), short: fmt.Sprintf("chunk %s %d", shortName(name), chunkMax), bytes: int64(len(text))}
		for _, sp := range sps {
			if sp.Name == "ragkit greedy" { // ragkit against itself: the chunk sizes section shows it
				continue
			}
			c.impls = append(c.impls, impl{sp.Name, func() error { _, err := sp.Split(text); return err }})
		}
		out = append(out, c)
	}
	return out, nil
}

func vectorComparisons(small bool) ([]comparison, error) {
	n, dim := 10_000, 384
	if small {
		n = 1_000
	}
	d := harness.Random(n, dim)
	m, c := harness.NewMemory(d, false), harness.NewChromem(d)
	ctx := context.Background()
	var qm, qc int
	return []comparison{{group: "Vector query", name: fmt.Sprintf("%d x %d, k = %d", n, dim, harness.K), short: fmt.Sprintf("query %dx%d", n, dim), bytes: int64(n * dim * 4), impls: []impl{
		{"ragkit", func() error {
			qm++
			_, err := m.Query(ctx, d.Queries[qm%len(d.Queries)], harness.K, vectorstore.Filter{})
			return err
		}},
		{"chromem-go", func() error {
			qc++
			_, err := c.QueryEmbedding(ctx, d.Queries[qc%len(d.Queries)], harness.K, nil, nil)
			return err
		}},
	}}}, nil
}
