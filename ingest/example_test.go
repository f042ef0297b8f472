package ingest_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// Index two documents with headers, then edit one sentence of one of them:
// the second run embeds only the chunk that changed.
func Example() {
	ctx := context.Background()
	tok, _ := tokencount.Encoding("cl100k_base")
	c, _ := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 30})
	headers, _ := contextheader.New(contextheader.Config{Tokenizer: tok})
	store := &memory.Store{}
	ix, err := ingest.New(ingest.Config{
		Chunker:      c,
		Headers:      headers,
		Embedder:     &lexical.Embedder{},
		EmbedderName: "lexical-384",
		Store:        store,
	})
	if err != nil {
		panic(err)
	}

	docs := []document.Document{
		{ID: "lighthouse", Title: "The lighthouse", Text: strings.Join([]string{
			"The keeper rose before dawn. He climbed the iron stairs, trimmed the wick and polished the great lens until it shone.",
			"Ships passed the headland at night. The beam swept the water every ten seconds, and sailors counted the flashes.",
			"In winter storms the keeper stayed awake for days. Waves broke over the gallery and salt crusted the windows.",
		}, "\n\n")},
		{ID: "harbour", Title: "The harbour", Text: "Fishing boats leave at four. They come back at noon with the catch, and the market opens at one."},
	}
	first, err := ix.Index(ctx, docs...)
	if err != nil {
		panic(err)
	}
	fmt.Printf("first run: %d chunks, %d embedded in %d call\n", first.TotalChunks, first.Embedded, first.EmbedCalls)

	docs[0].Text = strings.Replace(docs[0].Text, "every ten seconds", "every fifteen seconds", 1)
	second, err := ix.Index(ctx, docs...)
	if err != nil {
		panic(err)
	}
	fmt.Printf("after an edit: %d embedded, %d reused\n", second.Embedded, second.Reused)

	recs, _ := store.Range(ctx, "lighthouse", 0, 9)
	for _, r := range recs {
		fmt.Printf("%d %s %.40q\n", r.Index, r.ID, r.Text)
	}
	// Output:
	// first run: 4 chunks, 4 embedded in 1 call
	// after an edit: 1 embedded, 3 reused
	// 0 lighthouse#5857223c31987f3b "The keeper rose before dawn. He climbed "
	// 1 lighthouse#97952ac5b58a7d96 "Ships passed the headland at night. The "
	// 2 lighthouse#626252307f0816f0 "In winter storms the keeper stayed awake"
}

// Sentence units for sentence-window retrieval: index the sentences, and
// their records carry the text between them, so that package window
// rebuilds the document's text exactly at query time.
func ExampleSentences() {
	ctx := context.Background()
	store := &memory.Store{}
	ix, err := ingest.New(ingest.Config{Split: ingest.Sentences, Embedder: &lexical.Embedder{}, Store: store})
	if err != nil {
		fmt.Println(err)
		return
	}
	doc := document.Document{ID: "log", Title: "Keeper's log", Text: "# Keeper\n\nThe keeper rose before dawn. He trimmed the wick.", Format: document.Markdown}
	if _, err := ix.Index(ctx, doc); err != nil {
		fmt.Println(err)
		return
	}
	units, _ := store.Range(ctx, "log", 0, 10)
	for _, u := range units {
		fmt.Printf("%d [%d:%d] %q gap %q section %q\n", u.Index, u.Start, u.End, u.Text, u.Notes.Gap, u.Section)
	}
	// Output:
	// 0 [0:8] "# Keeper" gap "" section ["Keeper"]
	// 1 [10:38] "The keeper rose before dawn." gap "\n\n" section ["Keeper"]
	// 2 [39:59] "He trimmed the wick." gap "" section ["Keeper"]
}
