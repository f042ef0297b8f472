// Command survive measures whether the answer a Retriever found survives
// the prompt's budget. On the evaluation's corpora, for chunks, sentence
// windows and segments of each size, it prints the share of questions
// whose answer is in a retrieved passage ("in passages"), and, at each
// context budget, the share whose answer is in the context section that
// package budget assembles from those passages, three ways:
//
//   - start: as before issue 44, a cut keeps a passage's start (the
//     items' protected spans removed);
//   - keep: retrieve.Items' protected spans (table header rows, the
//     passage's Focus, its hits, its label), which a cut keeps first;
//   - keep+room: the same, with the passages sized to share the budget
//     (retrieve.ItemConfig.Room: the budget less the heading).
//
// Usage, from the benchmarks directory:
//
//	go run ./cmd/survive [-corpus reports,room,eval/testdata/neardup]
//	                     [-sizes 64,128,256] [-budgets 60,120,300,600] [-k 5]
//
// Units, wideners and search are those of eval.RetrieverMethods: balanced
// chunks of n tokens, each hit a passage; sentence windows of up to 8
// sentences a side within n tokens; segments (window.Extractor, Balanced)
// within k·n tokens in all; hybrid search with the Lexical embedder and
// the memory store; k passages. An answer is in a text when its exact
// string is (an answer occurs once in its corpus). The context section is
// the quickstart's: DropLowestRank with CutEnd, a "Context:" heading,
// items labelled by retrieve.Citation, counted with cl100k_base. The
// figures are counts, the same on any machine.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ragkit/ragkit/benchmarks/eval"
	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/window"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); errors.Is(err, flag.ErrHelp) {
		return
	} else if err != nil {
		fmt.Fprintln(os.Stderr, "survive:", err)
		os.Exit(1)
	}
}

// policies are the ways the context is assembled, in the table's order.
var policies = []string{"start", "keep", "keep+room"}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("survive", flag.ContinueOnError)
	corpora := fs.String("corpus", "reports,room,eval/testdata/neardup", "corpora: built-in names or directories")
	sizes := fs.String("sizes", "64,128,256", "unit sizes in tokens")
	budgets := fs.String("budgets", "60,120,300,600", "context budgets in tokens")
	k := fs.Int("k", eval.DefaultK, "passages per question")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ns, err := ints(*sizes)
	if err != nil {
		return err
	}
	bs, err := ints(*budgets)
	if err != nil {
		return err
	}
	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 1, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprint(tw, "corpus\tunits\tquestions\tin passages\t")
	for _, b := range bs {
		for _, p := range policies {
			fmt.Fprintf(tw, "%d %s\t", b, p)
		}
	}
	fmt.Fprintln(tw)
	total := tally{prompt: make([]int, len(bs)*len(policies))}
	var names []string             // units, in order
	byUnits := map[string]*tally{} // over the corpora
	for _, name := range strings.Split(*corpora, ",") {
		c, err := eval.Load(name)
		if err != nil {
			return err
		}
		for _, m := range methods(tok, ns, *k) {
			t, err := measure(ctx, tok, c, m, *k, bs)
			if err != nil {
				return fmt.Errorf("%s %s: %w", c.Name, m.name, err)
			}
			t.row(tw, c.Name, m.name)
			u := byUnits[m.name]
			if u == nil {
				u = &tally{prompt: make([]int, len(t.prompt))}
				byUnits[m.name] = u
				names = append(names, m.name)
			}
			u.add(t)
			total.add(t)
		}
	}
	for _, name := range names {
		byUnits[name].row(tw, "all", name)
	}
	total.row(tw, "all", "")
	return tw.Flush()
}

func (t *tally) add(u tally) {
	t.questions += u.questions
	t.passages += u.passages
	for i, n := range u.prompt {
		t.prompt[i] += n
	}
}

// row prints t as a row of the table.
func (t *tally) row(w io.Writer, corpus, units string) {
	fmt.Fprintf(w, "%s\t%s\t%d\t%s\t", corpus, units, t.questions, pct(t.passages, t.questions))
	for _, n := range t.prompt {
		fmt.Fprintf(w, "%s\t", pct(n, t.questions))
	}
	fmt.Fprintln(w)
}

// A method is a way to cut documents and widen hits.
type method struct {
	name  string
	units func(context.Context, eval.Document) ([]eval.Unit, error)
	widen func(store *memory.Store) (retrieve.Widener, error)
}

// methods returns chunks, windows and segments at each size, as
// eval.RetrieverMethods makes them.
func methods(tok tokencount.Tokenizer, sizes []int, k int) []method {
	var out []method
	for _, n := range sizes {
		ms := eval.RetrieverMethods(tok, []int{n}, k, 0, []eval.RetrieverSetting{{}})
		out = append(out,
			method{name: fmt.Sprintf("chunks-%d", n), units: ms[0].Units,
				widen: func(*memory.Store) (retrieve.Widener, error) { return nil, nil }},
			method{name: fmt.Sprintf("windows-%d", n), units: ms[1].Units,
				widen: func(s *memory.Store) (retrieve.Widener, error) {
					return window.NewExpander(window.ExpanderConfig{Source: s, Size: 8, Tokenizer: tok, MaxTokens: n})
				}},
			method{name: fmt.Sprintf("segments-%d", n), units: ms[2].Units,
				widen: func(s *memory.Store) (retrieve.Widener, error) {
					return window.NewExtractor(window.ExtractorConfig{Source: s, Preset: window.Balanced, Tokenizer: tok, MaxTotalTokens: k * n})
				}})
	}
	return out
}

// A tally counts questions: all, those whose answer is in a passage, and
// those whose answer is in the prompt, by budget and policy.
type tally struct {
	questions, passages int
	prompt              []int
}

func measure(ctx context.Context, tok tokencount.Tokenizer, c *eval.Corpus, m method, k int, budgets []int) (tally, error) {
	t := tally{prompt: make([]int, len(budgets)*len(policies))}
	store, emb, err := index(ctx, c, m)
	if err != nil {
		return t, err
	}
	defer store.Close()
	w, err := m.widen(store)
	if err != nil {
		return t, err
	}
	r, err := retrieve.New(retrieve.Config{Store: store, Embedder: emb, Passages: k, Widener: w, Tokenizer: tok})
	if err != nil {
		return t, err
	}
	asm, err := budget.New(budget.Config{Tokenizer: tok, Limit: 1 << 20})
	if err != nil {
		return t, err
	}
	for _, q := range c.Questions {
		ps, err := r.Retrieve(ctx, q.Text)
		if err != nil {
			return t, err
		}
		t.questions++
		found := false
		for _, p := range ps {
			found = found || strings.Contains(p.Text, q.Answer)
		}
		if !found {
			continue
		}
		t.passages++
		for i, b := range budgets {
			for j, p := range policies {
				text, err := assemble(asm, tok, ps, b, p)
				if err != nil {
					return t, err
				}
				if strings.Contains(text, q.Answer) {
					t.prompt[i*len(policies)+j]++
				}
			}
		}
	}
	return t, nil
}

// assemble returns the context section of passages ps within budget b by
// policy p.
func assemble(asm *budget.Assembler, tok tokencount.Tokenizer, ps []retrieve.Passage, b int, p string) (string, error) {
	cfg := retrieve.ItemConfig{Label: retrieve.Citation}
	switch p {
	case "keep+room":
		cfg.Room, cfg.Tokenizer = b-tok.Count("Context:\n"), tok
	}
	items, err := retrieve.Items(ps, cfg)
	if err != nil {
		return "", err
	}
	if p == "start" {
		for i := range items {
			items[i].Keep = nil // as before protected spans: a cut keeps the start
		}
	}
	res, err := asm.Assemble(budget.Section{Name: "context", MaxTokens: b, Strategy: budget.DropLowestRank,
		Cut: budget.CutEnd, Heading: "Context:", Items: items})
	return res.Text, err
}

// index cuts, embeds and stores the corpus's documents with m, as the
// evaluation does.
func index(ctx context.Context, c *eval.Corpus, m method) (*memory.Store, *lexical.Embedder, error) {
	emb, store := &lexical.Embedder{}, &memory.Store{}
	var recs []vectorstore.Record
	var texts []string
	for _, d := range c.Documents {
		units, err := m.units(ctx, d)
		if err != nil {
			return nil, nil, err
		}
		for i, u := range units {
			text := d.Text[u.Start:u.End]
			recs = append(recs, vectorstore.Record{ID: fmt.Sprintf("%s#%d", d.ID, i), DocID: d.ID, Index: i,
				Start: u.Start, End: u.End, Text: text, Metadata: u.Metadata})
			if u.Embed != "" {
				text = u.Embed
			}
			texts = append(texts, text)
		}
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		return nil, nil, err
	}
	for i := range recs {
		recs[i].Vector = vecs[i]
	}
	return store, emb, store.Upsert(ctx, recs...)
}

func ints(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func pct(n, of int) string {
	if of == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*float64(n)/float64(of), 'f', 0, 64) + "%"
}
