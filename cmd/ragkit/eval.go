package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/evaluate"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/window"
)

type evalFlags struct {
	askFlags
	questions string
	searches  string
	jsonFile  string
}

// searches are the configurations eval can compare, by name.
var searches = map[string]retrieve.Search{"hybrid": retrieve.Hybrid, "vector": retrieve.Vector, "keywords": retrieve.Keywords}

// evalCmd scores the retrieval of a folder on a question set, offline:
// hit@k, MRR, nDCG, recall of relevant spans, context precision and
// whether the answer reached the prompt, per configuration with bootstrap
// intervals (package evaluate).
func evalCmd(ctx context.Context, args []string, ios ios) error {
	var f evalFlags
	fs := newFlags("eval", "-dir DIR -questions FILE [flags]", ios.stderr)
	f.register(fs, defaultMaxTokens)
	fs.StringVar(&f.questions, "questions", "", "the question set: JSON Lines, one object a line with \"question\" and its targets\n(\"docs\", \"spans\" or \"answer\"; see package evaluate)")
	fs.StringVar(&f.searches, "search", "hybrid,vector,keywords", "the searches to compare, comma-separated: hybrid, vector, keywords")
	fs.IntVar(&f.budget, "budget", 1500, "the most tokens of retrieved context in each question's prompt (answer-in-prompt)")
	fs.IntVar(&f.k, "k", 5, "how many passages of each question are scored")
	fs.StringVar(&f.jsonFile, "json", "", "also write every run, with each question's scores, to this file as JSON")
	err := parse(fs, args, func(rest []string) error {
		switch {
		case len(rest) > 0:
			return fmt.Errorf("unexpected argument %q", rest[0])
		case f.questions == "":
			return errors.New("-questions FILE is required")
		case f.budget < 1 || f.k < 1:
			return errors.New("-budget and -k must be positive")
		}
		for _, s := range strings.Split(f.searches, ",") {
			if _, ok := searches[s]; !ok {
				return fmt.Errorf("-search: unknown search %q (hybrid, vector or keywords)", s)
			}
		}
		return f.check()
	})
	if err != nil {
		return err
	}
	qf, err := os.Open(f.questions)
	if err != nil {
		return err
	}
	qs, err := evaluate.ReadQuestions(qf)
	qf.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", f.questions, err)
	}
	store, m, docs, _, err := openIndex(ctx, f.indexFlags, ios.stderr)
	if err != nil {
		return err
	}
	defer store.Close()
	a := &asker{f: f.askFlags, m: m, docs: map[string]document.Document{}, ios: ios}
	for _, d := range docs {
		a.docs[d.ID] = d
	}
	if a.asm, err = budget.New(budget.Config{Tokenizer: m.tokenizer, Limit: promptLimit, Reserve: promptReserve}); err != nil {
		return err
	}
	// Each configuration's prompt is assembled as ask assembles it.
	assemble := func(_ context.Context, question string, ps []retrieve.Passage) (string, error) {
		res, err := a.prompt(question, ps)
		return res.Text, err
	}
	var configs []evaluate.Configuration
	for _, name := range strings.Split(f.searches, ",") {
		extract, err := window.NewExtractor(window.ExtractorConfig{Tokenizer: m.tokenizer})
		if err != nil {
			return err
		}
		r, err := retrieve.New(retrieve.Config{Store: store, Embedder: m.embedder, Search: searches[name],
			Depth: f.k, Passages: f.k, Widener: extract, Reranker: m.reranker})
		if err != nil {
			return err
		}
		configs = append(configs, evaluate.Configuration{Name: name, Retriever: r, Assemble: assemble})
	}
	runs, err := evaluate.Compare(ctx, evaluate.Config{Tokenizer: m.tokenizer, K: f.k},
		evaluate.SummaryConfig{}, configs, qs)
	if err != nil {
		return err
	}
	fmt.Fprintf(ios.stdout, "%d questions, k = %d, context budget %d tokens\n", len(qs), f.k, f.budget)
	if err := evaluate.WriteTable(ios.stdout, runs); err != nil {
		return err
	}
	if f.jsonFile == "" {
		return nil
	}
	data, err := json.MarshalIndent(runs, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(f.jsonFile, append(data, '\n'), 0o644)
}
