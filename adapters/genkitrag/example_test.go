package genkitrag_test

import (
	"context"
	"fmt"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/ragkit/ragkit/adapters/genkitrag"
	"github.com/ragkit/ragkit/adapters/internal/testdoc"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// Genkit's RAG sample (index documents, define a retriever, and a flow that
// retrieves for a question and builds the model's prompt from what it found),
// with ragkit's chunker and contextual headers cutting the documents, a
// ragkit store behind the retriever and indexer, and ragkit's budget fitting
// the prompt by exact count. It runs offline: lexical.Embedder embeds, and
// the flow returns the prompt where the sample would call genkit.Generate.
func Example() {
	ctx := context.Background()
	g := genkit.Init(ctx)
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
	splitter, err := genkitrag.NewSplitter(genkitrag.SplitterConfig{Chunker: c, Decorator: headers, DocIDKey: "source"})
	if err != nil {
		panic(err)
	}
	lex, err := lexical.New(lexical.Config{})
	if err != nil {
		panic(err)
	}
	store := genkitrag.Config{Store: new(memory.Store), Embedder: lex}
	indexer, err := genkitrag.NewIndexer(store)
	if err != nil {
		panic(err)
	}
	retriever, err := genkitrag.DefineRetriever(g, "travelPolicy", store)
	if err != nil {
		panic(err)
	}

	chunks, err := splitter.Split(ctx, []*ai.Document{ai.DocumentFromText(testdoc.Policy,
		map[string]any{"source": "travel.md", meta.TitleKey: "Acme travel policy"})})
	if err != nil {
		panic(err)
	}
	if err := indexer.Index(ctx, chunks); err != nil {
		panic(err)
	}

	a, err := budget.New(budget.Config{Tokenizer: tok, Limit: 160, Reserve: 40})
	if err != nil {
		panic(err)
	}
	qa := genkit.DefineFlow(g, "travelQA", func(ctx context.Context, question string) (string, error) {
		resp, err := genkit.Retrieve(ctx, g, ai.WithRetriever(retriever), ai.WithTextDocs(question),
			ai.WithConfig(&genkitrag.RetrieverOptions{K: 3}))
		if err != nil {
			return "", err
		}
		passages, err := genkitrag.Passages(resp.Documents)
		if err != nil {
			return "", err
		}
		items, err := retrieve.Items(passages, retrieve.ItemConfig{Label: retrieve.Citation})
		if err != nil {
			return "", err
		}
		prompt, err := a.Assemble(
			budget.Section{Name: "question", Priority: 2, Required: true, Items: []budget.Item{{Text: "Question: " + question}}},
			budget.Section{Name: "context", Priority: 1, MaxTokens: 60, Strategy: budget.DropLowestRank, Heading: "Use only this context:", Items: items},
		)
		if err != nil {
			return "", err
		}
		return prompt.Text, nil // the sample: genkit.GenerateText(ctx, g, ai.WithPrompt(prompt.Text))
	})
	prompt, err := qa.Run(ctx, "When may employees take a taxi?")
	if err != nil {
		panic(err)
	}
	fmt.Println(prompt)
	// Output:
	// Question: When may employees take a taxi?
	//
	// Use only this context:
	// [Acme travel policy, Travel policy > Ground transport]
	// # Travel policy
	//
	// ## Ground transport
	//
	// Employees take the train for trips under four hours. Taxis are allowed after 22:00 or with heavy luggage.
}
