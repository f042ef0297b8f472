package retrieve_test

import (
	"context"
	"fmt"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/window"
)

// From a question to the prompt: the Retriever searches by vector and by
// keywords, widens the best hit into a window of its neighbours, and the
// prompt labels it with its source.
func Example() {
	ctx := context.Background()
	// A store of sentences, labelled with their document's title and
	// section as ingest labels its records.
	doc := "Trains are second class. First class needs approval.\n\n" +
		"Hotels may cost 170 euros a night. Breakfast is included.\n\n" +
		"Taxis are for late nights."
	d := document.Document{ID: "travel.md", Text: doc}
	sentences, err := ingest.Sentences(ctx, d)
	if err != nil {
		panic(err)
	}
	units, err := ingest.Records(d, ingest.Plain(sentences), make([][]float32, len(sentences)))
	if err != nil {
		panic(err)
	}
	emb := &lexical.Embedder{}
	for i := range units {
		units[i].Title, units[i].Section = "Travel policy", []string{"Costs"}
		vecs, err := emb.Embed(ctx, []string{units[i].Text})
		if err != nil {
			panic(err)
		}
		units[i].Vector = vecs[0]
	}
	store := &memory.Store{}
	if err := store.Upsert(ctx, units...); err != nil {
		panic(err)
	}

	windows, err := window.NewExpander(window.ExpanderConfig{Source: store, Size: 1})
	if err != nil {
		panic(err)
	}
	r, err := retrieve.New(retrieve.Config{Store: store, Embedder: emb, Widener: windows, Depth: 1, Passages: 1})
	if err != nil {
		panic(err)
	}
	passages, err := r.Retrieve(ctx, "How much may a hotel cost?")
	if err != nil {
		panic(err)
	}
	items, err := retrieve.Items(passages, retrieve.ItemConfig{Label: retrieve.Citation})
	if err != nil {
		panic(err)
	}

	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	if err != nil {
		panic(err)
	}
	a, err := budget.New(budget.Config{Tokenizer: tok, Limit: 200})
	if err != nil {
		panic(err)
	}
	prompt, err := a.Assemble(
		budget.Section{Name: "context", Priority: 1, MaxTokens: 100, Strategy: budget.DropLowestRank, Heading: "Context:", Items: items},
		budget.Section{Name: "question", Priority: 2, Required: true, Items: []budget.Item{{Text: "How much may a hotel cost?"}}},
	)
	if err != nil {
		panic(err)
	}
	p := passages[0]
	fmt.Printf("%s, units %d-%d, bytes %d-%d, best hit unit %d\n\n", p.DocID, p.First, p.Last, p.Start, p.End, p.Hits[0].Index)
	fmt.Println(prompt.Text)
	// Output:
	// travel.md, units 1-3, bytes 25-111, best hit unit 2
	//
	// Context:
	// [Travel policy, Costs]
	// First class needs approval.
	//
	// Hotels may cost 170 euros a night. Breakfast is included.
	//
	// How much may a hotel cost?
}
