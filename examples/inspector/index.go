package main

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// indexKey holds the settings an index is built with: changing one of them
// means chunking and embedding again, changing any other setting does not.
type indexKey struct {
	MaxTokens int
	Headers   bool // title and section path in each chunk's header
	Summary   bool // the document's summary in each chunk's header
}

// An index is the corpus chunked, decorated, embedded and stored with one
// indexKey. It is built in the background; done is closed when it is ready
// or failed.
type index struct {
	key indexKey
	// ctx bounds the build; cancel ends it when the index is forgotten.
	ctx    context.Context
	cancel context.CancelFunc
	store  *memory.Store
	dec    *contextheader.Decorator // nil without headers
	done   chan struct{}
	err    error         // set before done is closed
	took   time.Duration // set before done is closed
	// failed says which documents could not be indexed, and why; the
	// others were. Set before done is closed.
	failed []string

	progress atomic.Pointer[ingest.Stats]
	mu       sync.Mutex        // guards chunks while the indexer splits
	chunks   [][]chunker.Chunk // per document, as the chunker cut them
}

// maxIndexes is how many indexes are kept: toggling a setting back and
// forth costs nothing after the first time. A forgotten index's build is
// cancelled, so at most maxIndexes builds exist, of which maxBuilds run
// at once (the others wait their turn).
const (
	maxIndexes = 4
	maxBuilds  = 2
)

// errForgotten ends the build of an index forgotten for newer ones.
var errForgotten = errors.New("the index was dropped for newer settings before it was built: reload to build it again")

// indexes keeps the recent indexes, built on demand, each built once.
type indexes struct {
	ctx    context.Context // the server's: a build outlives the request that started it
	corpus *corpusInfo
	models *models
	// running holds a token per build running: at most maxBuilds. Nil
	// until the first build.
	running chan struct{}

	mu    sync.Mutex
	byKey map[indexKey]*index
	order []indexKey // oldest first
}

// get returns the index for key, starting its build if there is none.
func (ixs *indexes) get(key indexKey) *index {
	ixs.mu.Lock()
	defer ixs.mu.Unlock()
	if ix, ok := ixs.byKey[key]; ok {
		return ix
	}
	if len(ixs.order) == maxIndexes {
		// The oldest is forgotten, not closed: a request may still be
		// reading it; the garbage collector frees it after. Its build,
		// if it is still running, has no one left to serve: it ends.
		ixs.byKey[ixs.order[0]].cancel()
		delete(ixs.byKey, ixs.order[0])
		ixs.order = ixs.order[1:]
	}
	if ixs.running == nil {
		ixs.running = make(chan struct{}, maxBuilds)
	}
	ix := &index{key: key, store: &memory.Store{}, done: make(chan struct{}),
		chunks: make([][]chunker.Chunk, len(ixs.corpus.docs))}
	ix.ctx, ix.cancel = context.WithCancel(ixs.ctx)
	ixs.byKey[key] = ix
	ixs.order = append(ixs.order, key)
	go ixs.build(ix)
	return ix
}

// building returns the progress of an index being built, if any.
func (ixs *indexes) building() (ingest.Stats, bool) {
	ixs.mu.Lock()
	defer ixs.mu.Unlock()
	for _, k := range ixs.order {
		ix := ixs.byKey[k]
		select {
		case <-ix.done:
		default:
			s := ix.progress.Load()
			if s == nil {
				s = &ingest.Stats{TotalDocuments: len(ixs.corpus.docs)}
			}
			return *s, true
		}
	}
	return ingest.Stats{}, false
}

// build indexes the corpus into ix with package ingest. A failed build is
// forgotten, so that the next request tries again.
func (ixs *indexes) build(ix *index) {
	start := time.Now()
	select {
	case ixs.running <- struct{}{}:
		ix.err = ixs.index(ix)
		<-ixs.running
	case <-ix.ctx.Done():
		ix.err = ix.ctx.Err()
	}
	ix.took = time.Since(start)
	if ix.err != nil && ix.ctx.Err() != nil && ixs.ctx.Err() == nil {
		ix.err = errForgotten
	}
	ix.cancel() // the build is over: its context holds nothing more
	if ix.err != nil {
		ixs.mu.Lock()
		if ixs.byKey[ix.key] == ix {
			delete(ixs.byKey, ix.key)
			for i, k := range ixs.order {
				if k == ix.key {
					ixs.order = append(ixs.order[:i:i], ixs.order[i+1:]...)
					break
				}
			}
		}
		ixs.mu.Unlock()
	}
	close(ix.done)
}

func (ixs *indexes) index(ix *index) error {
	m := ixs.models
	var parts []contextheader.Part
	if ix.key.Headers {
		parts = append(parts, contextheader.Part{Kind: contextheader.Title}, contextheader.Part{Kind: contextheader.Section})
	}
	if ix.key.Summary {
		parts = append(parts, contextheader.Part{Kind: contextheader.Summary})
	}
	if len(parts) > 0 {
		dec, err := contextheader.New(contextheader.Config{
			Tokenizer: m.tokenizer, Parts: parts, Summarizer: m.summarizer, SummarizerModel: m.summaryName,
			MaxHeaderTokens: headerTokens, MaxEmbedTokens: m.embedTokens,
		})
		if err != nil {
			return err
		}
		ix.dec = dec
	}
	chunkers := map[document.Format]*chunker.Chunker{}
	for _, f := range []document.Format{document.Text, document.Markdown} {
		c, err := chunker.New(chunker.Config{Tokenizer: m.tokenizer, MaxTokens: ix.key.MaxTokens, Format: f})
		if err != nil {
			return err
		}
		chunkers[f] = c
	}
	byID := ixs.corpus.byID
	split := func(_ context.Context, doc document.Document) ([]chunker.Chunk, error) {
		chunks, err := chunkers[doc.Format].Split(doc.Text)
		if err != nil {
			return nil, err
		}
		ix.mu.Lock()
		ix.chunks[byID[doc.ID]] = chunks
		ix.mu.Unlock()
		return chunks, nil
	}
	indexer, err := ingest.New(ingest.Config{
		Split: split, Headers: ix.dec, Embedder: m.embedder, EmbedderName: m.embedderName, Store: ix.store,
		Progress: func(s ingest.Stats) { ix.progress.Store(&s) },
	})
	if err != nil {
		return err
	}
	_, err = indexer.Index(ix.ctx, ixs.corpus.docs...)
	var batch *ingest.BatchError
	if errors.As(err, &batch) && ix.ctx.Err() == nil {
		// One bad document does not hide the others: the page lists it.
		for _, f := range batch.Failed {
			ix.failed = append(ix.failed, f.Error())
		}
		return nil
	}
	return err
}

// headerTokens caps each chunk's contextual header.
const headerTokens = 64

// docChunks returns the chunks of document i.
func (ix *index) docChunks(i int) []chunker.Chunk {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.chunks[i]
}

// chunkTokens returns every chunk's token count.
func (ix *index) chunkTokens() []int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	var n []int
	for _, cs := range ix.chunks {
		for _, c := range cs {
			n = append(n, c.Tokens)
		}
	}
	return n
}
