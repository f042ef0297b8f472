package ingest_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/internal/testcorpus"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

const fakeDim = 16

// fakeVector is the vector the fake embedders give text: four components
// of ±1/2 at places drawn from its hash, so that it has unit length exactly
// and a store keeps it bit for bit.
func fakeVector(text string) []float32 {
	sum := sha256.Sum256([]byte(text))
	v := make([]float32, fakeDim)
	for i, placed := 0, 0; placed < 4; i++ {
		p := (int(sum[i%32]) + i/32) % fakeDim
		if v[p] != 0 {
			continue
		}
		v[p] = 0.5
		if sum[(i+8)%32]&1 == 1 {
			v[p] = -0.5
		}
		placed++
	}
	return v
}

// counting is a fake Embedder that records every call. fail, if set, is
// asked about each call first and makes it fail with its error; before, if
// set, runs first (to cancel a context at a chosen call).
type counting struct {
	mu       sync.Mutex
	calls    [][]string
	inFlight int
	maxIn    int
	fail     func(texts []string) error
	before   func(call int)
}

func (e *counting) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.mu.Lock()
	e.calls = append(e.calls, append([]string(nil), texts...))
	call := len(e.calls)
	e.inFlight++
	e.maxIn = max(e.maxIn, e.inFlight)
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		e.inFlight--
		e.mu.Unlock()
	}()
	if e.before != nil {
		e.before(call)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if e.fail != nil {
		if err := e.fail(texts); err != nil {
			return nil, err
		}
	}
	vecs := make([][]float32, len(texts))
	for i, t := range texts {
		vecs[i] = fakeVector(t)
	}
	return vecs, nil
}

// texts returns every text embedded, in call order.
func (e *counting) texts() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var all []string
	for _, c := range e.calls {
		all = append(all, c...)
	}
	return all
}

func (e *counting) numCalls() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.calls)
}

var errPoison = errors.New("fake embedder: poisoned text")

// poison fails every call with a text that holds "POISON".
func poison(texts []string) error {
	for _, t := range texts {
		if strings.Contains(t, "POISON") {
			return errPoison
		}
	}
	return nil
}

// plainStore is a store with only the four methods of VectorStore: no
// ReplaceDocument, no DocumentIDs.
type plainStore struct{ vectorstore.VectorStore }

// flakyUpserts is a plainStore whose next failures Upserts fail.
type flakyUpserts struct {
	vectorstore.VectorStore
	failures int
}

var errUpsert = errors.New("fake store: upsert failed")

func (s *flakyUpserts) Upsert(ctx context.Context, recs ...vectorstore.Record) error {
	if s.failures > 0 {
		s.failures--
		return errUpsert
	}
	return s.VectorStore.Upsert(ctx, recs...)
}

func newChunker(t testing.TB, maxTokens int) *chunker.Chunker {
	t.Helper()
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(t, err)
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: maxTokens})
	require.NoError(t, err)
	return c
}

func newIndexer(t testing.TB, cfg ingest.Config) *ingest.Indexer {
	t.Helper()
	if cfg.Chunker == nil && cfg.Split == nil {
		cfg.Chunker = newChunker(t, 64)
	}
	if cfg.Store == nil {
		cfg.Store = &memory.Store{}
	}
	if cfg.Embedder == nil {
		cfg.Embedder = &counting{}
	}
	ix, err := ingest.New(cfg)
	require.NoError(t, err)
	return ix
}

// corpus cuts the start of a test corpus into n documents of per
// paragraphs each, or the whole corpus into n if per is 0.
func corpus(t testing.TB, name string, n, per int) []document.Document {
	t.Helper()
	paras := strings.Split(strings.ReplaceAll(testcorpus.Must(t, name), "\r\n", "\n"), "\n\n")
	docs := make([]document.Document, n)
	if per == 0 {
		per = len(paras) / n
	}
	for i := range docs {
		docs[i] = document.Document{
			ID:       fmt.Sprintf("doc-%03d", i),
			Title:    fmt.Sprintf("Part %d", i+1),
			Text:     strings.Join(paras[i*per:(i+1)*per], "\n\n"),
			Metadata: map[string]string{"source": name},
		}
	}
	return docs
}

// dump returns every record of the store, by document and index.
func dump(t testing.TB, store vectorstore.VectorStore) map[string][]vectorstore.Record {
	t.Helper()
	ctx := context.Background()
	ids, err := store.(vectorstore.DocumentLister).DocumentIDs(ctx)
	require.NoError(t, err)
	out := make(map[string][]vectorstore.Record, len(ids))
	for _, id := range ids {
		recs, err := store.Range(ctx, id, 0, math.MaxInt)
		require.NoError(t, err)
		out[id] = recs
	}
	return out
}

// fresh indexes docs into a new store with a new embedder and returns the
// store's records.
func fresh(t testing.TB, cfg ingest.Config, docs []document.Document) map[string][]vectorstore.Record {
	t.Helper()
	cfg.Store = &memory.Store{}
	cfg.Embedder = &counting{}
	cfg.Cache, cfg.Progress = nil, nil
	_, err := newIndexer(t, cfg).Index(context.Background(), docs...)
	require.NoError(t, err)
	return dump(t, cfg.Store)
}
