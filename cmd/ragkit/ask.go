package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/llm/openai"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/window"
)

// instructions open every prompt.
const instructions = "Answer the question from the context below only. " +
	"Cite the source of each fact in square brackets. " +
	"If the context does not hold the answer, say that you do not know."

// promptStart and promptEnd frame the prompt that -prompt prints, as the
// quickstart frames it.
const (
	promptStart = "----- prompt -----"
	promptEnd   = "----- end of prompt -----"
)

// Prompt limits: a small model's context window, with room for the answer.
const (
	promptLimit   = 8192
	promptReserve = 1024
)

// maxQuestion bounds a question read by -i.
const maxQuestion = 64 << 10

type askFlags struct {
	indexFlags
	question    string
	interactive bool
	budget      int
	k, perDoc   int
	showPrompt  bool
	verbose     bool
}

// askCmd answers questions from a folder.
func askCmd(ctx context.Context, args []string, ios ios) error {
	var f askFlags
	fs := newFlags("ask", "-dir DIR (-q QUESTION | -i) [flags]", ios.stderr)
	f.register(fs, defaultMaxTokens)
	fs.StringVar(&f.question, "q", "", "the question to answer")
	fs.BoolVar(&f.interactive, "i", false, "ask questions read from standard input, one per line, until an empty line or its end")
	fs.IntVar(&f.budget, "budget", 1500, "the most tokens of retrieved context in the prompt")
	fs.IntVar(&f.k, "k", 6, "how many hits each search returns before they are widened into passages (0: the Retriever's default)")
	fs.IntVar(&f.perDoc, "per-doc", 0, "the most passages of one document in a prompt (0: no cap)")
	fs.BoolVar(&f.showPrompt, "prompt", false, "print each assembled prompt")
	fs.BoolVar(&f.verbose, "v", false, "print how long each stage of the retrieval took")
	err := parse(fs, args, func(rest []string) error {
		switch {
		case len(rest) > 0:
			return fmt.Errorf("unexpected argument %q (a question goes after -q)", rest[0])
		case f.question == "" && !f.interactive:
			return errors.New("-q QUESTION or -i is required")
		case f.question != "" && f.interactive:
			return errors.New("-q and -i do not go together")
		case f.budget < 1:
			return fmt.Errorf("-budget must be positive, got %d", f.budget)
		case f.k < 0 || f.perDoc < 0:
			return errors.New("-k and -per-doc must not be negative")
		}
		return f.check()
	})
	if err != nil {
		return err
	}
	store, m, docs, _, err := openIndex(ctx, f.indexFlags, ios.stderr)
	if err != nil {
		return err
	}
	defer store.Close()
	a := &asker{f: f, m: m, docs: map[string]document.Document{}, ios: ios}
	for _, d := range docs {
		a.docs[d.ID] = d
	}
	// Relevant segment extraction: each document's hits become the
	// passages their relevance supports.
	extract, err := window.NewExtractor(window.ExtractorConfig{Source: store, Tokenizer: m.tokenizer})
	if err != nil {
		return err
	}
	if a.r, err = retrieve.New(retrieve.Config{Store: store, Embedder: m.embedder, Depth: f.k, Widener: extract,
		Reranker: m.reranker, Diversity: retrieve.Diversity{PerDocument: f.perDoc}}); err != nil {
		return err
	}
	if a.asm, err = budget.New(budget.Config{Tokenizer: m.tokenizer, Limit: promptLimit, Reserve: promptReserve}); err != nil {
		return err
	}
	if !f.interactive {
		return a.ask(ctx, 1, f.question)
	}
	sc := bufio.NewScanner(ios.stdin)
	sc.Buffer(make([]byte, 4096), maxQuestion)
	for n := 1; ; n++ {
		fmt.Fprint(ios.stderr, "question (empty line or end of input to stop)> ")
		if !sc.Scan() {
			fmt.Fprintln(ios.stderr)
			if errors.Is(sc.Err(), bufio.ErrTooLong) {
				return fmt.Errorf("a question of more than %d KiB", maxQuestion>>10)
			}
			return sc.Err()
		}
		q := strings.TrimSpace(sc.Text())
		if q == "" {
			return nil
		}
		if err := a.ask(ctx, n, q); err != nil {
			return err
		}
	}
}

type asker struct {
	f    askFlags
	m    *models
	docs map[string]document.Document // by ID, for the passages' locations
	r    *retrieve.Retriever
	asm  *budget.Assembler
	ios  ios
}

// ask retrieves the context of one question, prints it, assembles the
// prompt and, with a chat model, streams the answer.
func (a *asker) ask(ctx context.Context, n int, question string) error {
	found, err := a.r.RetrieveQuery(ctx, retrieve.Query{Question: question})
	if err != nil {
		return err
	}
	passages := found.Passages
	out := a.ios.stdout
	fmt.Fprintf(out, "\nQ%d. %s\n", n, question)
	if a.f.verbose {
		fmt.Fprintln(out, stageTimes(found.Stats))
	}
	if err := a.printPassages(passages); err != nil {
		return err
	}
	res, err := a.prompt(question, passages)
	if err != nil {
		return err
	}
	if a.f.showPrompt {
		fmt.Fprintf(out, "\n%s\n%s\n%s\n", promptStart, res.Text, promptEnd)
	}
	fmt.Fprintf(out, "\nprompt: %d tokens (exact count of the assembled text)\n%s", res.Tokens, res)
	if a.m.chat == nil {
		return nil
	}
	fmt.Fprintf(a.ios.stderr, "asking %s...\n", a.m.chatModel)
	fmt.Fprintf(out, "\nanswer (%s):\n", a.m.chatModel)
	_, err = a.m.chat.ChatStream(ctx, openai.MessagesOf(res.Messages), openai.ChatOptions{Model: a.m.chatModel}, func(delta string) error {
		_, err := io.WriteString(out, delta)
		return err
	})
	fmt.Fprintln(out)
	return err
}

// stageTimes is one line of a retrieval's stage timings, the stages that
// ran, as -v prints it.
func stageTimes(s retrieve.Stats) string {
	short := func(d time.Duration) string {
		if d >= time.Microsecond {
			d = d.Round(time.Microsecond)
		}
		return d.String()
	}
	parts := []string{"retrieval " + short(s.Total) + ":"}
	for _, st := range []struct {
		name string
		d    time.Duration
	}{
		{"rewrite", s.Rewrite}, {"embed", s.Embed}, {"vector search", s.VectorSearch},
		{"keyword search", s.KeywordSearch}, {"fusion", s.Fusion}, {"widen", s.Widen},
		{"rerank", s.Rerank}, {"diversity", s.Diversity},
	} {
		if st.d > 0 {
			parts = append(parts, st.name+" "+short(st.d))
		}
	}
	return strings.Join(parts, " ")
}

// prompt assembles the prompt of a question from its passages: the
// instructions, the passages as context within the -budget (sized to
// share it, each cut around its hits), and the question.
func (a *asker) prompt(question string, passages []retrieve.Passage) (budget.Result, error) {
	const heading = "Context:"
	items, err := retrieve.Items(passages, retrieve.ItemConfig{Label: a.label,
		Room: max(0, a.f.budget-a.m.tokenizer.Count(heading+"\n")), Tokenizer: a.m.tokenizer})
	if err != nil {
		return budget.Result{}, err
	}
	return a.asm.Assemble(
		budget.Section{Name: "instructions", Priority: 3, Required: true, Role: openai.RoleSystem,
			Items: []budget.Item{{Text: instructions}}},
		budget.Section{Name: "context", Priority: 1, MaxTokens: a.f.budget, Strategy: budget.DropLowestRank,
			Cut: budget.CutEnd, Heading: heading, Role: openai.RoleUser, Items: items},
		budget.Section{Name: "question", Priority: 2, Required: true, Role: openai.RoleUser,
			Items: []budget.Item{{Text: "Question: " + question}}},
	)
}

// location returns where a passage is in its source file, such as
// "sheet Costs, rows 2-5", or "" where the document has no marks.
func (a *asker) location(p retrieve.Passage) string {
	d, ok := a.docs[p.DocID]
	if !ok || p.End <= p.Start {
		return ""
	}
	return d.Locate(p.Start, p.End).String()
}

// label is the passage's provenance line in the prompt: its title and
// section, then its file and the place in it, such as "[Station records,
// Staff (station.xlsx, sheet Staff, row 2)]".
func (a *asker) label(p retrieve.Passage) string {
	where := p.DocID
	if loc := a.location(p); loc != "" {
		where += ", " + loc
	}
	c := retrieve.Citation(p)
	if p.Title == "" || p.Title == p.DocID {
		if where == p.DocID {
			return c
		}
		return strings.TrimSuffix(c, "]") + " (" + strings.TrimPrefix(where, p.DocID+", ") + ")]"
	}
	return strings.TrimSuffix(c, "]") + " (" + where + ")]"
}

// printPassages prints the passages as a table, best first, each row
// followed by the start of the passage's text.
func (a *asker) printPassages(ps []retrieve.Passage) error {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "#\tscore\thits\tsource\tlocation\tsection\ttokens")
	for i, p := range ps {
		section := strings.Join(p.Section, " > ")
		if section == "" {
			section = "-"
		}
		loc := a.location(p)
		if loc == "" {
			loc = "-"
		}
		fmt.Fprintf(w, "%d\t%.4f\t%d\t%s\t%s\t%s\t%d\n", i+1, p.Score, len(p.Hits), p.DocID, loc, section, p.Tokens)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	fmt.Fprintln(a.ios.stdout, lines[0])
	for i, p := range ps {
		fmt.Fprintf(a.ios.stdout, "%s\n      %s\n", lines[i+1], excerpt(p.Text, 96))
	}
	return nil
}

// excerpt returns the start of a text on one line, without Markdown
// headings, cut at a word to at most n bytes.
func excerpt(text string, n int) string {
	var words []string
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			words = append(words, strings.Fields(line)...)
		}
	}
	s := strings.Join(words, " ")
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndexByte(s[:n], ' '); i > 0 {
		return s[:i] + " …"
	}
	return strings.ToValidUTF8(s[:n], "") + " …"
}
