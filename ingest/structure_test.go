package ingest_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

const guideMarkdown = "# Travel guide\n\n## Hotels\n\nThe nightly limit is 170 euros in capitals and 120 elsewhere. Breakfast is included when the rate allows it.\n\n" +
	"## Trains\n\nTrains are second class on trips under four hours. First class needs the approval of a manager.\n\n" +
	"### Night trains\n\nA sleeper berth is allowed on trips of more than six hours overnight.\n"

const notesText = "EXPENSE NOTES\n\nReceipts are scanned within a week of the trip. Lost receipts need a signed statement from the traveller and the approval of a manager.\n\n" +
	"PER DIEM\n\nThe daily allowance covers meals and local transport. It is paid with the next salary, and it is reduced when a meal is provided by the host.\n"

// labels returns the title and section path of each record of docID, as
// the query side reads them from the store alone.
func labels(t *testing.T, store vectorstore.VectorStore, docID string) (titles []string, sections [][]string, recs []vectorstore.Record) {
	t.Helper()
	recs, err := store.Range(context.Background(), docID, 0, math.MaxInt)
	require.NoError(t, err)
	for _, r := range recs {
		titles = append(titles, r.Title)
		sections = append(sections, r.Section)
	}
	return titles, sections, recs
}

// One chunker configuration indexes a mixed set of Markdown and plain
// text: each document is cut as its Format says, and every record carries
// its document's title and its section path, with headers on or off.
func TestMixedFormatsAndLabelsFromRecords(t *testing.T) {
	ctx := context.Background()
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(t, err)
	// A Text chunker, which alone would leave "## Trains" at the end of the
	// first chunk: the Indexer cuts the Markdown document as Markdown.
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 60})
	require.NoError(t, err)
	md, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 60, Format: document.Markdown})
	require.NoError(t, err)
	asText, err := c.Split(guideMarkdown)
	require.NoError(t, err)
	require.True(t, strings.HasSuffix(asText[0].Text, "## Trains"))
	want, err := md.Split(guideMarkdown)
	require.NoError(t, err)
	dec, err := contextheader.New(contextheader.Config{Tokenizer: tok})
	require.NoError(t, err)
	docs := []document.Document{
		{ID: "guide.md", Title: "Travel guide", Text: guideMarkdown, Format: document.FormatOf("guide.md")},
		{ID: "notes.txt", Title: "Expense notes", Text: notesText, Format: document.FormatOf("notes.txt")},
	}
	for _, headers := range []*contextheader.Decorator{nil, dec} {
		store := &memory.Store{}
		_, err := newIndexer(t, ingest.Config{Chunker: c, Headers: headers, Store: store}).Index(ctx, docs...)
		require.NoError(t, err)

		titles, sections, recs := labels(t, store, "guide.md")
		require.Len(t, recs, len(want))
		for i, r := range recs {
			assert.Equal(t, want[i].Text, r.Text)
			assert.Equal(t, "Travel guide", titles[i])
		}
		assert.True(t, strings.HasPrefix(recs[1].Text, "## Trains"))
		assert.Equal(t, [][]string{{"Travel guide", "Hotels"}, {"Travel guide", "Trains"}}, sections)

		titles, sections, _ = labels(t, store, "notes.txt")
		assert.Equal(t, []string{"Expense notes", "Expense notes"}, titles)
		assert.Equal(t, [][]string{{"EXPENSE NOTES"}, {"PER DIEM"}}, sections)
	}
}

// Records labels chunks the same way from the document alone.
func TestRecordsLabels(t *testing.T) {
	doc := document.Document{ID: "g", Title: "Guide", Text: guideMarkdown, Format: document.Markdown}
	start := strings.Index(guideMarkdown, "A sleeper")
	end := strings.Index(guideMarkdown, "overnight.") + len("overnight.")
	chunks := ingest.Plain([]chunker.Chunk{{Start: start, End: end, Text: guideMarkdown[start:end]}})
	recs, err := ingest.Records(doc, chunks, make([][]float32, 1))
	require.NoError(t, err)
	assert.Equal(t, "Guide", recs[0].Title)
	assert.Equal(t, []string{"Travel guide", "Trains", "Night trains"}, recs[0].Section)
}

// Chunks whose offsets do not lie in the document give an error, from
// Records and from an Indexer's SplitFunc, never a panic.
func TestBadOffsets(t *testing.T) {
	doc := document.Document{ID: "d", Text: "One. Two."}
	for _, c := range []chunker.Chunk{
		{Start: 0, End: -3, Text: ""},
		{Start: -1, End: 2, Text: "On"},
		{Start: 5, End: 40, Text: "Two."},
		{Start: 6, End: 5, Text: ""},
		{Start: 0, End: 4, Text: "Two."},
	} {
		_, err := ingest.Records(doc, ingest.Plain([]chunker.Chunk{c}), make([][]float32, 1))
		require.ErrorIs(t, err, ingest.ErrChunk, "%+v", c)

		split := func(context.Context, document.Document) ([]chunker.Chunk, error) { return []chunker.Chunk{c}, nil }
		store := &memory.Store{}
		_, err = newIndexer(t, ingest.Config{Split: split, Store: store}).Index(context.Background(), doc)
		require.ErrorIs(t, err, ingest.ErrChunk, "%+v", c)
		require.Zero(t, store.Len())
	}
}

// Stats count what was done: a failed Embed call embeds nothing, and a
// failed document is not written.
func TestStatsCountWhatWasDone(t *testing.T) {
	ctx := context.Background()
	emb := &counting{fail: poison}
	ix := newIndexer(t, ingest.Config{Embedder: emb, BatchSize: 1})
	stats, err := ix.Index(ctx,
		document.Document{ID: "good", Text: "A good document."},
		document.Document{ID: "bad", Text: "A POISON document."})
	require.Error(t, err)
	assert.Equal(t, 2, stats.EmbedCalls)
	assert.Equal(t, 1, stats.Embedded)
	assert.Equal(t, 1, stats.Written)
	assert.Equal(t, 1, stats.Failed)
	// The package's name opens the message once.
	assert.Equal(t, 1, strings.Count(err.Error(), "ingest:"), err.Error())
	assert.True(t, errors.Is(err, errPoison))
}

// Sentences refuses what has no sentence, with ErrChunk.
func TestSentencesErrors(t *testing.T) {
	for _, text := range []string{"", " \n\t ", "a\xffb."} {
		_, err := ingest.Sentences(context.Background(), document.Document{ID: "d", Text: text})
		require.ErrorIs(t, err, ingest.ErrChunk, "%q", text)
		_, err = newIndexer(t, ingest.Config{Split: ingest.Sentences}).Index(context.Background(), document.Document{ID: "d", Text: text})
		require.ErrorIs(t, err, ingest.ErrChunk, "%q", text)
		require.Equal(t, 1, strings.Count(err.Error(), "chunking failed"), err.Error())
	}
}
