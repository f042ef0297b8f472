package ingest_test

import (
	"context"
	"math"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// A model's summaries are stored with the records and reused on re-index
// the way vectors are: a new process (a new Decorator, no Cache) indexing
// unchanged documents calls the Summarizer 0 times, and a changed document
// is summarised again.
func TestSummariesStoredWithRecords(t *testing.T) {
	ctx := context.Background()
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(t, err)
	var calls atomic.Int64
	sum := summarizerFunc(func(context.Context, string) (string, error) {
		calls.Add(1)
		return "A summary of the travel rules.", nil
	})
	run := func(store vectorstore.VectorStore, docs []document.Document) ingest.Stats {
		t.Helper()
		dec, err := contextheader.New(contextheader.Config{Tokenizer: tok, Summarizer: sum, SummarizerModel: "m1",
			Parts: []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.Summary}}})
		require.NoError(t, err)
		stats, err := newIndexer(t, ingest.Config{Chunker: newChunker(t, 40), Headers: dec, Store: store}).Index(ctx, docs...)
		require.NoError(t, err)
		return stats
	}
	docs := corpus(t, "room_with_a_view.txt", 3, 4)
	for name, store := range map[string]vectorstore.VectorStore{"memory": &memory.Store{}, "plain": plainStore{&memory.Store{}}} {
		t.Run(name, func(t *testing.T) {
			calls.Store(0)
			first := run(store, docs)
			require.EqualValues(t, 3, calls.Load())
			require.Equal(t, 3, first.Summarized)
			recs, err := store.Range(ctx, docs[0].ID, 0, math.MaxInt)
			require.NoError(t, err)
			for _, r := range recs {
				require.Equal(t, "A summary of the travel rules.", r.Notes.Summary)
			}

			second := run(store, docs)
			require.Zero(t, calls.Load()-3, "unchanged documents summarised again")
			require.Zero(t, second.Summarized)
			require.Zero(t, second.Embedded)
			require.Zero(t, second.Written)

			edited := append([]document.Document(nil), docs...)
			edited[1].Text += "\n\nA closing paragraph."
			third := run(store, edited)
			require.EqualValues(t, 4, calls.Load())
			require.Equal(t, 1, third.Summarized)
		})
	}
}
