package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/evaluate"
	"github.com/ragkit/ragkit/llm/openai"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/window"
)

type evalFlags struct {
	askFlags
	questions string
	searches  string
	jsonFile  string
	generate  int
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
	fs.IntVar(&f.generate, "generate", 0, "first write a question set of about N questions to -questions (which must not exist) with\nthe -model, one question per chunk of N chunks spread over the folder, each grounded in its chunk")
	err := parse(fs, args, func(rest []string) error {
		switch {
		case len(rest) > 0:
			return fmt.Errorf("unexpected argument %q", rest[0])
		case f.questions == "":
			return errors.New("-questions FILE is required")
		case f.budget < 1 || f.k < 1:
			return errors.New("-budget and -k must be positive")
		case f.generate < 0 || f.generate > maxGenerate:
			return fmt.Errorf("-generate must be from 0 to %d, got %d", maxGenerate, f.generate)
		case f.generate > 0 && f.models.model == "":
			return errors.New("-generate needs -model, the chat model that writes the questions")
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
	if f.generate > 0 {
		if _, err := os.Stat(f.questions); err == nil {
			return fmt.Errorf("-generate: %s exists; name a new file", f.questions)
		}
	}
	store, m, docs, _, err := openIndex(ctx, f.indexFlags, ios.stderr)
	if err != nil {
		return err
	}
	defer store.Close()
	if f.generate > 0 {
		if err := generate(ctx, store, m, f.generate, f.questions, ios); err != nil {
			return err
		}
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

// maxGenerate bounds -generate: each question costs a model call.
const maxGenerate = 10000

// generate writes a question set to file: one question for each of n
// chunks spread evenly over the store's records, written by the chat
// model and kept only where its answer is in its chunk (package
// evaluate's Judge.Generate).
func generate(ctx context.Context, store *memory.Store, m *models, n int, file string, ios ios) error {
	var chunks []evaluate.Chunk
	ids, err := store.DocumentIDs(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		recs, err := store.Range(ctx, id, 0, math.MaxInt)
		if err != nil {
			return err
		}
		for _, r := range recs {
			chunks = append(chunks, evaluate.Chunk{Doc: r.DocID, Start: r.Start, End: r.End, Text: r.Text})
		}
	}
	if len(chunks) > n {
		picked := make([]evaluate.Chunk, n)
		for i := range picked {
			picked[i] = chunks[i*len(chunks)/n]
		}
		chunks = picked
	}
	chat := evaluate.ChatFunc(func(ctx context.Context, prompt string) (string, error) {
		r, err := m.chat.Chat(ctx, []openai.Message{{Role: openai.RoleUser, Content: prompt}}, openai.ChatOptions{Model: m.chatModel})
		return r.Content, err
	})
	judge, err := evaluate.NewJudge(evaluate.JudgeConfig{Chat: chat})
	if err != nil {
		return err
	}
	fmt.Fprintf(ios.stderr, "writing questions for %d chunks with %s...\n", len(chunks), m.chatModel)
	g, err := judge.Generate(ctx, chunks, 1)
	if err != nil {
		return err
	}
	for _, e := range g.Failed {
		fmt.Fprintf(ios.stderr, "no question: %v\n", e)
	}
	fmt.Fprintf(ios.stderr, "%d questions written to %s (%d duplicates dropped, %d chunks without one); %d model calls\n",
		len(g.Questions), file, g.Duplicates, len(g.Failed), judge.Calls())
	if len(g.Questions) == 0 {
		return errors.New("-generate: the model wrote no question grounded in its chunk")
	}
	out, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if err := evaluate.WriteQuestions(out, g.Questions); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
