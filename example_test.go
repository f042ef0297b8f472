package ragkit_test

import (
	"context"
	"fmt"
	"testing/fstest"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/loader"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/window"
)

// The whole flow on a folder of a Markdown and a plain-text note: load,
// chunk each as its format, add contextual headers, embed and index; then
// retrieve the relevant segment for a question and assemble a prompt that
// fits its budget, labelled with its source from the records alone.
func Example() {
	ctx := context.Background()
	folder := fstest.MapFS{
		"travel.md": {Data: []byte("# Travel policy\n\n## Hotels\n\nThe nightly limit is 170 euros, breakfast included. " +
			"Book through the agency.\n\n## Trains\n\nTrains are second class. First class needs approval.")},
		"incidents.txt": {Data: []byte("INCIDENT REPORT\n\nOn 3 May the lab lost power for two hours. " +
			"No samples were lost.\n\nACTIONS\n\nA second feed is planned for the autumn.")},
	}
	loaded, err := loader.FS(ctx, folder, loader.Config{}) // titles, formats, skipped files reported
	if err != nil {
		panic(err)
	}

	tok, err := tokencount.ForModel("gpt-4o")
	if err != nil {
		panic(err)
	}
	headers, err := contextheader.New(contextheader.Config{Tokenizer: tok}) // title and section path
	if err != nil {
		panic(err)
	}
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 24})
	if err != nil {
		panic(err)
	}
	emb, store := &lexical.Embedder{}, &memory.Store{}
	ix, err := ingest.New(ingest.Config{Chunker: c, Headers: headers, Embedder: emb, Store: store})
	if err != nil {
		panic(err)
	}
	if _, err := ix.Index(ctx, loaded.Documents...); err != nil {
		panic(err)
	}

	segments, err := window.NewExtractor(window.ExtractorConfig{Tokenizer: tok})
	if err != nil {
		panic(err)
	}
	r, err := retrieve.New(retrieve.Config{Store: store, Embedder: emb, Widener: segments, Passages: 2})
	if err != nil {
		panic(err)
	}
	question := "How much may a hotel night cost?"
	passages, err := r.Retrieve(ctx, question)
	if err != nil {
		panic(err)
	}
	context, err := retrieve.Items(passages, retrieve.ItemConfig{Label: retrieve.Citation})
	if err != nil {
		panic(err)
	}
	a, err := budget.New(budget.Config{Tokenizer: tok, Limit: 200, Reserve: 50})
	if err != nil {
		panic(err)
	}
	res, err := a.Assemble(
		budget.Section{Name: "instructions", Priority: 3, Required: true,
			Items: []budget.Item{{Text: "Answer from the context only; cite the source."}}},
		budget.Section{Name: "context", Priority: 1, MaxTokens: 60, Strategy: budget.DropLowestRank, Items: context},
		budget.Section{Name: "question", Priority: 2, Required: true, Items: []budget.Item{{Text: question}}},
	)
	if err != nil {
		panic(err)
	}
	for _, p := range passages {
		fmt.Println(retrieve.Citation(p), p.Tokens, "tokens")
	}
	fmt.Println(res.Tokens == tok.Count(res.Text)) // the total is the exact count
	fmt.Println(res.Text)
	fmt.Print(res)
	// Output:
	// [Travel policy, Hotels] 38 tokens
	// [INCIDENT REPORT] 33 tokens
	// true
	// Answer from the context only; cite the source.
	//
	// [Travel policy, Hotels]
	// # Travel policy
	//
	// ## Hotels
	//
	// The nightly limit is 170 euros, breakfast included. Book through the agency.
	//
	// ## Trains
	//
	// Trains are second class. First class needs approval.
	//
	// How much may a hotel night cost?
	// section      | tokens | budget | use | status
	// -------------+--------+--------+-----+---------------------------------
	// instructions |     10 |      - |   - | preserved
	// context      |     44 |     60 | 73% | truncated (1 of 2 items dropped)
	// question     |      8 |      - |   - | preserved
	// -------------+--------+--------+-----+---------------------------------
	// total        |     62 |    150 | 41% | limit 200, reserve 50
}
