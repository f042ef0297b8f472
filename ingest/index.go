package ingest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/internal/chunks"
	"github.com/ragkit/ragkit/internal/parallel"
	"github.com/ragkit/ragkit/vectorstore"
)

// Index indexes docs: it chunks each document, adds headers, embeds the
// chunks whose embed text has no vector yet, and replaces the document's
// records in the store with the new ones, returning what it did.
//
// A chunk's vector is reused, not embedded, when a record of the store
// already holds a vector for the same key (the same header, text and
// EmbedderName): first among the records of the documents of this call, then
// in Config.Cache. A text that several chunks share is embedded once. A
// document whose records would not change is not written at all. Embed
// calls take texts of several documents, in the order given, at most
// BatchSize texts and MaxBatchTokens tokens each, Concurrency calls at once.
//
// Each document is written as soon as its vectors are in, in one step
// where the store is a vectorstore.DocumentReplacer, so that a reader sees
// either its old records or its new ones. With another store the document
// is deleted and its new records upserted, under a context that is not
// cancelled so that the pair is never cut in half; readers may see the
// document missing in between, and if the upsert fails the old records are
// written back.
//
// Failure is per document: a document that cannot be chunked, decorated,
// embedded (any Embed call with one of its texts fails) or written is left
// as it was in the store and reported in a *BatchError; the others are
// indexed. When ctx is cancelled no new Embed call starts, and the
// documents not yet written are reported with the context's error: every
// document is then either fully old or fully new. Invalid input (an empty or
// repeated ID) gives an error wrapping ErrInvalidDocument before any work.
// With Config.Prune, Index then deletes the documents not given.
//
// Index holds the chunks of all the documents given, and the vectors of
// the run, until it returns: give a corpus of millions of chunks in parts.
func (ix *Indexer) Index(ctx context.Context, docs ...document.Document) (Stats, error) {
	if ix == nil || ix.cfg.Embedder == nil {
		return Stats{}, fmt.Errorf("%w: Indexer not made by New", ErrConfig)
	}
	if err := checkDocuments(docs); err != nil {
		return Stats{}, err
	}
	if err := ctx.Err(); err != nil {
		return Stats{}, err
	}
	release, err := ix.lock(ctx, docs)
	if err != nil {
		return Stats{}, err
	}
	defer release()
	r := newRun(ctx, ix, docs)
	r.prepareAll()
	batches := r.plan()
	r.embedAll(batches)
	stats, err := r.finish()
	if !ix.cfg.Prune || ctx.Err() != nil {
		return stats, err
	}
	keep := make([]string, len(docs))
	for i, d := range docs {
		keep[i] = d.ID
	}
	deleted, perr := ix.Prune(ctx, keep...)
	stats.Pruned = len(deleted)
	if perr == nil {
		return stats, err
	}
	return stats, errors.Join(err, perr)
}

func checkDocuments(docs []document.Document) error {
	seen := make(map[string]int, len(docs))
	for i, d := range docs {
		if d.ID == "" {
			return fmt.Errorf("%w: document %d has an empty ID", ErrInvalidDocument, i)
		}
		if !d.Format.Valid() {
			return fmt.Errorf("%w: document %d (ID %q) has %v", ErrInvalidDocument, i, d.ID, d.Format)
		}
		if j, ok := seen[d.ID]; ok {
			return fmt.Errorf("%w: documents %d and %d have the same ID %q", ErrInvalidDocument, j, i, d.ID)
		}
		seen[d.ID] = i
	}
	return nil
}

// lock waits until no other Index call of the Indexer works on any of
// docs, and marks them as its own until release is called: two calls that
// index one document at once would otherwise mix their records in a store
// without ReplaceDocument. IDs are taken in sorted order, so that two
// calls never wait for each other.
func (ix *Indexer) lock(ctx context.Context, docs []document.Document) (release func(), err error) {
	ids := make([]string, len(docs))
	for i, d := range docs {
		ids[i] = d.ID
	}
	slices.Sort(ids)
	var held []string
	release = func() {
		ix.mu.Lock()
		defer ix.mu.Unlock()
		for _, id := range held {
			close(ix.busy[id])
			delete(ix.busy, id)
		}
	}
	for _, id := range ids {
		for {
			ix.mu.Lock()
			if ix.busy == nil {
				ix.busy = make(map[string]chan struct{})
			}
			wait, busy := ix.busy[id]
			if !busy {
				ix.busy[id] = make(chan struct{})
				held = append(held, id)
			}
			ix.mu.Unlock()
			if !busy {
				break
			}
			select {
			case <-wait:
			case <-ctx.Done():
				release()
				return nil, ctx.Err()
			}
		}
	}
	return release, nil
}

// A job is one document on its way to the store.
type job struct {
	index  int
	doc    document.Document
	chunks []Chunk
	// sections holds the chunks' section paths (sections[i] is chunks[i]'s).
	sections [][]string
	keys     []string
	vecs     [][]float32
	old      []vectorstore.Record // the store's records of the document
	loaded   bool                 // whether old was read
	// fingerprint is the document's fingerprint with Config.Version; skip
	// says that the store's records carry it, so the document was not
	// chunked.
	fingerprint string
	skip        bool
	// summary is the document's summary that a Summarizer wrote (made in
	// this run or read from its records), and summaryOf what it was made
	// from; both empty when the headers need none.
	summary, summaryOf string
	// same says that the store's records are those the chunks make, so
	// there is nothing to embed or write (see unchanged).
	same bool
	// pending counts the distinct keys of the job still waiting for a
	// vector; the job is written when it reaches zero.
	pending int
	done    bool
	err     error
}

// A text is one distinct embed text to send to the Embedder.
type text struct {
	key    string
	text   string
	tokens int
	// cached is the Cache's vector for the text, read before the run
	// knew its vectors' length: it is taken once an Embed call has told
	// the length (see checkCached), and the text embedded if it has
	// another. Nil for a text to embed.
	cached []float32
}

// A run is the state of one Index call.
type run struct {
	ctx  context.Context
	ix   *Indexer
	cfg  *Config
	jobs []*job

	mu      sync.Mutex // guards what follows, and serialises Progress
	stats   Stats
	dim     int                           // the length of the run's vectors, once one is known
	pool    map[string][]float32          // vectors known so far, by key
	waiting map[string][]*job             // jobs waiting for each key
	stored  map[string]vectorstore.Record // records read without their vector, by key
	// unchecked are the texts whose cached vector waits for the run's
	// length (see text.cached), one a key, in the order of the documents.
	unchecked []text

	chunkTime, headerTime, embedTime, storeTime atomic.Int64
}

func newRun(ctx context.Context, ix *Indexer, docs []document.Document) *run {
	r := &run{ctx: ctx, ix: ix, cfg: &ix.cfg, pool: make(map[string][]float32), waiting: make(map[string][]*job)}
	r.jobs = make([]*job, len(docs))
	for i, d := range docs {
		r.jobs[i] = &job{index: i, doc: d}
	}
	r.stats.TotalDocuments = len(docs)
	return r
}

// timed adds the time since start to t.
func timed(t *atomic.Int64, start time.Time) { t.Add(int64(time.Since(start))) }

// prepareAll chunks, decorates and looks up every document, on as many
// goroutines as there are processors, since chunking is CPU work.
func (r *run) prepareAll() {
	parallel.Each(len(r.jobs), runtime.GOMAXPROCS(0), func(i int) {
		j := r.jobs[i]
		j.err = r.prepare(j)
	})
	for _, j := range r.jobs {
		if j.err == nil {
			r.stats.TotalChunks += j.size()
		}
	}
}

// prepare makes j's chunks and keys and finds the vectors the store
// already holds for them. With Config.Version, a document whose records
// carry its current fingerprint is not chunked at all.
func (r *run) prepare(j *job) error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	if r.cfg.Version != "" {
		j.fingerprint = fingerprint(r.cfg, j.doc)
		if err := r.readOld(j); err != nil {
			return err
		}
		if j.current() {
			j.skip = true
			return nil
		}
	}
	if err := r.summarize(j); err != nil {
		return err
	}
	chunks, sections, err := r.chunk(j)
	if err != nil {
		return err
	}
	j.chunks, j.sections = chunks, sections
	j.keys = make([]string, len(chunks))
	for i, c := range chunks {
		j.keys[i] = key(r.cfg.EmbedderName, c.EmbedText)
	}
	j.vecs = make([][]float32, len(chunks))
	return r.loadOld(j)
}

// current reports whether the store's records of j were written from the
// document as it is now, by its fingerprint.
func (j *job) current() bool {
	for _, o := range j.old {
		if o.Notes.Fingerprint != j.fingerprint {
			return false
		}
	}
	return len(j.old) > 0
}

// size is the number of chunks of j: its records', if it was not chunked.
func (j *job) size() int {
	if j.skip {
		return len(j.old)
	}
	return len(j.chunks)
}

// summarize finds the summary of j's document where its headers need one
// from the Summarizer: in the store's records of the document, if they
// carry one made from the same text, model and prompt, or else from one
// Summarizer call.
func (r *run) summarize(j *job) error {
	h := r.cfg.Headers
	if h == nil || j.doc.Summary != "" || !r.ix.summaries {
		return nil
	}
	if !j.loaded {
		if err := r.readOld(j); err != nil {
			return err
		}
	}
	cfg := h.Config()
	j.summaryOf = summarySource(cfg.SummarizerModel, cfg.SummaryPrompt, cfg.SummaryChars, j.doc.Text)
	for _, o := range j.old {
		if s := o.Notes.Summary; s != "" && o.Notes.SummaryOf == j.summaryOf {
			j.summary = s
			return nil
		}
	}
	defer timed(&r.headerTime, time.Now())
	sums, err := h.Summaries(r.ctx, []document.Document{j.doc})
	if err != nil {
		if ctxErr := r.ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
			return err
		}
		return fmt.Errorf("%w: %w", ErrHeader, err)
	}
	j.summary = sums[0]
	r.mu.Lock()
	r.stats.Summarized++
	r.progress()
	r.mu.Unlock()
	return nil
}

// chunk cuts j's document into chunks ready to embed, with their section
// paths. The document's outline is parsed once here and handed on with it.
func (r *run) chunk(j *job) ([]Chunk, [][]string, error) {
	doc := j.doc.WithOutline() // parsed once, for the SplitFunc, the headers and the sections
	split := r.cfg.Split
	if split == nil {
		split = r.ix.chunkerSplit
	}
	start := time.Now()
	cs, err := parallel.Call(func() ([]chunker.Chunk, error) { return split(r.ctx, doc) })
	timed(&r.chunkTime, start)
	if err != nil {
		if ctxErr := r.ctx.Err(); (ctxErr != nil && errors.Is(err, ctxErr)) || errors.Is(err, ErrChunk) {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("%w: %w", ErrChunk, err)
	}
	if err := chunks.Check(doc.Text, cs, func(c *chunker.Chunk) (int, int, string) { return c.Start, c.End, c.Text }); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrChunk, err)
	}
	if r.cfg.Headers != nil {
		if j.summary != "" {
			doc.Summary = j.summary
		}
		hs, err := r.decorate(doc, cs) // the Decorator finds the sections
		if err != nil {
			return nil, nil, err
		}
		out, secs := fromHeaders(hs)
		return out, secs, nil
	}
	out := Plain(cs)
	return out, sections(doc.Outline(), out), nil
}

// decorate adds the contextual headers of Config.Headers to doc's chunks.
func (r *run) decorate(doc document.Document, cs []chunker.Chunk) ([]contextheader.Chunk, error) {
	defer timed(&r.headerTime, time.Now())
	out, err := parallel.Call(func() ([]contextheader.Chunk, error) { return r.cfg.Headers.Decorate(r.ctx, doc, cs) })
	if err != nil {
		if ctxErr := r.ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %w", ErrHeader, err)
	}
	return out, nil
}

// loadOld reads the document's records from the store, with the vectors
// the new chunks can reuse.
func (r *run) loadOld(j *job) error {
	if !j.loaded {
		if err := r.readOld(j); err != nil {
			return err
		}
	}
	j.same = unchanged(j, r.records(j))
	return nil
}

// readOld reads the document's records, with their vectors (which a
// changed document reuses, and the fallback of a store without
// ReplaceDocument needs to restore a failed write).
func (r *run) readOld(j *job) error {
	defer timed(&r.storeTime, time.Now())
	var err error
	j.old, err = r.cfg.Store.Range(r.ctx, j.doc.ID, 0, math.MaxInt)
	if errors.Is(err, vectorstore.ErrNotFound) {
		j.old, err = nil, nil
	}
	if err != nil {
		return r.storeErr(err)
	}
	j.loaded = true
	return nil
}

func (r *run) storeErr(err error) error {
	if ctxErr := r.ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrStore, err)
}

// reusable reports whether an old record of j has the key of a new chunk.
func (j *job) reusable() bool {
	keys := make(map[string]bool, len(j.keys))
	for _, k := range j.keys {
		keys[k] = true
	}
	for _, o := range j.old {
		if keys[o.Notes.Embed] {
			return true
		}
	}
	return false
}

// records returns j's records, with the vectors known so far.
func (r *run) records(j *job) []vectorstore.Record {
	recs := records(j.doc, j.chunks, j.sections, j.vecs)
	for i := range recs {
		n := &recs[i].Notes
		n.Embed, n.Fingerprint = j.keys[i], j.fingerprint
		if j.summary != "" {
			n.Summary, n.SummaryOf = j.summary, j.summaryOf
		}
	}
	return recs
}

// unchanged reports whether the store's records of j are recs, every
// field but the vector (a record's vector is a function of its key)
// compared, provenance and notes included.
func unchanged(j *job, recs []vectorstore.Record) bool {
	if len(j.old) != len(recs) {
		return false
	}
	for i, o := range j.old {
		n := recs[i]
		if o.ID != n.ID || o.Index != n.Index || o.Start != n.Start || o.End != n.End ||
			o.Text != n.Text || !maps.Equal(o.Metadata, n.Metadata) ||
			o.Title != n.Title || o.Source != n.Source || !slices.Equal(o.Section, n.Section) ||
			o.Location != n.Location || o.Notes != n.Notes {
			return false
		}
	}
	return true
}
