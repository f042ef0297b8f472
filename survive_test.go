package ragkit_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/examples/quickstart/corpus"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/loader"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/window"
)

// inspectorPrompt runs the inspector's default pipeline on the
// quickstart's corpus (48-token chunks with title, section and summary
// headers, hybrid search, segments of at most 15 chunks, 6 passages) and
// assembles the prompt with the context section's budget.
func inspectorPrompt(t *testing.T, question string, contextBudget int) ([]retrieve.Passage, budget.Result) {
	t.Helper()
	ctx := context.Background()
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(t, err)
	res, err := loader.FS(ctx, corpus.FS, loader.Config{})
	require.NoError(t, err)
	dec, err := contextheader.New(contextheader.Config{Tokenizer: tok, MaxHeaderTokens: 64, Summarizer: &contextheader.Extractive{},
		Parts: []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.Section}, {Kind: contextheader.Summary}}})
	require.NoError(t, err)
	chunkers := map[document.Format]*chunker.Chunker{}
	for _, f := range []document.Format{document.Text, document.Markdown} {
		chunkers[f], err = chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 48, Format: f})
		require.NoError(t, err)
	}
	emb, store := &lexical.Embedder{}, &memory.Store{}
	ix, err := ingest.New(ingest.Config{Headers: dec, Embedder: emb, Store: store,
		Split: func(_ context.Context, d document.Document) ([]chunker.Chunk, error) {
			return chunkers[d.Format].Split(d.Text)
		}})
	require.NoError(t, err)
	_, err = ix.Index(ctx, res.Documents...)
	require.NoError(t, err)
	ext, err := window.NewExtractor(window.ExtractorConfig{Source: store, Tokenizer: tok, MaxUnits: 15})
	require.NoError(t, err)
	r, err := retrieve.New(retrieve.Config{Store: store, Embedder: emb, Passages: 6, Widener: ext, Tokenizer: tok})
	require.NoError(t, err)
	ps, err := r.Retrieve(ctx, question)
	require.NoError(t, err)
	// The passages share the context's budget, less its heading.
	items, err := retrieve.Items(ps, retrieve.ItemConfig{Label: retrieve.Citation, Room: contextBudget - tok.Count("Context:\n"), Tokenizer: tok})
	require.NoError(t, err)
	asm, err := budget.New(budget.Config{Tokenizer: tok, Limit: 8192, Reserve: 1024})
	require.NoError(t, err)
	prompt, err := asm.Assemble(
		budget.Section{Name: "instructions", Priority: 3, Required: true, Items: []budget.Item{{Text: "Answer the question from the context below only."}}},
		budget.Section{Name: "context", Priority: 1, MaxTokens: contextBudget, Strategy: budget.DropLowestRank,
			Cut: budget.CutEnd, Heading: "Context:", Items: items},
		budget.Section{Name: "question", Priority: 2, Required: true, Items: []budget.Item{{Text: "Question: " + question}}},
	)
	require.NoError(t, err)
	return ps, prompt
}

// Issue 44's two cases from the inspector: a passage cut to the budget
// keeps the sentence its best hit matched, not the passage's start.
func TestAnswerSurvivesTheBudget(t *testing.T) {
	tests := []struct {
		name     string
		question string
		budget   int
		passage  int // index of the passage that holds the answer
		answer   string
	}{
		{name: "a segment of a whole report cut to 60 tokens", question: "What was the gross margin in Q2 2026?", budget: 60,
			passage: 0, answer: "Gross margin was 43.0 percent"},
		{name: "the second passage cut after a whole first document", question: "What is the nightly hotel limit for staff of the Singapore office?", budget: 300,
			passage: 1, answer: "170 euros unless regional rules set another amount"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps, prompt := inspectorPrompt(t, tt.question, tt.budget)
			require.Greater(t, len(ps), tt.passage)
			require.Contains(t, ps[tt.passage].Text, tt.answer, "the retrieved passage holds the answer")
			ctx := prompt.Sections[1]
			require.LessOrEqual(t, ctx.Tokens, tt.budget)
			require.Contains(t, ctx.Items[tt.passage].Text, tt.answer, "the answer survives the budget")
		})
	}
}

// A passage that starts inside a Markdown table carries the table's
// header rows in the text the model reads, counted in its tokens, not
// only in the embedded header.
func TestTablePassageKeepsItsColumnNames(t *testing.T) {
	ctx := context.Background()
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(t, err)
	var b strings.Builder
	b.WriteString("# Office figures\n\nEach office's figures for the year.\n\n")
	head := "| Office | Revenue | Staff |\n|:--|--:|--:|"
	b.WriteString(head + "\n")
	for i := range 40 {
		fmt.Fprintf(&b, "| Office %d | %d | %d |\n", i, 1000+i*37, 10+i)
	}
	text := b.String()
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 60, Format: document.Markdown})
	require.NoError(t, err)
	dec, err := contextheader.New(contextheader.Config{Tokenizer: tok})
	require.NoError(t, err)
	emb, store := &lexical.Embedder{}, &memory.Store{}
	ix, err := ingest.New(ingest.Config{Chunker: c, Headers: dec, Embedder: emb, Store: store})
	require.NoError(t, err)
	_, err = ix.Index(ctx, document.Document{ID: "figures.md", Title: "Figures", Format: document.Markdown, Text: text})
	require.NoError(t, err)
	r, err := retrieve.New(retrieve.Config{Store: store, Embedder: emb, Passages: 1, Search: retrieve.Keywords})
	require.NoError(t, err)
	ps, err := r.Retrieve(ctx, "Which office had revenue 2221?")
	require.NoError(t, err)
	require.Len(t, ps, 1)
	require.Contains(t, ps[0].Text, "| Office 33 |")
	require.NotContains(t, ps[0].Text, "| Office | Revenue", "the passage starts inside the table")

	items, err := retrieve.Items(ps, retrieve.ItemConfig{Label: retrieve.Citation})
	require.NoError(t, err)
	require.Equal(t, "[Figures, Office figures]\n"+head+"\n"+ps[0].Text, items[0].Text)
	asm, err := budget.New(budget.Config{Tokenizer: tok, Limit: 1000})
	require.NoError(t, err)
	res, err := asm.Assemble(budget.Section{Name: "context", Items: items})
	require.NoError(t, err)
	require.Equal(t, tok.Count(items[0].Text), res.Tokens, "the header rows count in the prompt's tokens")

	// Cut to a few rows, the passage keeps the header rows and the row
	// that matches the question.
	res, err = asm.Assemble(budget.Section{Name: "context", MaxTokens: 40, Items: items})
	require.NoError(t, err)
	require.Contains(t, res.Text, head)
	require.Contains(t, res.Text, "| Office 33 | 2221 | 43 |")
}
