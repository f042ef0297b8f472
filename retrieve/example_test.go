package retrieve_test

import (
	"context"
	"fmt"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/window"
)

// Hits of a search become the items of a prompt's context section, each
// labelled with its source, ranked by score.
func ExampleItems() {
	ctx := context.Background()
	texts := []string{
		"Hotels may cost up to 170 euros a night.",
		"Claims are entered within 30 days.",
		"The daily meal allowance is 55 euros.",
	}
	emb := &vectorstore.Lexical{}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		panic(err)
	}
	store := &vectorstore.Memory{}
	for i, text := range texts {
		rec := vectorstore.Record{ID: fmt.Sprint("policy#", i), DocID: "policy", Index: i,
			Start: 100 * i, End: 100*i + len(text), Text: text, Vector: vecs[i]}
		if err := store.Upsert(ctx, rec); err != nil {
			panic(err)
		}
	}
	search, err := vectorstore.NewHybrid(vectorstore.HybridConfig{Store: store, Embedder: emb})
	if err != nil {
		panic(err)
	}
	hits, err := search.Query(ctx, "How much may a hotel cost a night?", 2, vectorstore.Filter{})
	if err != nil {
		panic(err)
	}

	items, err := retrieve.Items(hits, retrieve.ItemConfig{
		Label: func(o retrieve.Origin) string { return fmt.Sprintf("[%s, bytes %d-%d]", o.DocID, o.Start, o.End) },
	})
	if err != nil {
		panic(err)
	}
	tok, err := tokencount.Encoding("cl100k_base")
	if err != nil {
		panic(err)
	}
	a, err := budget.New(budget.Config{Tokenizer: tok, Limit: 100})
	if err != nil {
		panic(err)
	}
	res, err := a.Assemble(budget.Section{Name: "context", MaxTokens: 30, Strategy: budget.DropLowestRank, Items: items})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Text)
	// Output:
	// [policy, bytes 0-40]
	// Hotels may cost up to 170 euros a night.
}

// Sentence windows: the document is embedded sentence by sentence, and the
// best hit grows into the sentences around it before it becomes an item.
func ExampleWindowItems() {
	ctx := context.Background()
	doc := "Trains are second class. First class needs approval.\n\n" +
		"Hotels may cost 170 euros a night. Breakfast is included. Taxes are included.\n\n" +
		"Taxis are for late nights."
	units, err := window.Sentences("travel", doc, nil)
	if err != nil {
		panic(err)
	}
	emb := &vectorstore.Lexical{}
	texts := make([]string, len(units))
	for i, u := range units {
		texts[i] = u.Text
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		panic(err)
	}
	for i := range units {
		units[i].Vector = vecs[i]
	}
	store := &vectorstore.Memory{}
	if err := store.Upsert(ctx, units...); err != nil {
		panic(err)
	}
	q, err := emb.Embed(ctx, []string{"How much may a hotel cost?"})
	if err != nil {
		panic(err)
	}
	hits, err := store.Query(ctx, q[0], 1, vectorstore.Filter{})
	if err != nil {
		panic(err)
	}
	x, err := window.NewExpander(window.ExpanderConfig{Source: store, Size: 1})
	if err != nil {
		panic(err)
	}
	ws, err := x.Expand(ctx, hits)
	if err != nil {
		panic(err)
	}

	items, err := retrieve.WindowItems(ws, retrieve.ItemConfig{
		Label: func(o retrieve.Origin) string { return fmt.Sprintf("[%s, bytes %d-%d]", o.DocID, o.Start, o.End) },
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(items[0].ID)
	fmt.Println(items[0].Text)
	// Output:
	// travel#1-3
	// [travel, bytes 25-111]
	// First class needs approval.
	//
	// Hotels may cost 170 euros a night. Breakfast is included.
}
