package ingest

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ragkit/ragkit/internal/parallel"
	"github.com/ragkit/ragkit/vectorstore"
)

// plan reuses the vectors that are known, writes the documents that need
// no Embed call, and returns the distinct texts left to embed, cut into
// batches, in the order of the documents.
func (r *run) plan() [][]text {
	r.stored = make(map[string]vectorstore.Record)
	for _, j := range r.jobs {
		if j.err != nil {
			continue
		}
		for _, o := range j.old {
			k := o.Notes.Embed
			switch {
			case k == "" || r.pool[k] != nil:
			case len(o.Vector) > 0:
				r.pool[k] = o.Vector
			default:
				r.stored[k] = o
			}
		}
	}
	var queue []text
	var ready []*job
	for _, j := range r.jobs {
		if j.err != nil {
			r.fail(j, j.err)
			continue
		}
		if j.skip || j.same {
			r.stats.Reused += j.size()
			r.complete(j)
			continue
		}
		missing, err := r.lookup(j)
		if err != nil {
			r.fail(j, err)
			continue
		}
		queue = r.enqueue(j, missing, queue)
		if j.pending == 0 {
			ready = append(ready, j)
		}
	}
	for _, j := range ready {
		r.write(j)
	}
	return r.checkCached(r.batches(queue))
}

// checkCached takes or refuses the cached vectors read before the run knew
// its vectors' length, and returns the batches left to embed. The length
// is the Embedder's: so that a Cache entry of another length is a miss, as
// documented, and never the length the Embedder's vectors are then held
// to, the first batch is embedded first when the length is not known yet.
// Only a run that has nothing to embed takes the length of its first
// cached vector.
func (r *run) checkCached(batches [][]text) [][]text {
	if len(r.unchecked) == 0 {
		return batches
	}
	r.mu.Lock()
	known := r.dim != 0
	r.mu.Unlock()
	if !known && len(batches) > 0 && r.ctx.Err() == nil {
		r.embed(batches[0])
		batches = batches[1:]
	}
	var again []text
	var ready []*job
	for _, t := range r.unchecked {
		if r.checkDim(t.cached) != nil {
			t.cached = nil
			again = append(again, t)
			continue
		}
		r.mu.Lock()
		r.stats.Cached++
		r.mu.Unlock()
		ready = append(ready, r.deliver(t.key, t.cached)...)
	}
	r.unchecked = nil
	for _, j := range ready {
		r.write(j)
	}
	return append(batches, r.batches(again)...)
}

// lookup fills the vectors of j that the run or the cache knows, and
// returns the texts left, checked against MaxBatchTokens.
func (r *run) lookup(j *job) ([]text, error) {
	var missing []text
	for i, k := range j.keys {
		v, err := r.storedVector(k)
		if err != nil {
			return nil, err
		}
		if v != nil {
			r.stats.Reused++
			continue
		}
		v, checked, err := r.cached(k)
		if err != nil {
			return nil, err
		}
		if v != nil && checked {
			r.pool[k] = v
			r.stats.Cached++
			continue
		}
		// A vector v not checked yet waits for the run's length.
		t := text{key: k, text: j.chunks[i].EmbedText, tokens: j.chunks[i].EmbedTokens, cached: v}
		if r.cfg.MaxBatchTokens > 0 {
			if r.cfg.Tokenizer != nil {
				t.tokens = r.cfg.Tokenizer.Count(t.text)
			}
			if t.tokens > r.cfg.MaxBatchTokens && v == nil {
				return nil, fmt.Errorf("%w: chunk %d counts %d tokens, over MaxBatchTokens %d", ErrChunk, i, t.tokens, r.cfg.MaxBatchTokens)
			}
		}
		missing = append(missing, t)
	}
	return missing, nil
}

// cached returns the vector Config.Cache holds for key, or nil if it holds
// none or one that is not a valid vector (which the run then embeds again
// and replaces in the cache). checked says whether the vector has the
// run's length; a vector read before the run knew its length is returned
// unchecked, and seeds nothing.
func (r *run) cached(key string) (v []float32, checked bool, err error) {
	if r.cfg.Cache == nil {
		return nil, false, nil
	}
	type entry struct {
		v  []float32
		ok bool
	}
	e, err := parallel.Call(func() (entry, error) {
		v, ok, err := r.cfg.Cache.Get(r.ctx, key)
		return entry{v, ok}, err
	})
	if err != nil {
		return nil, false, fmt.Errorf("%w: %w", ErrCache, err)
	}
	v = e.v
	if !e.ok || checkVector(v) != nil {
		return nil, false, nil
	}
	r.mu.Lock()
	dim := r.dim
	r.mu.Unlock()
	switch {
	case dim == 0:
		return v, false, nil
	case len(v) != dim:
		return nil, false, nil
	}
	return v, true, nil
}

// storedVector returns the vector of key known to the run, reading it from
// the store if it belongs to a record read without its vector (one of an
// unchanged document, whose chunk turns up in another document).
func (r *run) storedVector(key string) ([]float32, error) {
	if v := r.pool[key]; v != nil {
		return v, nil
	}
	o, ok := r.stored[key]
	if !ok {
		return nil, nil
	}
	delete(r.stored, key)
	start := time.Now()
	recs, err := r.cfg.Store.Range(r.ctx, o.DocID, o.Index, o.Index)
	timed(&r.storeTime, start)
	if err != nil && !errors.Is(err, vectorstore.ErrNotFound) {
		return nil, r.storeErr(err)
	}
	for _, rec := range recs {
		if rec.ID == o.ID && rec.Notes.Embed == key && len(rec.Vector) > 0 {
			r.pool[key] = rec.Vector
		}
	}
	return r.pool[key], nil
}

// enqueue makes j wait for each distinct text of missing, adding to queue
// the texts that no earlier document waits for.
func (r *run) enqueue(j *job, missing []text, queue []text) []text {
	for _, t := range missing {
		w, queued := r.waiting[t.key]
		switch {
		case !queued && t.cached != nil:
			r.unchecked = append(r.unchecked, t)
			r.waiting[t.key] = []*job{j}
			j.pending++
		case !queued:
			queue = append(queue, t)
			r.waiting[t.key] = []*job{j}
			j.pending++
		case w[len(w)-1] == j:
			r.stats.Reused++ // a repeat within the document
		default:
			r.waiting[t.key] = append(w, j)
			r.stats.Reused++
			j.pending++
		}
	}
	return queue
}

// batches cuts queue into Embed calls of at most BatchSize texts and
// MaxBatchTokens tokens.
func (r *run) batches(queue []text) [][]text {
	var out [][]text
	start, tokens := 0, 0
	for i, t := range queue {
		full := i-start == r.cfg.BatchSize ||
			(r.cfg.MaxBatchTokens > 0 && tokens+t.tokens > r.cfg.MaxBatchTokens)
		if full && i > start {
			out = append(out, queue[start:i])
			start, tokens = i, 0
		}
		tokens += t.tokens
	}
	if start < len(queue) {
		out = append(out, queue[start:])
	}
	return out
}

// embedAll makes the Embed calls, Concurrency at a time, until all are
// made or ctx is cancelled.
func (r *run) embedAll(batches [][]text) {
	parallel.Each(len(batches), r.cfg.Concurrency, func(i int) {
		if r.ctx.Err() == nil {
			r.embed(batches[i])
		}
	})
}

// embed makes one Embed call and hands its vectors to the documents
// waiting for them, writing those that have all theirs. Vectors are
// checked before anything caches or writes them.
func (r *run) embed(batch []text) {
	texts := make([]string, len(batch))
	for i, t := range batch {
		texts[i] = t.text
	}
	start := time.Now()
	vecs, err := parallel.Call(func() ([][]float32, error) { return r.cfg.Embedder.Embed(r.ctx, texts) })
	timed(&r.embedTime, start)
	if err == nil {
		err = r.checkVectors(vecs, len(texts))
	}
	if err != nil && !errors.Is(err, r.ctx.Err()) {
		err = fmt.Errorf("%w: %w", ErrEmbed, err)
	}
	r.mu.Lock()
	r.stats.EmbedCalls++
	if err == nil {
		r.stats.Embedded += len(texts)
	}
	r.progress()
	r.mu.Unlock()
	var ready []*job
	for i, t := range batch {
		if err != nil {
			r.failWaiting(t.key, err)
			continue
		}
		if perr := r.cache(t.key, vecs[i]); perr != nil {
			r.failWaiting(t.key, perr)
			continue
		}
		ready = append(ready, r.deliver(t.key, vecs[i])...)
	}
	for _, j := range ready {
		r.write(j)
	}
}

// cache puts vec under key in Config.Cache, if there is one.
func (r *run) cache(key string, vec []float32) error {
	if r.cfg.Cache == nil {
		return nil
	}
	_, err := parallel.Call(func() (struct{}, error) {
		return struct{}{}, r.cfg.Cache.Put(r.ctx, key, vec)
	})
	if err != nil {
		return fmt.Errorf("%w: %w", ErrCache, err)
	}
	return nil
}

// checkVectors checks what an Embedder returned for n texts: n vectors,
// each valid (see checkDim).
func (r *run) checkVectors(vecs [][]float32, n int) error {
	if len(vecs) != n {
		return fmt.Errorf("%d vectors for %d texts", len(vecs), n)
	}
	for i, v := range vecs {
		if err := r.checkDim(v); err != nil {
			return fmt.Errorf("vector %d of %d: %w", i, n, err)
		}
	}
	return nil
}

// checkDim reports a vector that no store should hold, by the stores' own
// rules (vectorstore.CheckRecords: empty, zero, not finite, too long), or
// one of another length than the run's first vector.
func (r *run) checkDim(v []float32) error {
	if err := checkVector(v); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dim == 0 {
		r.dim = len(v)
	}
	if len(v) != r.dim {
		return fmt.Errorf("%d dimensions, the run's other vectors have %d", len(v), r.dim)
	}
	return nil
}

// checkVector reports a vector that no store should hold, by the stores'
// own rules (vectorstore.CheckRecords).
func checkVector(v []float32) error {
	return vectorstore.CheckRecords("", 0, vectorstore.Record{ID: "v", DocID: "v", Text: "v", Vector: v})
}

// deliver records the vector of key and returns the documents that now
// have all their vectors.
func (r *run) deliver(key string, vec []float32) []*job {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pool[key] = vec
	var ready []*job
	for _, j := range r.waiting[key] {
		if j.done {
			continue
		}
		if j.pending--; j.pending == 0 {
			ready = append(ready, j)
		}
	}
	return ready
}

func (r *run) failWaiting(key string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, j := range r.waiting[key] {
		r.failLocked(j, err)
	}
}

// write replaces the store's records of j with its new ones.
func (r *run) write(j *job) {
	r.mu.Lock()
	for i, k := range j.keys {
		j.vecs[i] = r.pool[k]
	}
	r.mu.Unlock()
	err := r.put(j, r.records(j))
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.failLocked(j, err)
		return
	}
	r.stats.Written++
	r.completeLocked(j)
}

func (r *run) put(j *job, recs []vectorstore.Record) error {
	defer timed(&r.storeTime, time.Now())
	if rep, ok := r.cfg.Store.(vectorstore.DocumentReplacer); ok {
		if err := rep.ReplaceDocument(r.ctx, j.doc.ID, recs...); err != nil {
			return r.storeErr(err)
		}
		return nil
	}
	if err := r.ctx.Err(); err != nil {
		return err
	}
	// Once the old records are deleted, the new ones must follow whatever
	// happens to ctx, or the document would be left half done.
	ctx := context.WithoutCancel(r.ctx)
	if err := r.cfg.Store.DeleteDocument(ctx, j.doc.ID); err != nil {
		return r.storeErr(err)
	}
	if len(recs) == 0 {
		return nil
	}
	err := r.cfg.Store.Upsert(ctx, recs...)
	if err != nil && len(j.old) > 0 {
		if rerr := r.cfg.Store.Upsert(ctx, j.old...); rerr != nil {
			err = errors.Join(err, fmt.Errorf("restoring the old records: %w", rerr))
		}
	}
	if err != nil {
		return r.storeErr(err)
	}
	return nil
}

func (r *run) fail(j *job, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failLocked(j, err)
}

func (r *run) failLocked(j *job, err error) {
	if j.done {
		return
	}
	j.done, j.err = true, err
	r.stats.Failed++
	r.progress()
}

func (r *run) complete(j *job) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.completeLocked(j)
}

func (r *run) completeLocked(j *job) {
	j.done = true
	r.stats.Documents++
	r.stats.Chunks += j.size()
	r.progress()
}

// progress calls Config.Progress; r.mu is held, so calls never overlap.
func (r *run) progress() {
	if r.cfg.Progress != nil {
		r.cfg.Progress(r.snapshot())
	}
}

func (r *run) snapshot() Stats {
	s := r.stats
	s.ChunkTime = time.Duration(r.chunkTime.Load())
	s.HeaderTime = time.Duration(r.headerTime.Load())
	s.EmbedTime = time.Duration(r.embedTime.Load())
	s.StoreTime = time.Duration(r.storeTime.Load())
	return s
}

// finish reports the documents left undone by a cancelled context, and
// returns the totals and the failures.
func (r *run) finish() (Stats, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var be BatchError
	for _, j := range r.jobs {
		if !j.done {
			err := r.ctx.Err()
			if err == nil {
				err = errors.New("ingest: internal error: document left unfinished")
			}
			r.failLocked(j, err)
		}
		if j.err != nil {
			be.Failed = append(be.Failed, &DocumentError{Index: j.index, ID: j.doc.ID, Err: j.err})
		}
	}
	if len(be.Failed) > 0 {
		return r.snapshot(), &be
	}
	return r.snapshot(), nil
}
