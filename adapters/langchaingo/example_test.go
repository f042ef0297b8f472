package langchaingo_test

import (
	"context"
	"fmt"

	"github.com/ragkit/ragkit/adapters/internal/testdoc"
	"github.com/ragkit/ragkit/adapters/langchaingo"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/tmc/langchaingo/schema"
	"github.com/tmc/langchaingo/vectorstores"
)

// langchaingo's retrieval example (split documents, add them to a vector
// store, ask its retriever, put what it found into the prompt), with ragkit's
// chunker and contextual headers as the splitter, a ragkit store behind
// langchaingo's VectorStore, and ragkit's budget fitting the chunks found
// into the prompt by exact count. It runs offline: lexical.Embedder
// embeds, and the prompt is printed rather than sent to a model.
func Example() {
	ctx := context.Background()
	tok, err := tokencount.Encoding("cl100k_base")
	if err != nil {
		panic(err)
	}
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 40, Format: document.Markdown})
	if err != nil {
		panic(err)
	}
	headers, err := contextheader.New(contextheader.Config{Tokenizer: tok})
	if err != nil {
		panic(err)
	}
	splitter, err := langchaingo.NewSplitter(langchaingo.SplitterConfig{Chunker: c, Decorator: headers, DocIDKey: "source"})
	if err != nil {
		panic(err)
	}
	docs, err := splitter.SplitDocuments(ctx, []schema.Document{{
		PageContent: testdoc.Policy,
		Metadata:    map[string]any{"source": "travel.md", meta.TitleKey: "Acme travel policy"},
	}})
	if err != nil {
		panic(err)
	}

	lex, err := lexical.New(lexical.Config{})
	if err != nil {
		panic(err)
	}
	store, err := langchaingo.NewStore(langchaingo.StoreConfig{Store: new(memory.Store), Embedder: lex})
	if err != nil {
		panic(err)
	}
	if _, err := store.AddDocuments(ctx, docs); err != nil {
		panic(err)
	}

	question := "How much is the meal allowance in Switzerland?"
	found, err := vectorstores.ToRetriever(store, 3).GetRelevantDocuments(ctx, question)
	if err != nil {
		panic(err)
	}
	passages, err := langchaingo.Passages(found)
	if err != nil {
		panic(err)
	}
	items, err := retrieve.Items(passages, retrieve.ItemConfig{Label: retrieve.Citation})
	if err != nil {
		panic(err)
	}
	a, err := budget.New(budget.Config{Tokenizer: tok, Limit: 160, Reserve: 40})
	if err != nil {
		panic(err)
	}
	prompt, err := a.Assemble(
		budget.Section{Name: "instructions", Priority: 3, Items: []budget.Item{{Text: "Answer from the context and cite it."}}},
		budget.Section{Name: "question", Priority: 2, Required: true, Items: []budget.Item{{Text: question}}},
		budget.Section{Name: "context", Priority: 1, MaxTokens: 80, Strategy: budget.DropLowestRank, Heading: "Context:", Items: items},
	)
	if err != nil {
		panic(err)
	}
	fmt.Println(prompt.Text)
	fmt.Println()
	fmt.Print(prompt)
	// Output:
	// Answer from the context and cite it.
	//
	// How much is the meal allowance in Switzerland?
	//
	// Context:
	// [Acme travel policy, Travel policy > Meals]
	// ## Meals
	//
	// The daily allowance for meals is 45 euros in Germany and 60 euros in Switzerland. Receipts are kept for six years.
	//
	// section      | tokens | budget | use | status
	// -------------+--------+--------+-----+---------------------------------
	// instructions |      8 |      - |   - | preserved
	// question     |      9 |      - |   - | preserved
	// context      |     42 |     80 | 53% | truncated (2 of 3 items dropped)
	// -------------+--------+--------+-----+---------------------------------
	// total        |     59 |    120 | 49% | limit 160, reserve 40
}
