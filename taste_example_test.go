package ragkit_test

import (
	"context"
	"fmt"
	"log"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// The README's "A taste", word for word (TestReadmeTaste keeps the two
// equal): index a document, retrieve the passage that answers a question,
// and assemble a prompt within budgets.
func Example_taste() {
	ctx := context.Background()
	tok, err := tokencount.ForModel("gpt-4o") // o200k_base, exact, offline
	if err != nil {
		log.Fatal(err)
	}
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 24})
	if err != nil {
		log.Fatal(err)
	}
	emb, store := &lexical.Embedder{}, &memory.Store{} // offline; bring your own model and database
	ix, err := ingest.New(ingest.Config{Chunker: c, Embedder: emb, Store: store})
	if err != nil {
		log.Fatal(err)
	}
	_, err = ix.Index(ctx, document.Document{ID: "keeper.md", Title: "The keeper", Format: document.Markdown,
		Text: "# The keeper\n\n## Nights\n\nShips passed the headland at night; sailors counted the flashes.\n\n" +
			"## Winters\n\nIn winter storms the keeper stayed awake for days on end."})
	if err != nil {
		log.Fatal(err)
	}

	question := "What did sailors count?"
	r, err := retrieve.New(retrieve.Config{Store: store, Embedder: emb, Passages: 1})
	if err != nil {
		log.Fatal(err)
	}
	passages, err := r.Retrieve(ctx, question) // best first, with title, section, offsets, tokens
	if err != nil {
		log.Fatal(err)
	}
	context, err := retrieve.Items(passages, retrieve.ItemConfig{Label: retrieve.Citation})
	if err != nil {
		log.Fatal(err)
	}
	a, err := budget.New(budget.Config{Tokenizer: tok, Limit: 100})
	if err != nil {
		log.Fatal(err)
	}
	res, err := a.Assemble(
		budget.Section{Name: "instructions", Priority: 3, Required: true, Items: []budget.Item{{Text: "Answer from the context only."}}},
		budget.Section{Name: "context", Priority: 1, MaxTokens: 40, Items: context},
		budget.Section{Name: "question", Priority: 2, Required: true, Items: []budget.Item{{Text: question}}},
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Text)
	fmt.Print(res) // the report: exact counts, what was kept, cut or dropped
	// Output:
	// Answer from the context only.
	//
	// [The keeper, Nights]
	// # The keeper
	//
	// ## Nights
	//
	// Ships passed the headland at night; sailors counted the flashes.
	//
	// What did sailors count?
	// section      | tokens | budget | use | status
	// -------------+--------+--------+-----+---------------------
	// instructions |      6 |      - |   - | preserved
	// context      |     26 |     40 | 65% | preserved
	// question     |      5 |      - |   - | preserved
	// -------------+--------+--------+-----+---------------------
	// total        |     37 |    100 | 37% | limit 100, reserve 0
}
