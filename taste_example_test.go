package ragkit_test

import (
	"fmt"
	"log"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/tokencount"
)

// The README's "A taste", word for word (TestReadmeTaste keeps the two
// equal): chunk a document, then assemble a prompt from instructions, the
// chunks as retrieved context and a question, within budgets.
func Example_taste() {
	document := "The keeper rose before dawn and trimmed the wick.\n\n" +
		"Ships passed the headland at night; sailors counted the flashes.\n\n" +
		"In winter storms the keeper stayed awake for days on end."

	tok, err := tokencount.ForModel("gpt-4o") // o200k_base, exact, offline
	if err != nil {
		log.Fatal(err)
	}
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 16})
	if err != nil {
		log.Fatal(err)
	}
	chunks, err := c.Split(document) // Index, Start, End, Text, Tokens, Boundary
	if err != nil {
		log.Fatal(err)
	}

	var retrieved []budget.Item // a search's hits, best first, with a Rank
	for i, ch := range chunks {
		retrieved = append(retrieved, budget.Item{Text: ch.Text, Rank: float64(len(chunks) - i)})
	}
	a, err := budget.New(budget.Config{Tokenizer: tok, Limit: 80, Reserve: 20})
	if err != nil {
		log.Fatal(err)
	}
	res, err := a.Assemble(
		budget.Section{Name: "instructions", Priority: 3, Required: true,
			Items: []budget.Item{{Text: "Answer from the context only."}}},
		budget.Section{Name: "context", Priority: 1, MaxTokens: 30, Strategy: budget.DropLowestRank,
			Items: retrieved},
		budget.Section{Name: "question", Priority: 2, Required: true,
			Items: []budget.Item{{Text: "What did sailors count?"}}},
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(chunks), "chunks;", res.Tokens == tok.Count(res.Text)) // the total is exact
	fmt.Print(res)                                                         // the report, as a table
	// Output:
	// 3 chunks; true
	// section      | tokens | budget | use | status
	// -------------+--------+--------+-----+---------------------------------
	// instructions |      6 |      - |   - | preserved
	// context      |     23 |     30 | 77% | truncated (1 of 3 items dropped)
	// question     |      5 |      - |   - | preserved
	// -------------+--------+--------+-----+---------------------------------
	// total        |     34 |     60 | 57% | limit 80, reserve 20
}
