// Command eval runs the retrieval evaluation of package
// github.com/ragkit/ragkit/benchmarks/eval and prints its table: for each
// corpus and configuration, hit@1 and hit@k of the unit holding the
// answer, MRR, the token recall, precision and IoU of what was retrieved,
// precision Ω of the units, the number of units and the number of
// questions whose answer was not retrieved (failures). The metrics are
// defined in the package documentation.
//
// Usage, from the benchmarks directory:
//
//	go run ./cmd/eval [-corpus reports,room] [-k 5] [-sizes 64,256]
//	                  [-methods greedy-64,...] [-questions N]
//	                  [-format markdown|json] [-per-question] [-dim N]
//
// -corpus takes built-in corpus names or directories laid out as
// eval.LoadDir reads them. It exits with status 1 if any configuration
// failed (the table marks it and the error follows the table), 2 on a
// bad flag. It uses the Lexical embedder (-dim sets its dimension) and
// the memory store; to evaluate another embedder, see the package
// documentation.
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

	"github.com/ragkit/ragkit/benchmarks/eval"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

type options struct {
	corpora     []string
	sizes       []int
	methods     []string
	k           int
	questions   int
	format      string
	perQuestion bool
	dimension   int
}

func parse(args []string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	corpora := fs.String("corpus", strings.Join(eval.Corpora(), ","), "corpora: built-in names or directories, comma-separated")
	sizes := fs.String("sizes", "64,256", "chunk sizes in tokens, comma-separated")
	methods := fs.String("methods", "", "configurations to run, comma-separated (default all, such as greedy-64 and balanced-64)")
	var o options
	fs.IntVar(&o.k, "k", eval.DefaultK, "hits retrieved and scored per question")
	fs.IntVar(&o.questions, "questions", 0, "ask only the first N questions of each corpus (0: all)")
	fs.StringVar(&o.format, "format", "markdown", "output format: markdown or json")
	fs.BoolVar(&o.perQuestion, "per-question", false, "with -format json, include each question's result")
	fs.IntVar(&o.dimension, "dim", 0, "dimension of the Lexical embedder (0: its default)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	o.corpora = fields(*corpora)
	o.methods = fields(*methods)
	for _, s := range fields(*sizes) {
		n, err := strconv.Atoi(s)
		if err != nil {
			return o, fmt.Errorf("-sizes: %w", err)
		}
		o.sizes = append(o.sizes, n)
	}
	switch {
	case o.format != "markdown" && o.format != "json":
		return o, fmt.Errorf("-format %q: want markdown or json", o.format)
	case len(o.corpora) == 0 || len(o.sizes) == 0:
		return o, fmt.Errorf("-corpus and -sizes must not be empty")
	case o.k < 1 || o.questions < 0 || o.dimension < 0:
		return o, fmt.Errorf("-k must be at least 1, -questions and -dim at least 0")
	}
	return o, nil
}

func fields(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parse(args, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "eval:", err)
		return 2
	}
	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	if err != nil {
		fmt.Fprintln(stderr, "eval:", err)
		return 1
	}
	methods, err := pick(eval.Standard(tok, o.sizes), o.methods)
	if err != nil {
		fmt.Fprintln(stderr, "eval:", err)
		return 2
	}
	var corpora []*eval.Corpus
	for _, name := range o.corpora {
		c, err := eval.Load(name)
		if err != nil {
			fmt.Fprintln(stderr, "eval:", err)
			return 1
		}
		corpora = append(corpora, c.Subset(o.questions))
	}
	emb, err := vectorstore.NewLexical(vectorstore.LexicalConfig{Dimension: o.dimension})
	if err != nil {
		fmt.Fprintln(stderr, "eval:", err)
		return 2
	}
	ev, err := eval.New(eval.Config{Embedder: emb, Tokenizer: tok, K: o.k})
	if err != nil {
		fmt.Fprintln(stderr, "eval:", err)
		return 1
	}
	results := ev.Run(ctx, corpora, methods)
	if err := write(stdout, o, emb.Dimension(), results); err != nil {
		fmt.Fprintln(stderr, "eval:", err)
		return 1
	}
	for _, r := range results {
		if r.Err != nil {
			fmt.Fprintf(stderr, "eval: %s / %s: %v\n", r.Corpus, r.Method, r.Err)
		}
	}
	if slices.ContainsFunc(results, func(r eval.Result) bool { return r.Err != nil }) {
		return 1
	}
	return 0
}

// pick returns the methods named in names, in the order of all; all of
// them if names is empty.
func pick(all []eval.Method, names []string) ([]eval.Method, error) {
	if len(names) == 0 {
		return all, nil
	}
	var out []eval.Method
	for _, n := range names {
		if !slices.ContainsFunc(all, func(m eval.Method) bool { return m.Name == n }) {
			return nil, fmt.Errorf("-methods: no configuration %q", n)
		}
	}
	for _, m := range all {
		if slices.Contains(names, m.Name) {
			out = append(out, m)
		}
	}
	return out, nil
}

func write(w io.Writer, o options, dim int, results []eval.Result) error {
	if o.format == "json" {
		return eval.WriteJSON(w, results, o.perQuestion)
	}
	fmt.Fprintf(w, "Retrieval evaluation: embedder vectorstore.Lexical (%d dimensions), memory store, tokens by cl100k_base, k = %d.\n\n", dim, o.k)
	return eval.WriteMarkdown(w, results)
}
