package ingest_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/window"
)

// The records of an Indexer keep the text between chunks, so that the
// windows and segments of package window rebuild the document's text
// exactly: headings, blank lines and line breaks included.
func TestWindowsRebuildIndexedText(t *testing.T) {
	ctx := context.Background()
	text := "# Travel\n\n## Hotels\n\nThe nightly limit is 170 euros. Breakfast is included.\n\n" +
		"## Trains\n\nTrains are second class.\nFirst class needs approval.\n\n" +
		"## Taxis\n\nTaxis are for late nights only. Tips up to ten percent are paid."
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(t, err)
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 12, Format: document.Markdown})
	require.NoError(t, err)
	store := &memory.Store{}
	ix := newIndexer(t, ingest.Config{Chunker: c, Store: store, Embedder: &counting{}})
	_, err = ix.Index(ctx, document.Document{ID: "travel", Text: text, Format: document.Markdown})
	require.NoError(t, err)

	units, err := store.Range(ctx, "travel", 0, 1000)
	require.NoError(t, err)
	require.Greater(t, len(units), 3)
	hits := []vectorstore.Hit{{Record: units[0], Score: 1}, {Record: units[len(units)-1], Score: 0.5}}
	exp, err := window.NewExpander(window.ExpanderConfig{Source: store, Size: len(units)})
	require.NoError(t, err)
	ws, err := exp.Expand(ctx, hits)
	require.NoError(t, err)
	require.Len(t, ws, 1)
	assert.Equal(t, text, ws[0].Text)
	assert.Equal(t, text[ws[0].Start:ws[0].End], ws[0].Text)
}
