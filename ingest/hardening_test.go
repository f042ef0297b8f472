package ingest_test

import (
	"context"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// badVectors is an Embedder that gives the texts holding "BAD" the vector
// bad makes, and the others their fake vector.
type badVectors struct{ bad func() []float32 }

func (e badVectors) Embed(_ context.Context, texts []string) ([][]float32, error) {
	vecs := make([][]float32, len(texts))
	for i, t := range texts {
		vecs[i] = fakeVector(t)
		if strings.Contains(t, "BAD") {
			vecs[i] = e.bad()
		}
	}
	return vecs, nil
}

// A vector that no store should hold fails its document before anything
// caches or writes it, so that a later run with a working Embedder indexes
// the document: a poisoned cache used to fail it forever.
func TestBadVectorsAreNeverCached(t *testing.T) {
	ctx := context.Background()
	for name, bad := range map[string]func() []float32{
		"NaN":        func() []float32 { v := fakeVector("x"); v[3] = float32(math.NaN()); return v },
		"infinity":   func() []float32 { v := fakeVector("x"); v[0] = float32(math.Inf(-1)); return v },
		"zero":       func() []float32 { return make([]float32, fakeDim) },
		"short":      func() []float32 { return fakeVector("x")[:fakeDim-1] },
		"empty":      func() []float32 { return nil },
		"one longer": func() []float32 { return append(fakeVector("x"), 0.5) },
	} {
		t.Run(name, func(t *testing.T) {
			cache := &ingest.MemoryCache{}
			store := &memory.Store{}
			docs := []document.Document{{ID: "good", Text: "A fine text."}, {ID: "bad", Text: "A BAD text."}}
			_, err := newIndexer(t, ingest.Config{Cache: cache, Store: store, Embedder: badVectors{bad}, BatchSize: 1}).Index(ctx, docs...)
			require.ErrorIs(t, err, ingest.ErrEmbed)
			var be *ingest.BatchError
			require.ErrorAs(t, err, &be)
			require.Len(t, be.Failed, 1)
			require.Equal(t, "bad", be.Failed[0].ID)
			require.Equal(t, 1, cache.Len())

			stats, err := newIndexer(t, ingest.Config{Cache: cache, Store: store, Embedder: &counting{}}).Index(ctx, docs...)
			require.NoError(t, err)
			require.Equal(t, 1, stats.Embedded)
		})
	}
}

// poisonedCache holds a value for every key that no store would take.
type poisonedCache struct{ ingest.MemoryCache }

func (*poisonedCache) Get(context.Context, string) ([]float32, bool, error) {
	return []float32{float32(math.NaN()), 0}, true, nil
}

// A cached value that is not a valid vector is a miss.
func TestPoisonedCacheIsAMiss(t *testing.T) {
	stats, err := newIndexer(t, ingest.Config{Cache: &poisonedCache{}}).Index(context.Background(), document.Document{ID: "d", Text: "Text."})
	require.NoError(t, err)
	require.Equal(t, 1, stats.Embedded)
	require.Zero(t, stats.Cached)
}

// slowDeletes is a store without ReplaceDocument whose Upsert waits a
// little for a second DeleteDocument, as a slow network store would let
// two writers of one document interleave.
type slowDeletes struct {
	vectorstore.VectorStore
	mu      sync.Mutex
	deletes int
	second  chan struct{}
}

func (s *slowDeletes) DeleteDocument(ctx context.Context, id string) error {
	s.mu.Lock()
	if s.deletes++; s.deletes == 2 {
		close(s.second)
	}
	s.mu.Unlock()
	return s.VectorStore.DeleteDocument(ctx, id)
}

func (s *slowDeletes) Upsert(ctx context.Context, recs ...vectorstore.Record) error {
	select {
	case <-s.second:
	case <-time.After(100 * time.Millisecond):
	}
	return s.VectorStore.Upsert(ctx, recs...)
}

// Two Index calls of the same document at once, through a store without
// ReplaceDocument, leave one of the two versions, never a mix.
func TestConcurrentIndexOfOneDocument(t *testing.T) {
	ctx := context.Background()
	versions := [2]string{strings.Repeat("Alpha version sentence here. ", 120), strings.Repeat("Beta version sentence there. ", 120)}
	for trial := range 5 {
		mem := &memory.Store{}
		store := &slowDeletes{VectorStore: mem, second: make(chan struct{})}
		ix := newIndexer(t, ingest.Config{Chunker: newChunker(t, 16), Store: store, Embedder: &counting{}, BatchSize: 4, Concurrency: 2})
		var wg sync.WaitGroup
		for _, v := range versions {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := ix.Index(ctx, document.Document{ID: "d", Text: v})
				assert.NoError(t, err)
			}()
		}
		wg.Wait()
		recs, err := mem.Range(ctx, "d", 0, math.MaxInt)
		require.NoError(t, err)
		alpha := 0
		for _, r := range recs {
			if strings.Contains(r.Text, "Alpha") {
				alpha++
			}
		}
		require.True(t, alpha == 0 || alpha == len(recs), "trial %d: %d of %d records from the first version", trial, alpha, len(recs))
	}
}

// panicking is an Embedder that panics on texts holding "PANIC".
type panicking struct{ counting }

func (e *panicking) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	for _, t := range texts {
		if strings.Contains(t, "PANIC") {
			panic("embedder bug")
		}
	}
	return e.counting.Embed(ctx, texts)
}

// A panic in a caller's SplitFunc, Embedder or Summarizer fails the
// document it was working on with ErrPanic, naming it; the others are
// indexed, and the Indexer works on.
func TestCallerPanicsAreErrors(t *testing.T) {
	ctx := context.Background()
	c := newChunker(t, 64)
	split := func(_ context.Context, d document.Document) ([]chunker.Chunk, error) {
		if strings.Contains(d.Text, "SPLIT") {
			var cs []chunker.Chunk
			_ = cs[3] // a caller's bug
		}
		return c.Split(d.Text)
	}
	sum := summarizerFunc(func(_ context.Context, text string) (string, error) {
		if strings.Contains(text, "SUMMARY") {
			panic("summarizer bug")
		}
		return "A summary.", nil
	})
	dec, err := contextheader.New(contextheader.Config{Tokenizer: c.Config().Tokenizer, Summarizer: sum,
		Parts: []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.Summary}}})
	require.NoError(t, err)
	store := &memory.Store{}
	ix := newIndexer(t, ingest.Config{Split: split, Headers: dec, Store: store, Embedder: &panicking{}, BatchSize: 1})
	docs := []document.Document{
		{ID: "fine", Text: "A fine text."},
		{ID: "split", Text: "A SPLIT text."},
		{ID: "embed", Text: "A PANIC text."},
		{ID: "summary", Text: "A SUMMARY text."},
	}
	for range 2 {
		stats, err := ix.Index(ctx, docs...)
		require.ErrorIs(t, err, ingest.ErrPanic)
		var be *ingest.BatchError
		require.ErrorAs(t, err, &be)
		var failed []string
		for _, f := range be.Failed {
			require.ErrorIs(t, f, ingest.ErrPanic, f.ID)
			failed = append(failed, f.ID)
		}
		require.Equal(t, []string{"split", "embed", "summary"}, failed)
		require.Equal(t, 1, stats.Documents)
		require.Equal(t, 1, store.Len())
	}
}

type summarizerFunc func(context.Context, string) (string, error)

func (f summarizerFunc) Summarize(ctx context.Context, text string) (string, error) {
	return f(ctx, text)
}
