package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/examples/quickstart/corpus"
	"github.com/ragkit/ragkit/llm/openai"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/window"
)

// builtinQuestions are asked when neither -q nor -i is given: the
// corpus's own questions, each answered by one document whose answering
// section does not name what the question names, so that the contextual
// headers are what find it.
var builtinQuestions = corpus.Questions

// instructions open every prompt.
const instructions = "Answer the question from the context below only. " +
	"Cite the source of each fact in square brackets. " +
	"If the context does not hold the answer, say that you do not know."

// contextHeading is the heading of the prompt's context section.
const contextHeading = "Context:"

// promptStart and promptEnd frame the prompt that -prompt prints.
const (
	promptStart = "----- prompt -----"
	promptEnd   = "----- end of prompt -----"
)

// Prompt limits: a small model's context window, with room for the answer.
const (
	promptLimit   = 8192
	promptReserve = 1024
)

// askAll answers the questions of the run: -q, -i or the built-in ones.
func askAll(ctx context.Context, o options, m *models, ix *index, stdout, stderr io.Writer) error {
	// Relevant segment extraction: each document's hits become the
	// passages their relevance supports, a chunk for a lone hit, a section
	// or more where hits cluster.
	extract, err := window.NewExtractor(window.ExtractorConfig{Tokenizer: m.tokenizer})
	if err != nil {
		return err
	}
	cfg := retrieve.Config{Store: ix.store, Embedder: m.embedder, Depth: o.k, Widener: extract,
		Diversity: retrieve.Diversity{PerDocument: o.perDoc}}
	if m.chat != nil && o.interactive && o.turns > 0 {
		// A follow-up is condensed with the turns before it; offline it
		// is searched as it is.
		cond, err := openai.NewCondenser(openai.CondenserConfig{Client: m.chat, Model: m.chatModel, MaxTurns: o.turns})
		if err != nil {
			return err
		}
		cfg.Rewriter = cond
	}
	r, err := retrieve.New(cfg)
	if err != nil {
		return err
	}
	asm, err := budget.New(budget.Config{Tokenizer: m.tokenizer, Limit: promptLimit, Reserve: promptReserve})
	if err != nil {
		return err
	}
	a := asker{o: o, m: m, r: r, asm: asm, stdout: stdout, stderr: stderr}
	switch {
	case o.question != "":
		return a.ask(ctx, 1, o.question)
	case o.interactive:
		return a.loop(ctx)
	}
	for i, q := range builtinQuestions {
		if err := a.ask(ctx, i+1, q); err != nil {
			return err
		}
	}
	return nil
}

type asker struct {
	o      options
	m      *models
	r      *retrieve.Retriever
	asm    *budget.Assembler
	stdout io.Writer
	stderr io.Writer
	// conv is the conversation of -i, oldest turn first: at most -turns.
	conv []retrieve.Turn
}

// clearCommand is the line of -i that forgets the conversation.
const clearCommand = "/clear"

// Conversation limits: an answer kept for later turns is cut to
// maxAnswer bytes, and the earlier turns take at most conversationTokens
// of the prompt, the oldest dropped first.
const (
	maxAnswer          = 8 << 10
	conversationTokens = 512
)

// remember adds a turn to the conversation, dropping the oldest beyond
// -turns.
func (a *asker) remember(question, answer string) {
	if a.o.turns == 0 {
		return
	}
	if len(answer) > maxAnswer {
		answer = short(answer, maxAnswer)
	}
	a.conv = append(a.conv, retrieve.Turn{Question: question, Answer: answer})
	if extra := len(a.conv) - a.o.turns; extra > 0 {
		a.conv = slices.Delete(a.conv, 0, extra)
	}
}

// conversation returns the earlier turns as the items of the prompt's
// conversation section: each turn's question and answer a group, so
// that a turn is kept or dropped whole.
func (a *asker) conversation() []budget.Item {
	var items []budget.Item
	for i, t := range a.conv {
		g := "turn " + strconv.Itoa(i+1)
		items = append(items, budget.Item{Text: "Question: " + t.Question, Role: openai.RoleUser, Group: g})
		if t.Answer != "" {
			items = append(items, budget.Item{Text: t.Answer, Role: openai.RoleAssistant, Group: g})
		}
	}
	return items
}

// maxQuestion bounds a question read by -i: a longer line is skipped
// with a warning, and the loop goes on.
const maxQuestion = 64 << 10

// loop asks the questions read from stdin, one per line.
func (a *asker) loop(ctx context.Context) error {
	r := bufio.NewReader(stdin)
	for n := 1; ; {
		fmt.Fprint(a.stderr, "question (empty line or end of input to stop, /clear to forget the conversation)> ")
		line, long, err := readLine(r, maxQuestion)
		if long {
			fmt.Fprintf(a.stderr, "skipping a question of more than %d KiB\n", maxQuestion>>10)
			continue
		}
		q := strings.TrimSpace(line)
		if q == clearCommand {
			a.conv = a.conv[:0]
			fmt.Fprintln(a.stdout, "\n(conversation cleared)")
			continue
		}
		if q == "" {
			fmt.Fprintln(a.stderr)
			if err == io.EOF {
				err = nil
			}
			return err
		}
		if err := a.ask(ctx, n, q); err != nil {
			return err
		}
		n++
	}
}

// readLine reads a line of any length from r, keeping at most limit bytes
// of it: long reports a line that was longer. At the end of the input it
// returns what it read with io.EOF.
func readLine(r *bufio.Reader, limit int) (line string, long bool, err error) {
	var b []byte
	for {
		frag, more, err := r.ReadLine()
		if len(b)+len(frag) > limit {
			long = true
		} else {
			b = append(b, frag...)
		}
		if err != nil || !more {
			if long {
				b = nil
			}
			return string(b), long, err
		}
	}
}

// ask retrieves the context of one question, prints it, assembles the
// prompt and, with a chat model, streams the answer.
func (a *asker) ask(ctx context.Context, n int, question string) error {
	res, err := a.r.RetrieveQuery(ctx, retrieve.Query{Question: question, Conversation: a.conv})
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "\nQ%d. %s\n", n, question)
	a.printConversation(question, res.Questions)
	printPassages(a.stdout, res.Passages)
	// The passages share the context's budget (less its heading), each cut
	// around its hits, so that one long segment cannot crowd out the next
	// document's best hit.
	items, err := retrieve.Items(res.Passages, retrieve.ItemConfig{Label: retrieve.Citation,
		Room: max(0, a.o.budget-a.m.tokenizer.Count(contextHeading+"\n")), Tokenizer: a.m.tokenizer})
	if err != nil {
		return err
	}
	sections := []budget.Section{
		{Name: "instructions", Priority: 3, Required: true, Role: openai.RoleSystem,
			Items: []budget.Item{{Text: instructions}}},
	}
	if len(a.conv) > 0 {
		// Earlier turns give way first, the oldest first.
		sections = append(sections, budget.Section{Name: "conversation", Priority: 0, MaxTokens: conversationTokens,
			Strategy: budget.DropOldest, Items: a.conversation()})
	}
	sections = append(sections,
		budget.Section{Name: "context", Priority: 1, MaxTokens: a.o.budget, Strategy: budget.DropLowestRank,
			Cut: budget.CutEnd, Heading: contextHeading, Role: openai.RoleUser, Items: items},
		budget.Section{Name: "question", Priority: 2, Required: true, Role: openai.RoleUser,
			Items: []budget.Item{{Text: "Question: " + question}}},
	)
	prompt, err := a.asm.Assemble(sections...)
	if err != nil {
		return err
	}
	if a.o.showPrompt {
		fmt.Fprintf(a.stdout, "\n%s\n%s\n%s\n", promptStart, prompt.Text, promptEnd)
	}
	fmt.Fprintf(a.stdout, "\nprompt: %d tokens (exact count of the assembled text)\n%s", prompt.Tokens, prompt)
	answer := ""
	if a.m.chat != nil {
		if answer, err = a.answer(ctx, prompt); err != nil {
			return err
		}
	}
	if a.o.interactive {
		a.remember(question, answer)
	}
	return nil
}

// printConversation shows the earlier turns a question is asked after,
// and the standalone question searched if the follow-up was condensed.
func (a *asker) printConversation(question string, searched []string) {
	if len(a.conv) == 0 {
		return
	}
	fmt.Fprintf(a.stdout, "after %d earlier %s (%s forgets them):\n", len(a.conv), plural(len(a.conv), "turn", "turns"), clearCommand)
	for i, t := range a.conv {
		fmt.Fprintf(a.stdout, "  %d. %s\n", i+1, short(t.Question, 80))
	}
	if !slices.Equal(searched, []string{question}) {
		fmt.Fprintf(a.stdout, "searched: %s\n", strings.Join(searched, " | "))
	}
}

// short returns s cut to at most n bytes at a character boundary, with a
// marker.
func short(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// answer streams the model's answer to the assembled prompt and returns
// it.
func (a *asker) answer(ctx context.Context, res budget.Result) (string, error) {
	msgs := openai.MessagesOf(res.Messages)
	fmt.Fprintf(a.stderr, "asking %s...\n", a.m.chatModel)
	fmt.Fprintf(a.stdout, "\nanswer (%s):\n", a.m.chatModel)
	reply, err := a.m.chat.ChatStream(ctx, msgs, openai.ChatOptions{Model: a.m.chatModel}, func(delta string) error {
		_, err := io.WriteString(a.stdout, delta)
		return err
	})
	fmt.Fprintln(a.stdout)
	return reply.Content, err
}
