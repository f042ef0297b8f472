package ingest_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

func TestNewRefuses(t *testing.T) {
	c := newChunker(t, 64)
	ok := ingest.Config{Chunker: c, Embedder: &counting{}, Store: &memory.Store{}}
	split := func(context.Context, document.Document) ([]chunker.Chunk, error) { return nil, nil }
	tests := []struct {
		name   string
		change func(*ingest.Config)
	}{
		{"no embedder", func(c *ingest.Config) { c.Embedder = nil }},
		{"no store", func(c *ingest.Config) { c.Store = nil }},
		{"no chunker", func(c *ingest.Config) { c.Chunker = nil }},
		{"chunker and split", func(c *ingest.Config) { c.Split = split }},
		{"negative batch size", func(c *ingest.Config) { c.BatchSize = -1 }},
		{"negative batch tokens", func(c *ingest.Config) { c.MaxBatchTokens = -1 }},
		{"negative concurrency", func(c *ingest.Config) { c.Concurrency = -1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := ok
			tt.change(&cfg)
			_, err := ingest.New(cfg)
			require.ErrorIs(t, err, ingest.ErrConfig)
		})
	}
	ix, err := ingest.New(ok)
	require.NoError(t, err)
	require.Equal(t, 64, ix.Config().BatchSize)
	require.Equal(t, 1, ix.Config().Concurrency)
}

func TestZeroIndexer(t *testing.T) {
	ctx := context.Background()
	doc := document.Document{ID: "a", Text: "Some text."}
	for _, ix := range []*ingest.Indexer{nil, {}} {
		_, err := ix.Index(ctx, doc)
		require.ErrorIs(t, err, ingest.ErrConfig)
		_, err = ix.Prune(ctx)
		require.ErrorIs(t, err, ingest.ErrConfig)
	}
}

func TestInvalidDocuments(t *testing.T) {
	store := &memory.Store{}
	emb := &counting{}
	ix := newIndexer(t, ingest.Config{Store: store, Embedder: emb})
	ctx := context.Background()
	for _, docs := range [][]document.Document{
		{{ID: "", Text: "No ID."}},
		{{ID: "a", Text: "One."}, {ID: "b", Text: "Two."}, {ID: "a", Text: "Three."}},
	} {
		_, err := ix.Index(ctx, docs...)
		require.ErrorIs(t, err, ingest.ErrInvalidDocument)
	}
	require.Zero(t, emb.numCalls())
	require.Zero(t, store.Len())
}

// The first index writes one record per chunk: IDs from ChunkIDs, the
// chunk's offsets and text, the embedder's vector and the document's
// metadata plus the embed key.
func TestIndexWritesRecords(t *testing.T) {
	ctx := context.Background()
	docs := corpus(t, "room_with_a_view.txt", 4, 12)
	c := newChunker(t, 64)
	store := &memory.Store{}
	emb := &counting{}
	ix := newIndexer(t, ingest.Config{Chunker: c, Store: store, Embedder: emb, EmbedderName: "fake-1"})
	stats, err := ix.Index(ctx, docs...)
	require.NoError(t, err)

	got := dump(t, store)
	total := 0
	for _, d := range docs {
		cs, err := c.Split(d.Text)
		require.NoError(t, err)
		glued, err := ingest.Records(d, ingest.Plain(cs), make([][]float32, len(cs)))
		require.NoError(t, err)
		recs := got[d.ID]
		require.Len(t, recs, len(cs), d.ID)
		for i, ch := range cs {
			r := recs[i]
			assert.Equal(t, glued[i].ID, r.ID)
			assert.Equal(t, i, r.Index)
			assert.Equal(t, ch.Text, r.Text)
			assert.Equal(t, d.Text[r.Start:r.End], r.Text)
			assert.Equal(t, fakeVector(ch.Text), r.Vector)
			assert.Equal(t, "room_with_a_view.txt", r.Metadata["source"])
			assert.Equal(t, ingest.Key("fake-1", ch.Text), r.Notes.Embed)
		}
		total += len(cs)
	}
	assert.Equal(t, ingest.Stats{
		Documents: 4, TotalDocuments: 4, Written: 4, Chunks: total, TotalChunks: total,
		EmbedCalls: emb.numCalls(), Embedded: total,
	}, untimed(stats))
	assert.Len(t, emb.texts(), total)
}

// untimed drops the durations of s, which no test can predict.
func untimed(s ingest.Stats) ingest.Stats {
	s.ChunkTime, s.HeaderTime, s.EmbedTime, s.StoreTime = 0, 0, 0, 0
	return s
}

// Re-indexing unchanged documents embeds nothing and writes nothing.
func TestReindexUnchanged(t *testing.T) {
	ctx := context.Background()
	docs := corpus(t, "sherlock_1661.txt", 5, 12)
	store := &memory.Store{}
	emb := &counting{}
	ix := newIndexer(t, ingest.Config{Store: store, Embedder: emb})
	first, err := ix.Index(ctx, docs...)
	require.NoError(t, err)
	before := dump(t, store)
	calls := emb.numCalls()

	second, err := ix.Index(ctx, docs...)
	require.NoError(t, err)
	require.Equal(t, calls, emb.numCalls())
	require.Equal(t, before, dump(t, store))
	require.Equal(t, ingest.Stats{
		Documents: 5, TotalDocuments: 5, Chunks: first.Chunks, TotalChunks: first.Chunks,
		Reused: first.Chunks,
	}, untimed(second))
}

// After an edit, only the chunks whose text is new are embedded, and the
// store equals a fresh index of the edited documents.
func TestReindexEmbedsOnlyNewChunks(t *testing.T) {
	ctx := context.Background()
	docs := corpus(t, "room_with_a_view.txt", 3, 12)
	c := newChunker(t, 64)
	cfg := ingest.Config{Chunker: c}
	store := &memory.Store{}
	emb := &counting{}
	cfg.Store, cfg.Embedder = store, emb
	ix := newIndexer(t, cfg)
	_, err := ix.Index(ctx, docs...)
	require.NoError(t, err)
	oldChunks, err := c.Split(docs[1].Text)
	require.NoError(t, err)

	edited := slices.Clone(docs)
	mid := len(edited[1].Text) / 2
	cut := mid + strings.Index(edited[1].Text[mid:], ". ") + 2
	edited[1].Text = edited[1].Text[:cut] + "An inserted sentence changes this one place. " + edited[1].Text[cut:]
	newChunks, err := c.Split(edited[1].Text)
	require.NoError(t, err)
	old := make(map[string]bool)
	for _, ch := range oldChunks {
		old[ch.Text] = true
	}
	var want []string
	for _, ch := range newChunks {
		if !old[ch.Text] && !slices.Contains(want, ch.Text) {
			want = append(want, ch.Text)
		}
	}

	calls := len(emb.texts())
	stats, err := ix.Index(ctx, edited...)
	require.NoError(t, err)
	require.Equal(t, want, emb.texts()[calls:])
	require.NotEmpty(t, want)
	require.Equal(t, len(want), stats.Embedded)
	require.Equal(t, stats.TotalChunks-len(want), stats.Reused)
	require.Equal(t, fresh(t, cfg, edited), dump(t, store))
}

// IDs depend only on the document ID and the chunk's text and rank among
// equal texts: equal on two stores, kept by a chunk when text before it
// changes, distinct for repeated chunks.
func TestStableIDs(t *testing.T) {
	docs := corpus(t, "sherlock_1661.txt", 2, 12)
	cfg := ingest.Config{Chunker: newChunker(t, 64)}
	a, b := fresh(t, cfg, docs), fresh(t, cfg, docs)
	require.Equal(t, a, b)

	// A new opening paragraph shifts every index but keeps every ID, with a
	// chunker whose other chunks stay as they were.
	paragraphs := func(_ context.Context, d document.Document) ([]chunker.Chunk, error) {
		var out []chunker.Chunk
		for start := 0; start < len(d.Text); {
			end := strings.Index(d.Text[start:], "\n\n")
			if end < 0 {
				end = len(d.Text)
			} else {
				end += start
			}
			out = append(out, chunker.Chunk{Index: len(out), Start: start, End: end, Text: d.Text[start:end]})
			start = end + 2
		}
		return out, nil
	}
	cfg = ingest.Config{Split: paragraphs}
	a = fresh(t, cfg, docs)
	edited := slices.Clone(docs)
	edited[0].Text = "A new first paragraph.\n\n" + edited[0].Text
	c := fresh(t, cfg, edited)
	require.Len(t, c["doc-000"], len(a["doc-000"])+1)
	ids := func(recs []vectorstore.Record) []string {
		var out []string
		for _, r := range recs {
			out = append(out, r.ID)
		}
		return out
	}
	require.Subset(t, ids(c["doc-000"]), ids(a["doc-000"]))
	require.Equal(t, ids(a["doc-001"]), ids(c["doc-001"]))

	rep := ingest.Plain([]chunker.Chunk{{Start: 0, End: 5, Text: "Same."}, {Start: 6, End: 12, Text: "Other."}, {Start: 13, End: 18, Text: "Same."}})
	idsOf := func(docID string) []string {
		recs, err := ingest.Records(document.Document{ID: docID, Text: "Same. Other. Same."}, rep, make([][]float32, 3))
		require.NoError(t, err)
		return ids(recs)
	}
	got := idsOf("d")
	require.Len(t, got, 3)
	require.NotEqual(t, got[0], got[2])
	require.True(t, strings.HasPrefix(got[0], "d#"))
	require.Equal(t, got, idsOf("d"))
	require.NotEqual(t, got, idsOf("e"))
}

// A document whose Embed call fails is reported and left as it was; the
// others are indexed.
func TestEmbedFailureIsPerDocument(t *testing.T) {
	for _, batch := range []int{1, 64} {
		t.Run("batch "+strconv.Itoa(batch), func(t *testing.T) {
			ctx := context.Background()
			docs := corpus(t, "room_with_a_view.txt", 6, 12)
			cfg := ingest.Config{Chunker: newChunker(t, 64), BatchSize: batch}
			store := &memory.Store{}
			emb := &counting{}
			cfg.Store, cfg.Embedder = store, emb
			ix := newIndexer(t, cfg)
			_, err := ix.Index(ctx, docs...)
			require.NoError(t, err)
			before := dump(t, store)

			edited := slices.Clone(docs)
			for i := range edited {
				edited[i].Text += "\n\nA closing line for every document."
			}
			edited[4].Text += "\n\nPOISON in this one."
			emb.fail = poison
			stats, err := ix.Index(ctx, edited...)
			var be *ingest.BatchError
			require.ErrorAs(t, err, &be)
			require.ErrorIs(t, err, ingest.ErrEmbed)
			require.ErrorIs(t, err, errPoison)
			failed := map[string]bool{}
			for _, f := range be.Failed {
				failed[f.ID] = true
				require.Equal(t, edited[f.Index].ID, f.ID)
			}
			require.True(t, failed["doc-004"])
			if batch == 1 {
				require.Equal(t, map[string]bool{"doc-004": true}, failed)
			}
			require.Equal(t, len(failed), stats.Failed)
			require.Equal(t, 6-len(failed), stats.Documents)

			after := dump(t, store)
			want := fresh(t, cfg, edited)
			for _, d := range docs {
				if failed[d.ID] {
					require.Equal(t, before[d.ID], after[d.ID], d.ID)
				} else {
					require.Equal(t, want[d.ID], after[d.ID], d.ID)
				}
			}
		})
	}
}

// Chunking errors fail only their document.
func TestChunkFailureIsPerDocument(t *testing.T) {
	ctx := context.Background()
	errSplit := errors.New("split refused")
	c := newChunker(t, 64)
	split := func(_ context.Context, d document.Document) ([]chunker.Chunk, error) {
		if d.ID == "bad" {
			return nil, errSplit
		}
		return c.Split(d.Text)
	}
	store := &memory.Store{}
	ix := newIndexer(t, ingest.Config{Split: split, Store: store})
	_, err := ix.Index(ctx,
		document.Document{ID: "good", Text: "A good document."},
		document.Document{ID: "bad", Text: "A bad one."},
		document.Document{ID: "empty", Text: ""})
	var be *ingest.BatchError
	require.ErrorAs(t, err, &be)
	require.Len(t, be.Failed, 2)
	require.Equal(t, "bad", be.Failed[0].ID)
	require.ErrorIs(t, be.Failed[0], errSplit)
	require.ErrorIs(t, be.Failed[0], ingest.ErrChunk)
	require.Equal(t, "empty", be.Failed[1].ID)
	require.ErrorIs(t, be.Failed[1], chunker.ErrEmptyText)
	ids, err := store.DocumentIDs(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"good"}, ids)
}

// Cancelling the context at any Embed call leaves every document either
// as it was or as a fresh index makes it, with any store.
func TestCancelLeavesDocumentsWhole(t *testing.T) {
	docs := corpus(t, "sherlock_1661.txt", 8, 12)
	edited := slices.Clone(docs)
	for i := range edited {
		edited[i].Text = "A new opening for document " + edited[i].ID + ".\n\n" + edited[i].Text + "\n\nAnd a new ending."
	}
	for _, plain := range []bool{false, true} {
		for _, conc := range []int{1, 2} {
			for cancelAt := 1; cancelAt <= 6; cancelAt++ {
				cfg := ingest.Config{Chunker: newChunker(t, 64), BatchSize: 4, Concurrency: conc}
				mem := &memory.Store{}
				cfg.Store = mem
				if plain {
					cfg.Store = plainStore{mem}
				}
				_, err := newIndexer(t, cfg).Index(context.Background(), docs...)
				require.NoError(t, err)
				before := dump(t, mem)
				want := fresh(t, cfg, edited)

				ctx, cancel := context.WithCancel(context.Background())
				cfg.Embedder = &counting{before: func(call int) {
					if call == cancelAt {
						cancel()
					}
				}}
				_, err = newIndexer(t, cfg).Index(ctx, edited...)
				cancel()
				require.ErrorIs(t, err, context.Canceled)
				after := dump(t, mem)
				newDocs := 0
				for _, d := range docs {
					switch {
					case slices.EqualFunc(after[d.ID], want[d.ID], recordEqual):
						newDocs++
					case slices.EqualFunc(after[d.ID], before[d.ID], recordEqual):
					default:
						t.Fatalf("plain %v, concurrency %d, cancel at %d: document %s is neither old nor new", plain, conc, cancelAt, d.ID)
					}
				}
				require.Less(t, newDocs, len(docs))
			}
		}
	}
}

func recordEqual(a, b vectorstore.Record) bool {
	return a.ID == b.ID && a.Index == b.Index && a.Start == b.Start && a.End == b.End &&
		a.Text == b.Text && slices.Equal(a.Vector, b.Vector) && maps.Equal(a.Metadata, b.Metadata)
}

func TestPrune(t *testing.T) {
	ctx := context.Background()
	docs := corpus(t, "room_with_a_view.txt", 4, 12)
	store := &memory.Store{}
	ix := newIndexer(t, ingest.Config{Store: store})
	_, err := ix.Index(ctx, docs...)
	require.NoError(t, err)

	deleted, err := ix.Prune(ctx, "doc-000", "doc-002", "not-there")
	require.NoError(t, err)
	require.Equal(t, []string{"doc-001", "doc-003"}, deleted)
	require.Equal(t, fresh(t, ingest.Config{}, []document.Document{docs[0], docs[2]}), dump(t, store))

	pruning := newIndexer(t, ingest.Config{Store: store, Prune: true})
	stats, err := pruning.Index(ctx, docs[1])
	require.NoError(t, err)
	require.Equal(t, 2, stats.Pruned)
	require.Equal(t, fresh(t, ingest.Config{}, docs[1:2]), dump(t, store))

	_, err = newIndexer(t, ingest.Config{Store: plainStore{store}}).Prune(ctx)
	require.ErrorIs(t, err, ingest.ErrConfig)
	_, err = ingest.New(ingest.Config{Store: plainStore{store}, Embedder: &counting{}, Split: ingest.Sentences, Prune: true})
	require.ErrorIs(t, err, ingest.ErrConfig)
}

// A cache keeps vectors across stores; another embedder name misses it.
func TestCache(t *testing.T) {
	ctx := context.Background()
	docs := corpus(t, "sherlock_1661.txt", 3, 12)
	cache := &ingest.MemoryCache{}
	emb := &counting{}
	first, err := newIndexer(t, ingest.Config{Cache: cache, Embedder: emb, EmbedderName: "m1"}).Index(ctx, docs...)
	require.NoError(t, err)
	require.Equal(t, first.Embedded, cache.Len())

	calls := emb.numCalls()
	second, err := newIndexer(t, ingest.Config{Cache: cache, Embedder: emb, EmbedderName: "m1"}).Index(ctx, docs...)
	require.NoError(t, err)
	require.Equal(t, calls, emb.numCalls())
	require.Equal(t, first.TotalChunks, second.Cached+second.Reused)
	require.Zero(t, second.Embedded)

	third, err := newIndexer(t, ingest.Config{Cache: cache, Embedder: emb, EmbedderName: "m2"}).Index(ctx, docs...)
	require.NoError(t, err)
	require.Equal(t, first.Embedded, third.Embedded)
}

type brokenCache struct{ ingest.MemoryCache }

var errCache = errors.New("cache down")

func (*brokenCache) Get(context.Context, string) ([]float32, bool, error) {
	return nil, false, errCache
}

func TestCacheErrorFailsDocument(t *testing.T) {
	emb := &counting{}
	_, err := newIndexer(t, ingest.Config{Cache: &brokenCache{}, Embedder: emb}).
		Index(context.Background(), document.Document{ID: "a", Text: "Some text."})
	require.ErrorIs(t, err, ingest.ErrCache)
	require.ErrorIs(t, err, errCache)
	require.Zero(t, emb.numCalls())
}

// Calls hold at most BatchSize texts and MaxBatchTokens tokens, each text
// once, at most Concurrency calls at a time.
func TestBatches(t *testing.T) {
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(t, err)
	docs := corpus(t, "room_with_a_view.txt", 10, 12)
	for _, tt := range []struct{ size, tokens, conc int }{{5, 0, 1}, {64, 200, 2}, {3, 100, 3}} {
		emb := &counting{}
		stats, err := newIndexer(t, ingest.Config{
			Embedder: emb, BatchSize: tt.size, MaxBatchTokens: tt.tokens, Concurrency: tt.conc,
		}).Index(context.Background(), docs...)
		require.NoError(t, err)
		seen := map[string]bool{}
		for _, call := range emb.calls {
			require.LessOrEqual(t, len(call), tt.size)
			sum := 0
			for _, text := range call {
				require.False(t, seen[text], "embedded twice: %q", text)
				seen[text] = true
				sum += tok.Count(text)
			}
			if tt.tokens > 0 {
				require.LessOrEqual(t, sum, tt.tokens)
			}
		}
		require.Equal(t, stats.Embedded, len(seen))
		require.Equal(t, stats.EmbedCalls, len(emb.calls))
		require.LessOrEqual(t, emb.maxIn, tt.conc)
	}
}

func TestTooLongForBatch(t *testing.T) {
	_, err := newIndexer(t, ingest.Config{MaxBatchTokens: 5}).Index(context.Background(),
		document.Document{ID: "a", Text: "This sentence counts more than five tokens, surely."})
	require.ErrorIs(t, err, ingest.ErrChunk)
}

// Progress counts up, is never called concurrently, and ends at the result.
func TestProgress(t *testing.T) {
	var busy atomic.Bool
	var seen []ingest.Stats
	progress := func(s ingest.Stats) {
		require.True(t, busy.CompareAndSwap(false, true), "Progress called concurrently")
		seen = append(seen, s)
		busy.Store(false)
	}
	docs := corpus(t, "sherlock_1661.txt", 6, 12)
	stats, err := newIndexer(t, ingest.Config{BatchSize: 3, Concurrency: 2, Progress: progress}).
		Index(context.Background(), docs...)
	require.NoError(t, err)
	require.NotEmpty(t, seen)
	for i := 1; i < len(seen); i++ {
		require.GreaterOrEqual(t, seen[i].Documents, seen[i-1].Documents)
		require.GreaterOrEqual(t, seen[i].Chunks, seen[i-1].Chunks)
		require.GreaterOrEqual(t, seen[i].EmbedCalls, seen[i-1].EmbedCalls)
	}
	last := seen[len(seen)-1]
	require.Equal(t, untimed(stats), untimed(last))
	require.Equal(t, len(docs), last.Documents)
}

// Without ReplaceDocument, a failed upsert puts the old records back.
func TestFallbackRestoresOnFailure(t *testing.T) {
	ctx := context.Background()
	docs := corpus(t, "room_with_a_view.txt", 2, 12)
	mem := &memory.Store{}
	store := &flakyUpserts{VectorStore: mem}
	ix := newIndexer(t, ingest.Config{Store: store})
	_, err := ix.Index(ctx, docs...)
	require.NoError(t, err)
	before := dump(t, mem)

	// The new records' Upsert fails; the restoring one goes through.
	edited := slices.Clone(docs)
	edited[0].Text += "\n\nOne more paragraph."
	store.failures = 1
	_, err = ix.Index(ctx, edited...)
	var be *ingest.BatchError
	require.ErrorAs(t, err, &be)
	require.Len(t, be.Failed, 1)
	require.Equal(t, "doc-000", be.Failed[0].ID)
	require.ErrorIs(t, err, ingest.ErrStore)
	require.ErrorIs(t, err, errUpsert)
	require.Equal(t, before, dump(t, mem))
}

// writeCounter counts the writes that reach a Memory.
type writeCounter struct {
	*memory.Store
	writes atomic.Int64
}

func (w *writeCounter) ReplaceDocument(ctx context.Context, docID string, recs ...vectorstore.Record) error {
	w.writes.Add(1)
	return w.Store.ReplaceDocument(ctx, docID, recs...)
}

func (w *writeCounter) Upsert(ctx context.Context, recs ...vectorstore.Record) error {
	w.writes.Add(1)
	return w.Store.Upsert(ctx, recs...)
}

// Only the documents that changed are written again.
func TestUnchangedDocumentsAreNotWritten(t *testing.T) {
	ctx := context.Background()
	docs := corpus(t, "room_with_a_view.txt", 5, 4)
	store := &writeCounter{Store: &memory.Store{}}
	ix := newIndexer(t, ingest.Config{Store: store})
	_, err := ix.Index(ctx, docs...)
	require.NoError(t, err)
	require.EqualValues(t, 5, store.writes.Load())

	docs[3].Metadata = map[string]string{"source": "moved"}
	_, err = ix.Index(ctx, docs...)
	require.NoError(t, err)
	require.EqualValues(t, 6, store.writes.Load())
	recs, err := store.Range(ctx, "doc-003", 0, 0)
	require.NoError(t, err)
	require.Equal(t, "moved", recs[0].Metadata["source"])
}

func TestCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	store := &memory.Store{}
	emb := &counting{}
	_, err := newIndexer(t, ingest.Config{Store: store, Embedder: emb}).Index(ctx, document.Document{ID: "a", Text: "Text."})
	require.ErrorIs(t, err, context.Canceled)
	require.Zero(t, store.Len())
	require.Zero(t, emb.numCalls())
}

// shortEmbedder returns one vector too few.
type shortEmbedder struct{}

func (shortEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	vecs := make([][]float32, len(texts)-1)
	for i := range vecs {
		vecs[i] = fakeVector(texts[i])
	}
	return vecs, nil
}

func TestEmbedderReturnsTooFewVectors(t *testing.T) {
	store := &memory.Store{}
	_, err := newIndexer(t, ingest.Config{Store: store, Embedder: shortEmbedder{}}).
		Index(context.Background(), document.Document{ID: "a", Text: "One sentence. Another one."})
	require.ErrorIs(t, err, ingest.ErrEmbed)
	require.Zero(t, store.Len())
}

// The glue of a hand-written loop: chunks to Embed input, chunks and
// vectors to records an Indexer would write (its metadata key aside).
func TestGlue(t *testing.T) {
	ctx := context.Background()
	doc := document.Document{ID: "d", Text: "First paragraph here.\n\nSecond paragraph there.", Metadata: map[string]string{"lang": "en"}}
	cs, err := newChunker(t, 6).Split(doc.Text)
	require.NoError(t, err)
	chunks := ingest.Plain(cs)
	var texts []string
	for _, c := range chunks {
		texts = append(texts, c.EmbedText)
	}
	require.Equal(t, []string{"First paragraph here.", "Second paragraph there."}, texts)
	vecs, err := (&counting{}).Embed(ctx, texts)
	require.NoError(t, err)
	recs, err := ingest.Records(doc, chunks, vecs)
	require.NoError(t, err)

	store := &memory.Store{}
	_, err = newIndexer(t, ingest.Config{Chunker: newChunker(t, 6), Store: store}).Index(ctx, doc)
	require.NoError(t, err)
	want := dump(t, store)["d"]
	for i := range want {
		want[i].Notes.Embed = ""
	}
	require.Equal(t, want, recs)

	recs[0].Metadata["lang"] = "changed"
	require.Equal(t, "en", doc.Metadata["lang"])
	_, err = ingest.Records(doc, chunks, vecs[:1])
	require.ErrorIs(t, err, ingest.ErrEmbed)
}

// With a Version, unchanged documents are not even chunked; a new Version
// chunks them all again, and reuses their vectors.
func TestVersionSkipsUnchangedDocuments(t *testing.T) {
	ctx := context.Background()
	c := newChunker(t, 64)
	var split atomic.Int64
	count := func(_ context.Context, d document.Document) ([]chunker.Chunk, error) {
		split.Add(1)
		return c.Split(d.Text)
	}
	docs := corpus(t, "room_with_a_view.txt", 4, 5)
	store := &memory.Store{}
	emb := &counting{}
	cfg := ingest.Config{Split: count, Store: store, Embedder: emb, Version: "v1"}
	_, err := newIndexer(t, cfg).Index(ctx, docs...)
	require.NoError(t, err)
	require.EqualValues(t, 4, split.Load())

	docs[2].Text += "\n\nA new closing paragraph."
	second, err := newIndexer(t, cfg).Index(ctx, docs...)
	require.NoError(t, err)
	require.EqualValues(t, 5, split.Load())
	edited, err := c.Split(docs[2].Text)
	require.NoError(t, err)
	require.Positive(t, second.Embedded)
	require.LessOrEqual(t, second.Embedded, len(edited))
	require.Equal(t, second.TotalChunks, second.Chunks)
	require.Equal(t, second.TotalChunks, second.Reused+second.Embedded)

	cfg.Version = "v2"
	calls := emb.numCalls()
	third, err := newIndexer(t, cfg).Index(ctx, docs...)
	require.NoError(t, err)
	require.EqualValues(t, 9, split.Load())
	require.Equal(t, calls, emb.numCalls())
	require.Equal(t, third.TotalChunks, third.Reused)
	require.Equal(t, fresh(t, cfg, docs), dump(t, store))
}
