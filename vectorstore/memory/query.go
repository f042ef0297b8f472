package memory

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/internal/kernel"
)

const (
	// minWorkPerWorker is the least work, in float32 multiply-adds, worth
	// a goroutine of its own: about 17µs of scanning, several times what
	// it costs to start one and wait for it.
	minWorkPerWorker = 1 << 16
	// chunkBytes is how much of its share a scanning goroutine takes at a
	// time, looking at the context in between: tens of microseconds of
	// float32 work, a few of int8.
	chunkBytes = 256 << 10
	// rerankAll is the size up to which a compact scan re-ranks every
	// candidate, which makes the result exact for the stored vectors.
	rerankAll = 64
)

// rerankCount is the number of candidates a compact scan keeps, by their
// int8 score, for the re-rank against the refined vectors. Measured on
// random and lexical vectors (1k to 100k of them, k from 1 to 100), more
// than k+6 candidates (k+10 for k = 100) never changed a result: the int8
// score ranks the true top k that high, and what keeps recall@k below 1
// is the refined vectors' own error. Half of k and eight more is a safe
// margin, and each candidate costs one refined dot product.
func rerankCount(k, total int) int {
	if total <= rerankAll {
		return total
	}
	return min(k+k/2+8, total)
}

// scratch is the per-query working memory, pooled so that a query
// allocates little more than its result.
type scratch struct {
	q      []float32
	qc     []int8
	iq     kernel.Int8Query
	work   []worker
	cands  []kernel.Candidate
	subset []int32 // the slots a filter selects
	sel    selection
	scan   scan
	ivf    ivfScratch
	wg     sync.WaitGroup
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// release drops the scratch's references to the store and returns it to
// the pool.
func (sc *scratch) release() {
	sc.scan = scan{}
	for i := range sc.work {
		sc.work[i].top.Before = nil
		sc.work[i].err = nil
	}
	scratchPool.Put(sc)
}

// Query returns the k records most similar to vector by cosine similarity,
// best first (ties in score by ID), among those that match filter. It
// returns fewer than k hits when fewer records match. Scores are clamped
// to [-1, 1], which float32 rounding (or, in a compact store, the refined
// vectors' error) could otherwise step over. The stored vectors are unit
// length, so the score is one dot product per record; the scan is shared
// by up to [Config.Workers] goroutines and stops early when ctx is
// cancelled. A filter's DocIDs cost O(len(DocIDs)) to look up, and only
// their records are scanned. Hits carry no vectors, as [VectorStore]
// says: [Store.Range] returns them. With [Config].Index, a store that has
// trained its index searches only the lists nearest to vector (see
// [IndexConfig]): the hits are the best of those, and may miss some of
// the exact k; every hit still matches filter, and as many come back as
// match, up to k.
//
// A vector that is empty, zero or not finite, or a k below 1, gives an
// error wrapping [ErrInvalidArgument]; a vector whose length is not the
// store's dimension one wrapping [ErrDimensionMismatch].
func (m *Store) Query(ctx context.Context, vector []float32, k int, filter vectorstore.Filter) ([]vectorstore.Hit, error) {
	if err := filter.Check(); err != nil {
		return nil, err
	}
	sc, err := vectorScratch(ctx, vector, k)
	if err != nil {
		return nil, err
	}
	defer sc.release()
	if err := m.rlock(ctx); err != nil {
		return nil, err
	}
	defer m.mu.RUnlock()
	return m.vectorHits(ctx, sc, len(vector), k, filter)
}

// vectorScratch checks the arguments of a query and returns a scratch
// holding the normalised query vector.
func vectorScratch(ctx context.Context, vector []float32, k int) (*scratch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(vector) == 0 {
		return nil, fmt.Errorf("%w: empty query vector", vectorstore.ErrInvalidArgument)
	}
	if k <= 0 {
		return nil, fmt.Errorf("%w: k is %d, not positive", vectorstore.ErrInvalidArgument, k)
	}
	sc := scratchPool.Get().(*scratch)
	sc.q = append(sc.q[:0], vector...)
	if err := kernel.Direction(kernel.Normalize(sc.q)); err != nil {
		sc.release()
		return nil, fmt.Errorf("%w: query %v", vectorstore.ErrInvalidArgument, err)
	}
	return sc, nil
}

// vectorHits answers the query whose vector, of length dim, sc holds.
// The caller holds the read lock.
func (m *Store) vectorHits(ctx context.Context, sc *scratch, dim, k int, filter vectorstore.Filter) ([]vectorstore.Hit, error) {
	if m.dim != 0 && dim != m.dim {
		return nil, fmt.Errorf("%w: query has %d, store has %d", vectorstore.ErrDimensionMismatch, dim, m.dim)
	}
	if len(m.st.recs) == 0 {
		return nil, nil
	}
	cands, err := m.search(ctx, sc, k, filter)
	if err != nil {
		return nil, err
	}
	return m.hits(cands), nil
}

// search returns the best k candidates, best first, in sc.cands. The
// caller holds the read lock.
func (m *Store) search(ctx context.Context, sc *scratch, k int, filter vectorstore.Filter) ([]kernel.Candidate, error) {
	subset, allowed, total := m.narrow(&sc.sel, &sc.subset, filter)
	if total == 0 {
		return nil, nil
	}
	k = min(k, total) // a huge k must not size the heaps
	if m.useIndex(subset, total) {
		if cands, ok, err := m.searchIndex(ctx, sc, k, subset, allowed, total); ok || err != nil {
			return cands, err
		}
	}
	s := &sc.scan
	*s = scan{m: m, q: sc.q, allowed: allowed, subset: subset, total: total, keep: k}
	vecBytes := 4 * m.dim
	if m.compact {
		sc.qc = slices.Grow(sc.qc[:0], m.dim)[:m.dim]
		kernel.QuantizeQuery(s.q, sc.qc)
		sc.iq.Set(sc.qc)
		s.iq = &sc.iq
		s.keep = rerankCount(k, total)
		vecBytes = m.dim
	}
	s.chunk = max(1, chunkBytes/vecBytes)
	if err := s.run(ctx, sc, m.workersFor(total)); err != nil {
		return nil, err
	}
	return m.merge(sc, k), nil
}

// narrow applies filter, which Check accepted, to a scan. It returns the
// slots to scan (nil for every slot), the set of slots a scan of every
// slot must test each one against (nil for none), and the number of
// slots to scan, 0 when none can match. A filter of documents alone
// scans their slots; any other is evaluated on the metadata index, and
// the scan reads only the slots selected unless they are most of the
// store, which a sequential scan reads faster.
func (m *Store) narrow(sel *selection, subset *[]int32, filter vectorstore.Filter) ([]int32, []uint64, int) {
	n := len(m.st.recs)
	if filter.IsZero() {
		return nil, nil, n
	}
	var docs []int32
	if len(filter.DocIDs) > 0 {
		*subset = m.docSlots((*subset)[:0], filter.DocIDs)
		docs = *subset
		if len(docs) == 0 {
			return nil, nil, 0
		}
		if onlyDocs(filter) {
			return docs, nil, len(docs)
		}
	}
	c := m.selectSlots(sel, filter, docs)
	switch {
	case c == 0:
		return nil, nil, 0
	case 2*c > n:
		return nil, sel.set, n
	}
	*subset = members((*subset)[:0], sel.set)
	return *subset, nil, c
}

// workersFor returns how many goroutines should share a scan of n
// vectors: as many as the work keeps busy for minWorkPerWorker each, at
// most the configured number. An int8 code costs about an eighth of a
// float32 to score where the int8 kernel is vectorised.
func (m *Store) workersFor(n int) int {
	work := n * m.dim
	if m.compact && kernel.FastInt8 {
		work /= 8
	}
	return min(m.workers, max(1, work/m.minWork))
}

// smallDocIDs is the longest list of document IDs that docSlots
// de-duplicates by scanning the list itself rather than a set.
const smallDocIDs = 16

// docSlots appends the slots of the given documents to dst, each document
// once, in time linear in the number of IDs. A long list is de-duplicated
// by each document's first slot, which is cheaper to hash than its ID, and
// its slots are sorted, so that the scan reads the slab in order (which
// made a filter of 50,000 one-record documents scan in half the time).
func (m *Store) docSlots(dst []int32, docIDs []string) []int32 {
	var seen map[int32]struct{}
	if len(docIDs) > smallDocIDs {
		seen = make(map[int32]struct{}, len(docIDs))
	}
	for i, d := range docIDs {
		list := m.docs[d]
		if len(list) == 0 {
			continue
		}
		if seen != nil {
			if _, dup := seen[list[0]]; dup {
				continue
			}
			seen[list[0]] = struct{}{}
		} else if slices.Contains(docIDs[:i], d) {
			continue
		}
		dst = append(dst, list...)
	}
	if seen != nil {
		slices.Sort(dst)
	}
	return dst
}

// merge combines the workers' candidates into the best k, best first. A
// compact store's candidates are first cut to the best s.keep by their
// int8 score, then re-ranked against the refined vectors: each worker
// kept its best s.keep, so the best s.keep overall are among them whichever
// worker scanned what, and the result does not depend on how the scan was
// shared.
func (m *Store) merge(sc *scratch, k int) []kernel.Candidate {
	all := sc.cands[:0]
	for i := range sc.work {
		all = append(all, sc.work[i].top.Items()...)
	}
	if m.compact {
		if len(sc.work) > 1 {
			slices.SortFunc(all, m.rank)
			all = all[:min(len(all), sc.scan.keep)]
		}
		m.rerank(sc.q, all)
	}
	slices.SortFunc(all, m.rank)
	sc.cands = all
	return all[:min(k, len(all))]
}

// rank orders candidates best first: by score, then by ID.
func (m *Store) rank(a, b kernel.Candidate) int {
	if a.Score != b.Score {
		if a.Score > b.Score {
			return -1
		}
		return 1
	}
	return strings.Compare(m.st.recs[a.Slot].ID, m.st.recs[b.Slot].ID)
}

// rerank scores a compact store's candidates against their refined
// vectors.
func (m *Store) rerank(q []float32, cands []kernel.Candidate) {
	for i := range cands {
		s := int(cands[i].Slot)
		cands[i].Score = clampScore(kernel.DotRefined(q, m.st.codes.row(s), m.st.resid.row(s), m.st.scales[s]))
	}
}

// clampScore keeps a score within the [-1, 1] of cosine similarity. It
// runs once per vector scanned: two compares and branches that are almost
// never taken cost less than min and max, which must also order NaNs and
// zeros.
func clampScore(s float32) float32 {
	if s > 1 {
		return 1
	}
	if s < -1 {
		return -1
	}
	return s
}

// hits turns candidates into hits, without their vectors.
func (m *Store) hits(cands []kernel.Candidate) []vectorstore.Hit {
	out := make([]vectorstore.Hit, len(cands))
	for i, c := range cands {
		out[i].Record = m.record(c.Slot, nil)
		out[i].Score = c.Score
	}
	return out
}

// scan is one query's pass over the store, shared by its goroutines.
type scan struct {
	m       *Store
	q       []float32
	iq      *kernel.Int8Query // the quantized query, for a compact store
	allowed []uint64          // the slots a scan of the whole store may return, or nil for all
	subset  []int32           // the positions to scan, or nil for the whole store
	total   int               // the number of positions to scan
	keep    int               // the number of candidates each goroutine keeps
	chunk   int               // positions taken at a time
	work    []worker
}

// worker is the state of one scanning goroutine, padded so that no two
// goroutines write to the same cache line.
type worker struct {
	span    span
	started atomic.Bool
	top     kernel.TopK
	err     error
	dots    [64]int32 // int8 scores of a block of vectors
	_       [64]byte
}

// span is a share [front, back) of the positions of a scan (slots are
// int32, so both fit in 32 bits). Its owner takes chunks from the front;
// another goroutine may take the back half while the owner has not
// started. Both ends are in one word, so that one compare-and-swap moves
// either, and the word has a cache line to itself, so that the owner's
// moves stay in its own cache.
type span struct {
	ends atomic.Uint64 // front<<32 | back
	_    [56]byte
}

func (sp *span) set(front, back int) { sp.ends.Store(uint64(front)<<32 | uint64(back)) }

// next removes up to n positions from the front of the span and returns
// them as [lo, hi); lo == hi when the span is empty.
func (sp *span) next(n int) (lo, hi int) {
	for {
		e := sp.ends.Load()
		front, back := int(e>>32), int(uint32(e))
		if front >= back {
			return 0, 0
		}
		hi = min(front+n, back)
		if sp.ends.CompareAndSwap(e, uint64(hi)<<32|uint64(back)) {
			return front, hi
		}
	}
}

// split removes the back half of the span (all of it if it holds one
// position) and returns it as [lo, hi); lo == hi when the span is empty.
func (sp *span) split() (lo, hi int) {
	for {
		e := sp.ends.Load()
		front, back := int(e>>32), int(uint32(e))
		if front >= back {
			return 0, 0
		}
		mid := front + (back-front)/2
		if sp.ends.CompareAndSwap(e, uint64(front)<<32|uint64(mid)) {
			return mid, back
		}
	}
}

// run scores every position on workers goroutines, each keeping its best
// s.keep in its own heap, s.work[w].top. The caller only waits, which lets
// the runtime start a goroutine on its own CPU at once.
//
// Each goroutine scans a contiguous share of the positions, like a bare
// parallel loop, except that one done with its share takes over half of
// the share of a goroutine that has not started yet: waking an idle CPU
// can take tens of microseconds, most of the time a small store's scan
// takes, and the late goroutine then finds less to do. Shares that are
// being scanned are left alone: handing out their tails costs more than
// it saves, in cache misses, in contention, and (measured) in slower
// wake-ups of the next query's goroutines.
func (s *scan) run(ctx context.Context, sc *scratch, workers int) error {
	sc.work = slices.Grow(sc.work[:0], workers)[:workers]
	s.work = sc.work
	for w := range s.work {
		s.work[w].span.set(w*s.total/workers, (w+1)*s.total/workers)
		s.work[w].started.Store(false)
		s.work[w].top.Reset(s.keep)
		s.work[w].top.Before = s.m.idBefore
	}
	if workers == 1 {
		return s.part(ctx, 0)
	}
	sc.wg.Add(workers)
	for w := range workers {
		go func() {
			defer sc.wg.Done()
			s.work[w].err = s.part(ctx, w)
		}()
	}
	sc.wg.Wait()
	for w := range s.work {
		if err := s.work[w].err; err != nil {
			return err
		}
	}
	return nil
}

// part is the loop of goroutine w: it scores the positions that take
// gives it, a chunk at a time, looking at ctx before each.
func (s *scan) part(ctx context.Context, w int) error {
	s.work[w].started.Store(true)
	done := ctx.Done()
	for {
		lo, hi := s.take(w)
		if lo == hi {
			return nil
		}
		if done != nil {
			select {
			case <-done:
				return ctx.Err()
			default:
			}
		}
		switch {
		case s.subset != nil:
			s.scoreSubset(&s.work[w].top, s.subset[lo:hi])
		case s.iq != nil:
			s.scoreInt8(&s.work[w], lo, hi)
		default:
			s.scoreFloat(&s.work[w].top, lo, hi)
		}
	}
}

// take returns the next chunk [lo, hi) for goroutine w: from the front of
// its own span or, when that is empty, of the back half of the span of a
// goroutine that has not started, which becomes w's own. It returns
// lo == hi when there is nothing left for w.
func (s *scan) take(w int) (lo, hi int) {
	own := &s.work[w].span
	for {
		if lo, hi := own.next(s.chunk); lo < hi {
			return lo, hi
		}
		stolen := false
		for i := 1; i < len(s.work) && !stolen; i++ {
			v := &s.work[(w+i)%len(s.work)]
			if v.started.Load() {
				continue
			}
			if lo, hi := v.span.split(); lo < hi {
				own.set(lo, hi)
				stolen = true
			}
		}
		if !stolen {
			return 0, 0
		}
	}
}

func (s *scan) scoreFloat(top *kernel.TopK, lo, hi int) {
	q, dim := s.q, len(s.q)
	for lo < hi {
		// The slots from lo to the end of its chunk, contiguous.
		vecs := s.m.st.vecs.span(lo, hi)
		for j := 0; j+dim <= len(vecs); j += dim {
			i := lo + j/dim
			score := clampScore(kernel.Dot(q, vecs[j:j+dim]))
			if top.Accepts(score) && s.match(i) {
				top.Push(score, int32(i))
			}
		}
		lo += len(vecs) / dim
	}
}

// scoreInt8 ranks by the int8 dot product times the vector's scale; the
// query's own scale is the same for every vector and is left out. The dot
// products are taken a block at a time, in one call.
func (s *scan) scoreInt8(wk *worker, lo, hi int) {
	dim := len(s.iq.Codes)
	scales, top := s.m.st.scales, &wk.top
	for base := lo; base < hi; {
		// A block of slots within one chunk of the codes.
		codes := s.m.st.codes.span(base, min(base+len(wk.dots), hi))
		dots := wk.dots[:len(codes)/dim]
		kernel.DotInt8Many(s.iq, codes, dots)
		for j, d := range dots {
			i := base + j
			score := float32(d) * scales[i]
			if top.Accepts(score) && s.match(i) {
				top.Push(score, int32(i))
			}
		}
		base += len(dots)
	}
}

func (s *scan) scoreSubset(top *kernel.TopK, slots []int32) {
	for _, slot := range slots {
		i := int(slot)
		var score float32
		if s.iq != nil {
			score = float32(kernel.DotInt8(s.iq.Codes, s.m.st.codes.row(i))) * s.m.st.scales[i]
		} else {
			score = clampScore(kernel.Dot(s.q, s.m.st.vecs.row(i)))
		}
		if top.Accepts(score) {
			top.Push(score, slot)
		}
	}
}

// match applies the filter to a slot of a scan of the whole store; a
// scan of a subset reads only slots the filter selected.
func (s *scan) match(slot int) bool {
	return s.allowed == nil || s.allowed[slot/64]&(1<<(slot%64)) != 0
}
