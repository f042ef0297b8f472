package ragkit_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
)

// The whole flow: chunk a document, embed and index the chunks, retrieve
// the passages for a question, and assemble a prompt that fits its budget.
func Example() {
	ctx := context.Background()
	tok, err := tokencount.ForModel("gpt-4o")
	if err != nil {
		panic(err)
	}

	// Chunk: balanced, never over 40 tokens by exact count.
	doc := strings.Join([]string{
		"The lighthouse keeper rose before dawn. He climbed the iron stairs, trimmed the wick and polished the great lens until it shone.",
		"Ships passed the headland at night. The beam swept the water every ten seconds, and sailors counted the flashes to know the coast.",
		"In winter storms the keeper stayed awake for days. Waves broke over the gallery, and salt crusted the windows of the lantern room.",
		"When the light was automated in 1990, the keeper moved to the village. He still walked to the cliff each evening to watch it turn.",
	}, "\n\n")
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 40})
	if err != nil {
		panic(err)
	}
	chunks, err := c.Split(doc)
	if err != nil {
		panic(err)
	}

	// Embed and index: the lexical embedder needs no model and no network.
	emb, err := vectorstore.NewLexical(vectorstore.LexicalConfig{})
	if err != nil {
		panic(err)
	}
	texts := make([]string, len(chunks))
	for i, ch := range chunks {
		texts[i] = ch.Text
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		panic(err)
	}
	store, err := vectorstore.NewMemory(vectorstore.MemoryConfig{})
	if err != nil {
		panic(err)
	}
	for i, ch := range chunks {
		err := store.Upsert(ctx, vectorstore.Record{
			ID: "lighthouse#" + strconv.Itoa(i), DocID: "lighthouse", Index: i,
			Text: ch.Text, Vector: vecs[i],
		})
		if err != nil {
			panic(err)
		}
	}

	// Retrieve: hybrid search (vectors and keywords, fused), passages best
	// first.
	retriever, err := retrieve.New(retrieve.Config{Store: store, Embedder: emb, Passages: 2})
	if err != nil {
		panic(err)
	}
	question := "What did sailors count at night?"
	passages, err := retriever.Retrieve(ctx, question)
	if err != nil {
		panic(err)
	}

	// Assemble the prompt within budgets; the total is an exact count.
	retrieved, err := retrieve.Items(passages, retrieve.ItemConfig{}) // best first
	if err != nil {
		panic(err)
	}
	assembler, err := budget.New(budget.Config{Tokenizer: tok, Limit: 200, Reserve: 50})
	if err != nil {
		panic(err)
	}
	res, err := assembler.Assemble(
		budget.Section{Name: "instructions", Priority: 3, MaxTokens: 30, Required: true,
			Items: []budget.Item{{Text: "Answer from the context only."}}},
		budget.Section{Name: "context", Priority: 1, MaxTokens: 40, Strategy: budget.DropLowestRank,
			Heading: "Context:", Items: retrieved},
		budget.Section{Name: "question", Priority: 2, MaxTokens: 30, Required: true,
			Items: []budget.Item{{Text: question}}},
	)
	if err != nil {
		panic(err)
	}
	for _, ch := range chunks {
		fmt.Printf("chunk %d: %d tokens\n", ch.Index, ch.Tokens)
	}
	fmt.Println("best passage:", retrieve.Citation(passages[0]), "chunk", passages[0].First)
	fmt.Println(res.Tokens == tok.Count(res.Text))
	fmt.Println(res.Text)
	fmt.Print(res)
	// Output:
	// chunk 0: 26 tokens
	// chunk 1: 27 tokens
	// chunk 2: 27 tokens
	// chunk 3: 30 tokens
	// best passage: [lighthouse] chunk 1
	// true
	// Answer from the context only.
	//
	// Context:
	// Ships passed the headland at night. The beam swept the water every ten seconds, and sailors counted the flashes to know the coast.
	//
	// What did sailors count at night?
	// section      | tokens | budget | use | status
	// -------------+--------+--------+-----+---------------------------------
	// instructions |      6 |     30 | 20% | preserved
	// context      |     29 |     40 | 73% | truncated (1 of 2 items dropped)
	// question     |      7 |     30 | 23% | preserved
	// -------------+--------+--------+-----+---------------------------------
	// total        |     42 |    150 | 28% | limit 200, reserve 50
}
