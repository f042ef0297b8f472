package eino_test

import (
	"context"
	"fmt"

	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/ragkit/ragkit/adapters/eino"
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

// eino's RAG example (an indexing chain of splitter and indexer, then a
// retrieval chain that turns the question and what the retriever found into
// chat messages for a model), with ragkit's chunker and contextual headers as
// the document.Transformer, a ragkit store behind eino's Indexer, ragkit's
// hybrid retrieve.Retriever as eino's Retriever, and ragkit's budget building
// the messages by exact count. It
// runs offline: lexical.Embedder embeds, and the messages are printed
// rather than sent to a chat model.
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
	splitter, err := eino.NewTransformer(eino.TransformerConfig{Chunker: c, Decorator: headers})
	if err != nil {
		panic(err)
	}
	lex, err := lexical.New(lexical.Config{})
	if err != nil {
		panic(err)
	}
	mem := new(memory.Store)
	indexer, err := eino.NewIndexer(eino.StoreConfig{Store: mem, Embedder: lex})
	if err != nil {
		panic(err)
	}
	// ragkit's query side (vector and keyword search, fused) as eino's retriever.
	search, err := retrieve.New(retrieve.Config{Store: mem, Embedder: lex, Passages: 3})
	if err != nil {
		panic(err)
	}
	retriever := eino.NewPassageRetriever(search)

	indexing, err := compose.NewChain[[]*schema.Document, []string]().
		AppendDocumentTransformer(splitter).
		AppendIndexer(indexer).
		Compile(ctx)
	if err != nil {
		panic(err)
	}
	doc := &schema.Document{ID: "travel.md", Content: testdoc.Policy, MetaData: map[string]any{meta.TitleKey: "Acme travel policy"}}
	if _, err := indexing.Invoke(ctx, []*schema.Document{doc}); err != nil {
		panic(err)
	}

	a, err := budget.New(budget.Config{Tokenizer: tok, Limit: 160, Reserve: 40})
	if err != nil {
		panic(err)
	}
	messages := func(ctx context.Context, in map[string]any) ([]*schema.Message, error) {
		passages, err := eino.Passages(in["docs"].([]*schema.Document))
		if err != nil {
			return nil, err
		}
		items, err := retrieve.Items(passages, retrieve.ItemConfig{Label: retrieve.Citation})
		if err != nil {
			return nil, err
		}
		res, err := a.Assemble(
			budget.Section{Name: "instructions", Priority: 3, Role: "system", Items: []budget.Item{{Text: "Answer from the context and cite its section."}}},
			budget.Section{Name: "context", Priority: 1, MaxTokens: 80, Role: "system", Strategy: budget.DropLowestRank, Items: items},
			budget.Section{Name: "question", Priority: 2, Required: true, Role: "user", Items: []budget.Item{{Text: in["question"].(string)}}},
		)
		if err != nil {
			return nil, err
		}
		out := make([]*schema.Message, len(res.Messages))
		for i, m := range res.Messages {
			out[i] = &schema.Message{Role: schema.RoleType(m.Role), Content: m.Content}
		}
		return out, nil
	}
	retrieval, err := compose.NewChain[string, []*schema.Message]().
		AppendParallel(compose.NewParallel().
			AddRetriever("docs", retriever).
			AddLambda("question", compose.InvokableLambda(func(_ context.Context, q string) (string, error) { return q, nil }))).
		AppendLambda(compose.InvokableLambda(messages)).
		Compile(ctx)
	if err != nil {
		panic(err)
	}
	msgs, err := retrieval.Invoke(ctx, "Which hotel price applies in Zurich?")
	if err != nil {
		panic(err)
	}
	for _, m := range msgs {
		fmt.Printf("%s: %s\n", m.Role, m.Content)
	}
	// Output:
	// system: Answer from the context and cite its section.
	// system: [Acme travel policy, Travel policy > Hotels]
	// ## Hotels
	//
	// Hotels are booked through the travel desk. A room costs at most 150 euros a night, 200 in Zurich and Geneva.
	// user: Which hotel price applies in Zurich?
}
