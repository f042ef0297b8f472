package vectorstore

import (
	"context"
	"fmt"
)

// DefaultCandidates is how many hits each search of a [Hybrid] query
// contributes to the fusion when [HybridConfig.Candidates] is zero (or
// k, if k is larger).
const DefaultCandidates = 50

// HybridConfig configures a [Hybrid] search.
type HybridConfig struct {
	// Store is searched by vector, and by keywords if it implements
	// [KeywordQuerier]. Required.
	Store VectorStore
	// Embedder embeds the query text for the vector search; it must be
	// the one that embedded the stored records. Required.
	Embedder Embedder
	// Keywords is the keyword search. Nil means Store, if it implements
	// [KeywordQuerier]; otherwise a query is the vector search alone.
	Keywords KeywordQuerier
	// Candidates is how many hits each search contributes to the fusion
	// (at least the k of the query). Zero means [DefaultCandidates]. More
	// candidates let a record ranked fairly well by both searches overtake
	// one ranked first by one of them.
	Candidates int
	// Fusion configures the reciprocal rank fusion. Its Weights, if not
	// nil, are two: the vector search's, then the keyword search's.
	Fusion FusionConfig
}

// Hybrid finds records by vector and by keywords at once and fuses the two
// rankings with reciprocal rank fusion ([Fuse]): names, numbers and
// identifiers that a vector misses are found by their words, and passages
// that say the same in other words by their vectors. It works over any
// [VectorStore]: with one that implements [KeywordQuerier] (such as
// [Memory]), or with another keyword search given in
// [HybridConfig.Keywords]. Without a keyword search a query is the vector
// search alone, scored by rank in the same way, so code written for
// hybrid search runs unchanged on any store.
//
// A Hybrid is safe for concurrent use if its store, embedder and keyword
// search are.
type Hybrid struct {
	cfg HybridConfig
}

// NewHybrid returns a hybrid search configured by cfg. A missing Store or
// Embedder, a negative Candidates, or a Fusion that [Fuse] would refuse
// for two lists gives an error wrapping [ErrConfig].
func NewHybrid(cfg HybridConfig) (*Hybrid, error) {
	switch {
	case cfg.Store == nil:
		return nil, configError("Store", nil, "is required")
	case cfg.Embedder == nil:
		return nil, configError("Embedder", nil, "is required")
	case cfg.Candidates < 0:
		return nil, configError("Candidates", cfg.Candidates, "must be 0 (the default) or more")
	}
	if err := cfg.Fusion.check(2); err != nil {
		return nil, err
	}
	if cfg.Keywords == nil {
		cfg.Keywords, _ = cfg.Store.(KeywordQuerier)
	}
	if cfg.Candidates == 0 {
		cfg.Candidates = DefaultCandidates
	}
	return &Hybrid{cfg: cfg}, nil
}

// Config returns the configuration of h with its defaults resolved:
// Keywords is the keyword search used, nil if there is none.
func (h *Hybrid) Config() HybridConfig { return h.cfg }

// Query returns the k best records for text among those that match filter:
// it embeds text and runs the vector search and the keyword search, each
// for max(k, Candidates) hits (the keyword search while the text is
// being embedded), and fuses their rankings with [Fuse], vector search
// first. Hits carry no vectors; each Score is the fused score, which
// ranks the hits of this query and is not comparable to a cosine or BM25
// score.
//
// A k below 1 gives an error wrapping [ErrInvalidArgument]; so does an
// empty text, from the embedder and the keyword search. Errors of either
// search are returned as they are. A text with no searchable word (only
// stop words) is found by the vector search alone.
func (h *Hybrid) Query(ctx context.Context, text string, k int, filter Filter) ([]Hit, error) {
	if k <= 0 {
		return nil, fmt.Errorf("%w: k is %d, not positive", ErrInvalidArgument, k)
	}
	lists, err := h.search(ctx, text, max(k, h.cfg.Candidates), filter)
	if err != nil {
		return nil, err
	}
	fusion := h.cfg.Fusion
	if len(lists) == 1 && fusion.Weights != nil {
		fusion.Weights = fusion.Weights[:1]
	}
	hits, err := Fuse(fusion, lists...)
	if err != nil {
		return nil, err
	}
	return hits[:min(k, len(hits))], nil
}

// search returns the hits of the vector search and, if there is one, of
// the keyword search, n of each at most.
func (h *Hybrid) search(ctx context.Context, text string, n int, filter Filter) ([][]Hit, error) {
	// Both searches of one Memory run under one read lock, so that a
	// write cannot fall between them. Only a *Memory itself qualifies: a
	// type that embeds one may override its searches.
	if m, ok := h.cfg.Store.(*Memory); ok {
		if kw, ok := h.cfg.Keywords.(*Memory); ok && kw == m {
			vec, err := h.embed(ctx, text)
			if err != nil {
				return nil, err
			}
			vhits, khits, err := m.hybridSearch(ctx, vec, text, n, filter)
			return [][]Hit{vhits, khits}, err
		}
	}
	type result struct {
		hits []Hit
		err  error
	}
	var keywords chan result
	if h.cfg.Keywords != nil {
		keywords = make(chan result, 1) // buffered: an early return leaves no goroutine blocked
		go func() {
			hits, err := h.cfg.Keywords.QueryKeywords(ctx, text, n, filter)
			keywords <- result{hits, err}
		}()
	}
	vhits, err := h.vectorSearch(ctx, text, n, filter)
	if err != nil {
		return nil, err
	}
	if keywords == nil {
		return [][]Hit{vhits}, nil
	}
	r := <-keywords
	return [][]Hit{vhits, r.hits}, r.err
}

// embed returns the vector of text.
func (h *Hybrid) embed(ctx context.Context, text string) ([]float32, error) {
	vecs, err := h.cfg.Embedder.Embed(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	if len(vecs) != 1 {
		return nil, fmt.Errorf("vectorstore: the embedder returned %d vectors for one text", len(vecs))
	}
	return vecs[0], nil
}

// vectorSearch embeds text and returns the n nearest records, without
// their vectors.
func (h *Hybrid) vectorSearch(ctx context.Context, text string, n int, filter Filter) ([]Hit, error) {
	vec, err := h.embed(ctx, text)
	if err != nil {
		return nil, err
	}
	hits, err := h.cfg.Store.Query(ctx, vec, n, filter)
	for i := range hits {
		hits[i].Vector = nil
	}
	return hits, err
}
