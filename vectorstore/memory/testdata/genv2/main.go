// Command genv2 writes testdata/v2-ingest.rkv: a store in format version 2
// as ragkit wrote it before records had typed provenance and notes, made
// by ingest from two documents so that the records carry every metadata
// key the library used to keep (document.title, document.section,
// window.gap, vectorstore.keywords, ingest.embed, ingest.doc,
// ingest.summary and ingest.summary.of, and loader.path from the
// document's metadata) beside a caller's own key. It builds only against
// ragkit at commit ddda1ac (the last with that format), so it lives under
// testdata, where the go command does not look. From the repository root:
//
//	rm -rf /tmp/ragkit-v2 && mkdir -p /tmp/ragkit-v2/cmd/genv2 && git archive ddda1ac | tar -x -C /tmp/ragkit-v2
//	cp vectorstore/memory/testdata/genv2/main.go /tmp/ragkit-v2/cmd/genv2/
//	(cd /tmp/ragkit-v2 && go run ./cmd/genv2) > vectorstore/memory/testdata/v2-ingest.rkv
package main

import (
	"context"
	"os"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
)

type summarizer struct{}

func (summarizer) Summarize(ctx context.Context, text string) (string, error) {
	return "How to set up the lighthouse.", nil
}

func main() {
	ctx := context.Background()
	tok, _ := tokencount.Encoding("cl100k_base")
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 30, Format: document.Markdown})
	check(err)
	headers, err := contextheader.New(contextheader.Config{Tokenizer: tok, Summarizer: summarizer{}, SummarizerModel: "m",
		Parts: []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.Section}, {Kind: contextheader.Summary}}})
	check(err)
	store := &vectorstore.Memory{}
	ix, err := ingest.New(ingest.Config{Chunker: c, Headers: headers, Embedder: &vectorstore.Lexical{}, EmbedderName: "lexical", Store: store, Version: "1"})
	check(err)
	docs := []document.Document{
		{ID: "guide", Title: "Lighthouse guide", Format: document.Markdown,
			Metadata: map[string]string{"loader.path": "docs/guide.md", "team": "keepers"},
			Text:     "# Install\n\nFirst trim the wick and polish the great lens until it shines in the morning light.\n\n## Linux\n\nThe beam swept the water every ten seconds, and sailors counted the flashes from the headland.\n"},
		{ID: "notes", Title: "Notes", Text: "Fishing boats leave at four.\nThey come back at noon with the catch."},
	}
	_, err = ix.Index(ctx, docs...)
	check(err)
	check(store.Save(ctx, os.Stdout))
}

func check(err error) {
	if err != nil {
		panic(err)
	}
}
