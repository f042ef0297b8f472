// Command report runs ragkit's comparisons with its peer libraries and
// the retrieval evaluation in one run, and writes a Markdown report with
// SVG charts to a directory:
//
//	cd benchmarks
//	go run ./cmd/report -out report
//
// The report (report.md) states the machine, the Go version and the date,
// and holds:
//
//   - speed: token counting against tiktoken-go and tiktoken-go/tokenizer,
//     sentence and word boundaries against neurosnap/sentences and uniseg,
//     chunking against langchaingo's RecursiveCharacter and
//     TokenSplitter, vector queries against chromem-go; each timed with
//     testing.Benchmark for -benchtime, -rounds times, the sides
//     interleaved, as medians and as the median of the per-round ratios
//     (speed.svg);
//   - chunk sizes: the token count of every chunk of each splitter on a
//     prose and a Markdown corpus at each of -chunk-sizes, as tables and
//     histograms (sizes-*.svg);
//   - retrieval: every configuration of eval.Techniques on the built-in
//     corpora at each of -sizes, as the evaluation's table, the change in
//     failures each technique brings over its baseline, and a chart of
//     the failures (retrieval-failures.svg); the results as JSON
//     (retrieval.json).
//
// -sections picks some of speed, sizes and retrieval. -small cuts every
// text to 8 KiB, the vector store to 1,000 vectors and the evaluation to
// 3 questions per corpus, for a quick look (its figures mean little).
// The command exits with status 1 if a comparison or configuration
// failed (the report still says which), 2 on a bad flag.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

var sectionNames = []string{"speed", "sizes", "retrieval"}

type options struct {
	out        string
	sections   []string
	benchtime  string
	rounds     int
	sizes      []int
	chunkSizes []int
	small      bool
	questions  int
}

func parse(args []string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.out, "out", "report", "directory to write report.md and the charts to (made if missing)")
	sections := fs.String("sections", strings.Join(sectionNames, ","), "sections to run, comma-separated: speed, sizes, retrieval")
	fs.StringVar(&o.benchtime, "benchtime", "300ms", "time (or NNx iterations) of each measurement, as go test's -benchtime")
	fs.IntVar(&o.rounds, "rounds", 5, "measurements of each side of each speed comparison")
	sizes := fs.String("sizes", "64,256", "chunk sizes of the retrieval evaluation, in tokens")
	chunkSizes := fs.String("chunk-sizes", "256", "chunk sizes of the chunk-size distributions, in tokens")
	fs.BoolVar(&o.small, "small", false, "8 KiB texts, 1,000 vectors, 3 questions per corpus: a quick look")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	o.sections = fields(*sections)
	var err error
	if o.sizes, err = ints("-sizes", *sizes); err != nil {
		return o, err
	}
	if o.chunkSizes, err = ints("-chunk-sizes", *chunkSizes); err != nil {
		return o, err
	}
	if o.small {
		o.questions = 3
	}
	switch {
	case o.out == "":
		return o, fmt.Errorf("-out must not be empty")
	case o.rounds < 1:
		return o, fmt.Errorf("-rounds must be at least 1")
	case len(o.sections) == 0 || slices.ContainsFunc(o.sections, func(s string) bool { return !slices.Contains(sectionNames, s) }):
		return o, fmt.Errorf("-sections %q: want some of %v", *sections, sectionNames)
	}
	return o, setBenchtime(o.benchtime)
}

// setBenchtime sets testing.Benchmark's -test.benchtime, the only way to
// give it a duration.
func setBenchtime(v string) error {
	initTesting()
	if err := flag.Set("test.benchtime", v); err != nil {
		return fmt.Errorf("-benchtime %q: %w", v, err)
	}
	return nil
}

var initTesting = sync.OnceFunc(testing.Init)

func fields(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func ints(name, s string) ([]int, error) {
	var out []int
	for _, f := range fields(s) {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%s: %q is not a positive number", name, f)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s must not be empty", name)
	}
	return out, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parse(args, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "report:", err)
		return 2
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		fmt.Fprintln(stderr, "report:", err)
		return 1
	}
	start := time.Now()
	r := &report{dir: o.out, log: func(s string) { fmt.Fprintf(stderr, "report: %s (%s)\n", s, time.Since(start).Round(time.Second)) }}
	r.header(o, args, start)
	for _, s := range o.sections {
		r.section(ctx, s, o)
	}
	if err := r.write(); err != nil {
		r.failed = append(r.failed, err)
	}
	for _, err := range r.failed {
		fmt.Fprintln(stderr, "report:", err)
	}
	if len(r.failed) > 0 {
		return 1
	}
	fmt.Fprintf(stdout, "report: wrote %s in %s\n", o.out, time.Since(start).Round(time.Second))
	return 0
}
