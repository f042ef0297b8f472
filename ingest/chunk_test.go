package ingest_test

import (
	"context"
	"testing"

	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/stretchr/testify/require"
)

// Records of a Decorator's chunks, through FromHeaders, are the records an
// Indexer with the same Decorator writes: same IDs, texts, sections and
// headers as keywords.
func TestFromHeadersRecordsAsIndexer(t *testing.T) {
	ctx := context.Background()
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(t, err)
	dec, err := contextheader.New(contextheader.Config{Tokenizer: tok,
		Parts: []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.Section}}})
	require.NoError(t, err)
	doc := document.Document{ID: "guide", Title: "Guide", Format: document.Markdown, Text: guideMarkdown}

	store := &memory.Store{}
	_, err = newIndexer(t, ingest.Config{Split: ingest.Sentences, Headers: dec, Store: store}).Index(ctx, doc)
	require.NoError(t, err)
	written, err := store.Range(ctx, doc.ID, 0, 1000)
	require.NoError(t, err)

	cs, err := ingest.Sentences(ctx, doc)
	require.NoError(t, err)
	hs, err := dec.Decorate(ctx, doc, cs)
	require.NoError(t, err)
	chunks := ingest.FromHeaders(hs)
	byHand, err := ingest.Records(doc, chunks, make([][]float32, len(chunks)))
	require.NoError(t, err)

	require.Len(t, byHand, len(written))
	for i, r := range byHand {
		w := written[i]
		require.Equal(t, hs[i].EmbedText, chunks[i].EmbedText)
		require.Equal(t, w.ID, r.ID)
		require.Equal(t, w.Text, r.Text)
		require.Equal(t, w.Section, r.Section)
		require.Equal(t, w.Notes.Keywords, r.Notes.Keywords)
		require.NotEmpty(t, r.Notes.Keywords, "chunk %d has a header", i)
	}
	require.NotEmpty(t, byHand[len(byHand)-1].Section)
}
