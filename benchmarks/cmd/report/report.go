package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/ragkit/ragkit/benchmarks/eval"
	"github.com/ragkit/ragkit/benchmarks/internal/chart"
	"github.com/ragkit/ragkit/tokencount"
)

// A report accumulates report.md and the files beside it, written at the
// end so that a failed run leaves no half-written charts behind.
type report struct {
	dir    string
	md     strings.Builder
	files  []file
	failed []error
	log    func(string)
}

type file struct {
	name string
	data []byte
}

func (r *report) header(o options, args []string, start time.Time) {
	fmt.Fprintf(&r.md, "# ragkit benchmark report\n\n")
	fmt.Fprintf(&r.md, "- Date: %s\n", start.UTC().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(&r.md, "- Machine: %s/%s, %s, %d CPUs (GOMAXPROCS %d)\n", runtime.GOOS, runtime.GOARCH, cpuModel(), runtime.NumCPU(), runtime.GOMAXPROCS(0))
	fmt.Fprintf(&r.md, "- Go: %s\n", runtime.Version())
	fmt.Fprintf(&r.md, "- Command: `cd benchmarks && go run ./cmd/report %s`\n", strings.Join(args, " "))
	fmt.Fprintf(&r.md, "- Speed: each side timed with testing.Benchmark for %s, %d rounds, the sides interleaved; times are medians, ratios the median of the per-round ratios (a burst of load from elsewhere slows both sides of a round alike). A shared or busy machine moves the times more than the ratios.\n", o.benchtime, o.rounds)
	if o.small {
		r.md.WriteString("- **-small**: texts cut to 8 KiB, 1,000 vectors, 3 questions per corpus; these figures show that the report runs, not how fast or how well.\n")
	}
	r.md.WriteString("\n")
}

// cpuModel returns the CPU's model name from /proc/cpuinfo, or "unknown
// CPU" where there is none.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if k, v, ok := strings.Cut(s.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

func (r *report) section(ctx context.Context, name string, o options) {
	r.log(name)
	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	if err == nil {
		switch name {
		case "speed":
			err = r.speed(o)
		case "sizes":
			err = r.sizes(tok, o)
		case "retrieval":
			err = r.retrieval(ctx, tok, o)
		}
	}
	if err != nil {
		err = fmt.Errorf("%s: %w", name, err)
		r.failed = append(r.failed, err)
		fmt.Fprintf(&r.md, "**Failed:** %v\n\n", err)
	}
}

// svg renders c into the named file and links it from the report.
func (r *report) svg(name, alt string, c interface{ WriteSVG(io.Writer) error }) error {
	var b bytes.Buffer
	if err := c.WriteSVG(&b); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	r.files = append(r.files, file{name, b.Bytes()})
	fmt.Fprintf(&r.md, "![%s](%s)\n\n", alt, name)
	return nil
}

func (r *report) write() error {
	r.files = append(r.files, file{"report.md", []byte(r.md.String())})
	for _, f := range r.files {
		if err := os.WriteFile(filepath.Join(r.dir, f.name), f.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func (r *report) speed(o options) error {
	cs, err := comparisons(o.small)
	if err != nil {
		return err
	}
	ts, err := measure(cs, o.rounds, r.log)
	if err != nil {
		return err
	}
	r.md.WriteString("## Speed against peer libraries\n\nTimes per operation (one pass over the whole input, or one query); \"x\" columns are the peer's time over ragkit's, so above 1 means ragkit is faster.\n\n")
	ts = byGroup(ts)
	for i := 0; i < len(ts); {
		j := i
		for j < len(ts) && ts[j].group == ts[i].group {
			j++
		}
		speedTable(&r.md, ts[i:j])
		i = j
	}
	return r.svg("speed.svg", "Speed: peer's time over ragkit's", speedChart(ts))
}

// byGroup orders timings by group, groups in the order they first
// appear, keeping the order within each group.
func byGroup(ts []timing) []timing {
	var groups []string
	for _, t := range ts {
		if !slices.Contains(groups, t.group) {
			groups = append(groups, t.group)
		}
	}
	out := slices.Clone(ts)
	slices.SortStableFunc(out, func(a, b timing) int { return slices.Index(groups, a.group) - slices.Index(groups, b.group) })
	return out
}

func speedTable(b *strings.Builder, ts []timing) {
	impls := ts[0].impls
	fmt.Fprintf(b, "### %s\n\n| input |", ts[0].group)
	for _, im := range impls {
		fmt.Fprintf(b, " %s |", im.name)
	}
	for _, im := range impls[1:] {
		fmt.Fprintf(b, " %s / ragkit |", im.name)
	}
	b.WriteString(" ragkit MB/s | allocs/op (ragkit, peers) |\n|---|")
	b.WriteString(strings.Repeat("--:|", 2*len(impls)+1))
	b.WriteString("\n")
	for _, t := range ts {
		fmt.Fprintf(b, "| %s |", t.name)
		for i := range impls {
			fmt.Fprintf(b, " %s |", duration(t.median(i)))
		}
		for i := 1; i < len(impls); i++ {
			rs := t.ratios(i)
			fmt.Fprintf(b, " %.1fx (%.1f-%.1f) |", t.ratio(i), slices.Min(rs), slices.Max(rs))
		}
		mbs := "–"
		if t.bytes > 0 {
			mbs = fmt.Sprintf("%.0f", float64(t.bytes)/t.median(0)*1e3)
		}
		allocs := make([]string, len(t.allocs))
		for i, a := range t.allocs {
			allocs[i] = fmt.Sprint(a)
		}
		fmt.Fprintf(b, " %s | %s |\n", mbs, strings.Join(allocs, ", "))
	}
	b.WriteString("\n")
}

// duration formats nanoseconds with three significant digits.
func duration(ns float64) string {
	d := time.Duration(ns)
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.3g s", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.3g ms", float64(d)/1e6)
	case d >= time.Microsecond:
		return fmt.Sprintf("%.3g µs", float64(d)/1e3)
	}
	return fmt.Sprintf("%.3g ns", ns)
}

func speedChart(ts []timing) chart.Bars {
	s := chart.Series{Name: "peer / ragkit"}
	var cats []string
	for _, t := range ts {
		for i := 1; i < len(t.impls); i++ {
			cats = append(cats, t.short+" vs "+t.impls[i].name)
			s.Values = append(s.Values, t.ratio(i))
		}
	}
	return chart.Bars{
		Title:      "How many times longer each peer takes than ragkit (median of rounds)",
		Categories: cats,
		Series:     []chart.Series{s},
		Axis:       "peer's time / ragkit's time (log scale; right of 1: ragkit faster)",
		Log:        true,
		Reference:  1,
		Format:     func(v float64) string { return fmt.Sprintf("%.1fx", v) },
	}
}

func (r *report) sizes(tok tokencount.Tokenizer, o options) error {
	ds, err := distributions(tok, o.chunkSizes, o.small)
	if err != nil {
		return err
	}
	r.md.WriteString("## Chunk sizes\n\nEvery chunk's cl100k_base count, per splitter: ragkit's chunker (balanced, and greedy), the evaluation's recursive baseline (LangChain's RecursiveCharacterTextSplitter with a token length, written with byte offsets), langchaingo's RecursiveCharacter (tiktoken-go's count as its length) and TokenSplitter. A crumb (a chunk under a quarter of the maximum) is a chunk with too few words to be found or to answer anything.\n\n")
	for _, d := range ds {
		d.table(&r.md)
		r.md.WriteString("\n")
		if err := r.svg(d.file(), "Chunk sizes, "+d.corpus, d.chart()); err != nil {
			return err
		}
	}
	return nil
}

func (r *report) retrieval(ctx context.Context, tok tokencount.Tokenizer, o options) error {
	results, err := retrieval(ctx, tok, o.sizes, o.questions)
	if err != nil {
		return err
	}
	r.md.WriteString("## Retrieval\n\nThe retrieval evaluation (package benchmarks/eval, whose documentation defines the metrics) of every configuration, with the default `lexical.Embedder` embedder and the memory store; failures are questions whose answer is not in the top k.\n\n")
	if err := eval.WriteMarkdown(&r.md, results); err != nil {
		return err
	}
	r.md.WriteString("\nWhat each technique changes, against plain balanced chunks of the same size (balanced chunks against greedy ones):\n\n")
	writeGains(&r.md, results)
	r.md.WriteString("\n")
	var js bytes.Buffer
	if err := eval.WriteJSON(&js, results, false); err != nil {
		return err
	}
	r.files = append(r.files, file{"retrieval.json", js.Bytes()})
	if err := r.svg("retrieval-failures.svg", "Retrieval failures per configuration", failureChart(results)); err != nil {
		return err
	}
	for _, res := range results {
		if res.Err != nil {
			return fmt.Errorf("%s / %s: %w", res.Corpus, res.Method, res.Err)
		}
	}
	return nil
}
