package window_test

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/internal/testcorpus"
	"github.com/ragkit/ragkit/tokencount/tokentest"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/window"
)

// indexUnits indexes text through an ingest.Indexer that cuts it with
// split, and returns the store and its units.
func indexUnits(t *testing.T, text string, split ingest.SplitFunc) (*memory.Store, []vectorstore.Record) {
	t.Helper()
	ctx := context.Background()
	store := &memory.Store{}
	ix, err := ingest.New(ingest.Config{Split: split, Embedder: &lexical.Embedder{}, Store: store})
	require.NoError(t, err)
	_, err = ix.Index(ctx, document.Document{ID: "doc", Text: text})
	require.NoError(t, err)
	units, err := store.Range(ctx, "doc", 0, math.MaxInt)
	require.NoError(t, err)
	return store, units
}

// checkUnits checks what Expand relies on in the units ingest writes:
// consecutive indexes, offsets into text, and a window over all units
// that rebuilds the text exactly.
func checkUnits(t *testing.T, text string, store *memory.Store, units []vectorstore.Record) {
	t.Helper()
	require.NotEmpty(t, units)
	for i, u := range units {
		require.Equal(t, i, u.Index)
		require.Equal(t, text[u.Start:u.End], u.Text)
	}
	e, err := window.NewExpander(window.ExpanderConfig{Source: store, Size: len(units)})
	require.NoError(t, err)
	ws, err := e.Expand(context.Background(), []vectorstore.Hit{{Record: units[0]}})
	require.NoError(t, err)
	require.Len(t, ws, 1)
	last := units[len(units)-1]
	require.Equal(t, text[units[0].Start:last.End], ws[0].Text)
	require.Equal(t, []int{units[0].Start, last.End}, []int{ws[0].Start, ws[0].End})
}

func TestSentenceUnits(t *testing.T) {
	for _, name := range []string{"romeo_and_juliet.txt", "commonmark_spec.md", "hashbrown_set_rs.txt"} {
		t.Run(name, func(t *testing.T) {
			text := testcorpus.Must(t, name)[:60000]
			store, units := indexUnits(t, text, ingest.Sentences)
			checkUnits(t, text, store, units)
		})
	}
	t.Run("gaps", func(t *testing.T) {
		_, units := indexUnits(t, "One.  Two.\nThree.\n\nFour. Five.", ingest.Sentences)
		var gaps []string
		for _, u := range units {
			gaps = append(gaps, u.Notes.Gap)
		}
		require.Equal(t, []string{"", "  ", "\n", "\n\n", ""}, gaps)
	})
}

func TestChunkUnits(t *testing.T) {
	text := testcorpus.Must(t, "room_with_a_view.txt")[:20000]
	for _, overlap := range []int{0, 8} {
		c, err := chunker.New(chunker.Config{Tokenizer: tokentest.Words{}, MaxTokens: 32, OverlapTokens: overlap})
		require.NoError(t, err)
		split := func(_ context.Context, d document.Document) ([]chunker.Chunk, error) { return c.Split(d.Text) }
		store, units := indexUnits(t, text, split)
		checkUnits(t, text, store, units)
	}
}
