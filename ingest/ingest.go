package ingest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/internal/parallel"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
)

// The defaults of [Config]'s fields, as their documentation gives them.
const (
	defaultBatchSize   = 64
	defaultConcurrency = 1
)

// Errors returned by the package, wrapped with details; test for them with
// errors.Is.
var (
	// ErrConfig reports a Config that New refused, an Indexer that was
	// not made by New, or a Prune on a store that cannot list its
	// documents.
	ErrConfig = errors.New("ingest: invalid configuration")
	// ErrInvalidDocument reports a document that cannot be indexed as given:
	// an empty ID, or an ID given twice in one call.
	ErrInvalidDocument = errors.New("ingest: invalid document")
	// ErrChunk reports a document whose chunks could not be made or
	// cannot be indexed: its chunker refused it, a SplitFunc gave chunks
	// that do not lie in its text, or a chunk's embed text counts more
	// than Config.MaxBatchTokens, which no Embed call can take.
	ErrChunk = errors.New("ingest: chunking failed")
	// ErrHeader reports a document whose headers could not be made.
	ErrHeader = errors.New("ingest: headers failed")
	// ErrEmbed reports a failed Embed call, or one that returned the
	// wrong number of vectors, or a vector that is empty, all zeros,
	// holds a NaN or an infinity, or differs in length from the run's
	// other vectors. No such vector is cached or written.
	ErrEmbed = errors.New("ingest: embedding failed")
	// ErrStore reports a failed read or write of the store.
	ErrStore = errors.New("ingest: store failed")
	// ErrCache reports a failed Get or Put of Config.Cache. It fails the
	// document rather than being taken as a miss, so that a broken cache
	// never turns silently into paid Embed calls.
	ErrCache = errors.New("ingest: cache failed")
	// ErrPanic means a SplitFunc, Embedder, Cache or Summarizer panicked:
	// it fails the document that it was working on with an error wrapping
	// it, and the other documents are indexed. A Summarizer's panic also
	// wraps contextheader.ErrPanic, which is the same error.
	ErrPanic = parallel.ErrPanic
)

// A SplitFunc cuts a document into chunks: any function will do, as long
// as the chunks' offsets point into doc.Text (doc.Text[Start:End] == Text)
// and each Tokens is its text's count where Config.MaxBatchTokens needs it.
type SplitFunc func(ctx context.Context, doc document.Document) ([]chunker.Chunk, error)

// Config configures an Indexer. Embedder, Store and one of Chunker and
// Split are required; every other field's zero value means the default.
type Config struct {
	// Chunker cuts each document's Text, read as the document's Format:
	// the Indexer chunks each document with the Chunker's settings and
	// the document's own Format, so that one Chunker indexes a mix of
	// Markdown and plain text (its own Config.Format is not used).
	// Required unless Split is set.
	Chunker *chunker.Chunker
	// Split, if set, cuts documents instead of Chunker (set only one).
	Split SplitFunc

	// Headers, if set, adds contextual headers to the chunks, which are
	// then embedded with them; records keep the chunk's own Text. Chunk
	// with the Decorator's ChunkMaxTokens so that every embed text fits
	// its MaxEmbedTokens. Nil means no headers: each chunk embeds its Text.
	Headers *contextheader.Decorator

	// Embedder turns embed texts into vectors; required.
	Embedder vectorstore.Embedder
	// EmbedderName names the model (and version) behind Embedder. It is
	// part of every embed key, so that vectors of another model are never
	// reused. Empty is a name like any other.
	EmbedderName string
	// Store receives the records; required. Where it implements
	// vectorstore.DocumentReplacer a document's records are replaced in
	// one step; see [Indexer.Index] for the fallback.
	Store vectorstore.VectorStore
	// Cache, if set, keeps vectors between runs and across documents,
	// under a SHA-256 of the embed text and EmbedderName; vectors found in
	// the store's records of the same document are reused without it.
	// A vector read back that no store would take (empty, zero, not
	// finite) or of another length than the Embedder's vectors is taken
	// as a miss, embedded again and replaced (a run that finds cached
	// vectors before it knows that length makes its first Embed call
	// before it uses them); an error from the Cache fails the document
	// (wrapping ErrCache), so that a broken cache never turns silently
	// into paid Embed calls. A MemoryCache keeps them in memory.
	Cache Cache

	// BatchSize is the most texts in one Embed call. Zero means 64,
	// which most hosted embedding APIs handle well, far below their limits
	// (2048 inputs for OpenAI, 96 for Cohere); negative is an error.
	BatchSize int
	// MaxBatchTokens, if positive, is the most tokens of input in one
	// Embed call (the sum over its texts, as embedding APIs count it).
	// Zero means no limit; negative is an error.
	MaxBatchTokens int
	// Tokenizer, if set, counts embed texts for MaxBatchTokens: the
	// embedder's own tokenizer where it differs from the chunker's. Nil
	// means the chunks' own counts (chunker.Chunk.Tokens).
	Tokenizer tokencount.Tokenizer
	// Concurrency is the most Embed calls in flight. Zero means 1;
	// negative is an error.
	Concurrency int

	// Version, if set, names the chunker and header settings (for example
	// "chunks-512-v2"), and lets Index skip a document without chunking it
	// when its records were written from the same text, title, format,
	// summary and metadata under the same Version and EmbedderName (see
	// [MetadataDocumentKey]). Change it whenever the chunker or the headers
	// change, or such documents keep the chunks of the old settings. Empty
	// means that every document is chunked on every run, which is always
	// right and costs the chunking of unchanged documents.
	Version string

	// Prune makes Index also delete the store's documents that are not
	// among the documents given (see [Indexer.Prune]), after indexing
	// them, unless ctx was cancelled: each Index call then makes the store
	// hold the documents given and no others. The store must list its
	// documents.
	Prune bool

	// Progress, if set, is called after each summary the Summarizer
	// writes, each Embed call and each document done (written, unchanged
	// or failed), never concurrently, with the counts so far.
	Progress func(Stats)
}

// Stats counts the work of one [Indexer.Index] call, so far (in
// Config.Progress) or in all (its result).
type Stats struct {
	Documents      int // documents written or found unchanged
	Failed         int // documents that failed, left as they were
	TotalDocuments int // documents given
	Chunks         int // chunks of the documents done (written or unchanged)
	TotalChunks    int // chunks of the documents that could be chunked
	Written        int // documents written to the store
	EmbedCalls     int // calls of the Embedder, failed ones included
	Embedded       int // texts embedded: given a valid vector by the Embedder
	Summarized     int // documents summarised by the Summarizer (not reused)
	Reused         int // chunks whose vector came from the store or the run
	Cached         int // chunks whose vector came from Config.Cache
	Pruned         int // documents deleted by Config.Prune

	// Time spent, summed over goroutines, in each step: chunking,
	// headers, Embed calls, and reading and writing the store.
	ChunkTime, HeaderTime, EmbedTime, StoreTime time.Duration
}

// An Indexer chunks documents, embeds their chunks and writes them to a
// store, re-embedding on each run only the chunks that changed. It is made
// with New, immutable, and safe for concurrent use: an Index call waits
// while another call of the same Indexer works on one of its documents,
// so that two calls that index one document at once leave one of their
// results whatever the store. (Two Indexers writing one store do not
// wait for each other; share one Indexer.)
type Indexer struct {
	cfg       Config
	chunkers  [2]*chunker.Chunker // Config.Chunker's settings, by document.Format
	summaries bool                // Headers has a Summary part and a Summarizer

	mu   sync.Mutex
	busy map[string]chan struct{} // the documents being indexed, closed when done
}

// New returns an Indexer configured by cfg. A missing Embedder or Store,
// no chunker or two, or a negative size gives an error wrapping ErrConfig.
func New(cfg Config) (*Indexer, error) {
	switch {
	case cfg.Embedder == nil:
		return nil, fmt.Errorf("%w: Embedder is nil: required", ErrConfig)
	case cfg.Store == nil:
		return nil, fmt.Errorf("%w: Store is nil: required", ErrConfig)
	case cfg.Chunker == nil && cfg.Split == nil:
		return nil, fmt.Errorf("%w: Chunker and Split are nil: one is required", ErrConfig)
	case cfg.Chunker != nil && cfg.Split != nil:
		return nil, fmt.Errorf("%w: Chunker and Split are both set: set one", ErrConfig)
	case cfg.BatchSize < 0:
		return nil, fmt.Errorf("%w: BatchSize is %d: must not be negative", ErrConfig, cfg.BatchSize)
	case cfg.MaxBatchTokens < 0:
		return nil, fmt.Errorf("%w: MaxBatchTokens is %d: must not be negative", ErrConfig, cfg.MaxBatchTokens)
	case cfg.Concurrency < 0:
		return nil, fmt.Errorf("%w: Concurrency is %d: must not be negative", ErrConfig, cfg.Concurrency)
	case cfg.Prune && !lists(cfg.Store):
		return nil, fmt.Errorf("%w: Prune is true: the Store (%T) must be a vectorstore.DocumentLister", ErrConfig, cfg.Store)
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = defaultBatchSize
	}
	if cfg.Concurrency == 0 {
		cfg.Concurrency = defaultConcurrency
	}
	ix := &Indexer{cfg: cfg}
	if cfg.Headers != nil {
		hc := cfg.Headers.Config()
		ix.summaries = hc.Summarizer != nil && slices.ContainsFunc(hc.Parts, func(p contextheader.Part) bool { return p.Kind == contextheader.Summary })
	}
	if cfg.Chunker != nil {
		base := cfg.Chunker.Config()
		for _, f := range []document.Format{document.Text, document.Markdown} {
			ix.chunkers[f] = cfg.Chunker
			if base.Format != f {
				cc := base
				cc.Format = f
				c, err := chunker.New(cc)
				if err != nil {
					return nil, fmt.Errorf("%w: Chunker: %w", ErrConfig, err)
				}
				ix.chunkers[f] = c
			}
		}
	}
	return ix, nil
}

// Config returns the Indexer's configuration with its defaults resolved.
func (ix *Indexer) Config() Config { return ix.cfg }

// lists reports whether store can list its documents, as Prune needs.
func lists(store vectorstore.VectorStore) bool {
	_, ok := store.(vectorstore.DocumentLister)
	return ok
}

// chunkerSplit is the SplitFunc of Config.Chunker: its settings with the
// document's Format, and the document's outline, which the run parsed once.
func (ix *Indexer) chunkerSplit(_ context.Context, doc document.Document) ([]chunker.Chunk, error) {
	return ix.chunkers[doc.Format].SplitDocument(doc)
}
