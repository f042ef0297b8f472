package contextheader

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/internal/parallel"
	"github.com/ragkit/ragkit/internal/space"
	"github.com/ragkit/ragkit/internal/syncmap"
)

// A Cache keeps summaries and chunk contexts between calls and between
// runs, so that re-indexing an unchanged document calls no model. Keys
// are hex SHA-256 digests of everything the text was made from: the
// SummarizerModel and the exact prompt (or, for a [DocumentSummarizer],
// the exact excerpt). Back it with a file or a database to keep summaries
// across runs; [MemoryCache] keeps them in memory. A Cache must be safe
// for concurrent use. An error from it fails the document (wrapping
// [ErrCache]) rather than being taken as a miss, so that a broken cache
// never turns silently into paid calls.
type Cache interface {
	// Get returns the value stored under key, and whether there is one.
	Get(ctx context.Context, key string) (value string, ok bool, err error)
	// Put stores value under key.
	Put(ctx context.Context, key, value string) error
}

// A MemoryCache is a [Cache] in memory, safe for concurrent use. Its zero
// value is an empty cache ready to use. It never evicts: it holds one
// short text per document summarised (and per chunk, in ChunkContext
// mode).
type MemoryCache struct{ m syncmap.Map[string] }

// Get returns the value stored under key. It never fails.
func (c *MemoryCache) Get(_ context.Context, key string) (string, bool, error) {
	v, ok := c.m.Get(key)
	return v, ok, nil
}

// Put stores value under key. It never fails.
func (c *MemoryCache) Put(_ context.Context, key, value string) error {
	c.m.Put(key, value)
	return nil
}

// Len returns the number of entries; 0 for a nil MemoryCache.
func (c *MemoryCache) Len() int {
	if c == nil {
		return 0
	}
	return c.m.Len()
}

// cacheKey digests what a summary was made from. The kind tells a prompt
// from a raw excerpt, so that the two never share an entry.
func cacheKey(model, kind, input string) string {
	h := sha256.New()
	for _, s := range []string{"contextheader/1", model, kind, input} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Summaries returns the summary of each document, in order: its Summary
// if set, else from the cache, else from one Summarizer call with the
// rendered Config.SummaryPrompt (or one SummarizeDocument call with the
// document's start, for a [DocumentSummarizer]). Documents are summarised
// concurrently, at most Config.Concurrency calls in flight (the bound
// holds across all the Decorator's calls), and Config.Progress is told
// after each document.
//
// A document that fails leaves "" at its place and the others are still
// summarised: the error is then a [*BatchError] listing each failed
// document as a [*DocumentError] (which document, and why). When ctx is
// cancelled, no new call starts, and the documents not done fail with
// the context's error, so errors.Is(err, context.Canceled) reports it.
// Call Summaries before [Decorator.Decorate] to summarise a corpus
// concurrently: Decorate then finds the summaries in the cache.
func (d *Decorator) Summaries(ctx context.Context, docs []document.Document) ([]string, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	if d.cfg.Summarizer == nil {
		return nil, fmt.Errorf("%w: Summarizer is nil: required by Summaries", ErrConfig)
	}
	out := make([]string, len(docs))
	errs := d.each(ctx, len(docs), func(ctx context.Context, i int) error {
		var err error
		out[i], err = d.documentSummary(ctx, docs[i])
		return err
	})
	var failed []*DocumentError
	for i, err := range errs {
		if err != nil {
			failed = append(failed, &DocumentError{Index: i, ID: docs[i].ID, Err: err})
		}
	}
	if failed != nil {
		return out, &BatchError{Failed: failed}
	}
	return out, nil
}

// documentSummary returns doc's summary: one Summarizer call at most.
func (d *Decorator) documentSummary(ctx context.Context, doc document.Document) (string, error) {
	if doc.Summary != "" {
		if !utf8.ValidString(doc.Summary) {
			return "", fmt.Errorf("%w: Summary is not valid UTF-8", ErrInvalidDocument)
		}
		return space.OneLine(doc.Summary), nil
	}
	if err := checkText(doc.Text); err != nil {
		return "", err
	}
	if d.cfg.Summarizer == nil {
		return "", fmt.Errorf("%w: Summary is empty and Config.Summarizer is nil: give the summary or a Summarizer", ErrInvalidDocument)
	}
	ex := excerpt(doc.Text, d.cfg.SummaryChars)
	if ds, ok := d.cfg.Summarizer.(DocumentSummarizer); ok {
		return d.cached(ctx, "document summary", "document", ex, func(ctx context.Context) (string, error) {
			return ds.SummarizeDocument(ctx, ex)
		})
	}
	p := d.summary.document(ex)
	return d.cached(ctx, "document summary", "prompt", p, func(ctx context.Context) (string, error) {
		return d.cfg.Summarizer.Summarize(ctx, p)
	})
}

// chunkContexts returns the chunk context of each chunk: one Summarizer
// call per chunk not in the cache, at most Config.Concurrency in flight.
// Every prompt starts with the same document excerpt.
func (d *Decorator) chunkContexts(ctx context.Context, doc document.Document, texts func(int) string, n int) ([]string, error) {
	ex := excerpt(doc.Text, d.cfg.ChunkContextChars)
	out := make([]string, n)
	errs := d.each(ctx, n, func(ctx context.Context, i int) error {
		p := d.context.chunk(ex, texts(i))
		var err error
		out[i], err = d.cached(ctx, fmt.Sprintf("context of chunk %d", i), "prompt", p, func(ctx context.Context) (string, error) {
			return d.cfg.Summarizer.Summarize(ctx, p)
		})
		return err
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// cached returns the cached text for (kind, input), or calls call, checks
// its answer and caches it. what names the text in errors. Concurrent
// requests for one key share one call: a document given twice, or
// decorated while Summaries runs, is still summarised once.
func (d *Decorator) cached(ctx context.Context, what, kind, input string, call func(context.Context) (string, error)) (string, error) {
	key := cacheKey(d.cfg.SummarizerModel, kind, input)
	return d.shared(ctx, key, what, func() (string, error) {
		s, ok, err := cacheGet(ctx, d.cfg.Cache, key)
		if err != nil {
			return "", fmt.Errorf("%w: get %s: %w", ErrCache, what, err)
		}
		if ok {
			return s, nil
		}
		if s, err = d.call(ctx, call); err != nil {
			return "", fmt.Errorf("%w: %s: %w", ErrSummarizer, what, err)
		}
		if s = space.OneLine(s); s == "" || !utf8.ValidString(s) {
			return "", fmt.Errorf("%w: %s: the Summarizer returned an empty or invalid summary", ErrSummarizer, what)
		}
		if _, err := parallel.Call(func() (struct{}, error) { return struct{}{}, d.cfg.Cache.Put(ctx, key, s) }); err != nil {
			return "", fmt.Errorf("%w: put %s: %w", ErrCache, what, err)
		}
		return s, nil
	})
}

// A flight is the work for one cache key under way.
type flight struct {
	done chan struct{}
	text string
	err  error
}

// shared runs work for key unless it is under way already, and then waits
// for it instead. When the work under way fails, a waiter tries on its
// own account, since the failure may be the other caller's (its context,
// say).
func (d *Decorator) shared(ctx context.Context, key, what string, work func() (string, error)) (string, error) {
	for {
		d.mu.Lock()
		f, busy := d.flights[key]
		if !busy {
			f = &flight{done: make(chan struct{})}
			d.flights[key] = f
		}
		d.mu.Unlock()
		if !busy {
			d.fly(key, f, work)
			return f.text, f.err
		}
		select {
		case <-f.done:
		case <-ctx.Done():
			return "", fmt.Errorf("%w: %s: %w", ErrSummarizer, what, ctx.Err())
		}
		if f.err == nil {
			return f.text, nil
		}
	}
}

// fly does the work of flight f, and then lets its waiters go whatever
// happens, a panic included: an entry left in flights would make every
// later request for key wait forever.
func (d *Decorator) fly(key string, f *flight, work func() (string, error)) {
	defer func() {
		d.mu.Lock()
		delete(d.flights, key)
		d.mu.Unlock()
		close(f.done)
	}()
	f.text, f.err = parallel.Call(work)
}

// cacheGet calls c.Get, recovering a panic into an error.
func cacheGet(ctx context.Context, c Cache, key string) (string, bool, error) {
	type result struct {
		s  string
		ok bool
	}
	r, err := parallel.Call(func() (result, error) {
		s, ok, err := c.Get(ctx, key)
		return result{s, ok}, err
	})
	return r.s, r.ok, err
}

// call makes one Summarizer call within the Decorator's bound on calls
// in flight.
func (d *Decorator) call(ctx context.Context, call func(context.Context) (string, error)) (string, error) {
	select {
	case d.slots <- struct{}{}:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	defer func() { <-d.slots }()
	if err := ctx.Err(); err != nil {
		return "", err
	}
	return parallel.Call(func() (string, error) { return call(ctx) })
}

// each runs job for 0..n-1 on at most Config.Concurrency goroutines and
// returns the errors by index. Once ctx is done, the jobs not started
// fail with its error.
func (d *Decorator) each(ctx context.Context, n int, job func(context.Context, int) error) []error {
	errs := make([]error, n)
	var mu sync.Mutex
	done := 0
	parallel.Each(n, d.cfg.Concurrency, func(i int) {
		if errs[i] = ctx.Err(); errs[i] == nil {
			errs[i] = job(ctx, i)
		}
		if d.cfg.Progress != nil {
			mu.Lock()
			done++
			d.cfg.Progress(Stats{Done: done, Total: n})
			mu.Unlock()
		}
	})
	return errs
}

// checkText reports a document text that is not valid UTF-8 or holds
// nothing but white space.
func checkText(text string) error {
	if !utf8.ValidString(text) {
		return fmt.Errorf("%w: Text is not valid UTF-8", ErrInvalidDocument)
	}
	if first, last := space.Trim(text, 0, len(text)); first >= last {
		return fmt.Errorf("%w: Text is empty or only white space", ErrInvalidDocument)
	}
	return nil
}

// checkDocument reports a document whose text, title or metadata cannot
// be used.
func checkDocument(doc document.Document) error {
	if err := checkText(doc.Text); err != nil {
		return err
	}
	if !utf8.ValidString(doc.Title) || !utf8.ValidString(doc.Summary) {
		return fmt.Errorf("%w: Title or Summary is not valid UTF-8", ErrInvalidDocument)
	}
	for k, v := range doc.Metadata {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return fmt.Errorf("%w: Metadata[%q] is not valid UTF-8", ErrInvalidDocument, strings.ToValidUTF8(k, "\uFFFD"))
		}
	}
	return nil
}
