package langchaingo

import (
	"context"
	"fmt"

	"github.com/ragkit/ragkit/adapters/internal/query"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/tmc/langchaingo/embeddings"
	"github.com/tmc/langchaingo/schema"
	"github.com/tmc/langchaingo/vectorstores"
)

// StoreConfig configures a [Store].
type StoreConfig struct {
	// Store holds the records. Required.
	Store vectorstore.VectorStore
	// Embedder embeds documents and queries. Required; a call's
	// vectorstores.WithEmbedder replaces it for that call.
	Embedder vectorstore.Embedder
	// DocIDKey is the metadata key of a document's ID when its metadata
	// has no meta.DocIDKey (see meta.ToRecord); empty means none.
	DocIDKey string
}

// Store is a ragkit vectorstore.VectorStore as a langchaingo
// vectorstores.VectorStore. It is safe for concurrent use if its store and
// embedder are.
type Store struct {
	cfg StoreConfig
}

var _ vectorstores.VectorStore = (*Store)(nil)

// NewStore returns a Store configured by cfg; a nil Store or Embedder gives
// an error wrapping [ErrConfig].
func NewStore(cfg StoreConfig) (*Store, error) {
	if err := query.CheckStore(ErrConfig, cfg.Store, cfg.Embedder, "", 0); err != nil {
		return nil, err
	}
	return &Store{cfg: cfg}, nil
}

// Config returns the configuration of s.
func (s *Store) Config() StoreConfig { return s.cfg }

// AddDocuments embeds docs (each its meta.EmbedTextKey if it has one, else
// its PageContent) in one Embed call, upserts them as records made by
// meta.ToRecord and numbered by meta.Number, and returns their IDs in order.
// A document whose metadata names its ID, document and place (as
// [Splitter.SplitDocuments] writes them) is stored under them, so writing it
// again replaces it; the chunks of langchaingo's own splitters, which share
// their document's "source" (see StoreConfig.DocIDKey) but carry no place,
// are numbered in the order given and get IDs from their text.
//
// Options: WithEmbedder embeds with that embedder; WithDeduplicater skips the
// documents for which it returns true (their IDs are not returned).
// WithNameSpace, WithScoreThreshold and WithFilters have no meaning for a
// write and give an error wrapping meta.ErrUnsupported, as langchaingo's own
// stores do. The store's errors are returned as they are (a refused record
// wraps vectorstore.ErrInvalidRecord).
func (s *Store) AddDocuments(ctx context.Context, docs []schema.Document, options ...vectorstores.Option) ([]string, error) {
	opts := apply(options)
	switch {
	case opts.NameSpace != "":
		return nil, fmt.Errorf("%w: WithNameSpace: ragkit stores have no namespaces", meta.ErrUnsupported)
	case opts.ScoreThreshold != 0:
		return nil, fmt.Errorf("%w: WithScoreThreshold on a write", meta.ErrUnsupported)
	case opts.Filters != nil:
		return nil, fmt.Errorf("%w: WithFilters on a write", meta.ErrUnsupported)
	}
	units := make([]meta.Unit, 0, len(docs))
	for i, d := range docs {
		if opts.Deduplicater != nil && opts.Deduplicater(ctx, d) {
			continue
		}
		u, err := meta.ToRecord(d.PageContent, d.Metadata, s.cfg.DocIDKey)
		if err != nil {
			return nil, fmt.Errorf("langchaingo: document %d: %w", i, err)
		}
		units = append(units, u)
	}
	if len(units) == 0 {
		return []string{}, nil
	}
	meta.Number(units)
	texts := make([]string, len(units))
	for i, u := range units {
		texts[i] = u.EmbedText
	}
	vectors, err := s.embedDocuments(ctx, opts.Embedder, texts)
	if err != nil {
		return nil, err
	}
	records := make([]vectorstore.Record, len(units))
	ids := make([]string, len(units))
	for i, u := range units {
		records[i] = u.Record
		records[i].Vector = vectors[i]
		ids[i] = u.ID
	}
	if err := s.cfg.Store.Upsert(ctx, records...); err != nil {
		return nil, err
	}
	return ids, nil
}

// SimilaritySearch returns the numDocuments documents nearest to text by
// cosine similarity, best first. Each has its Score (the cosine similarity)
// and metadata by meta.FromRecord, with meta.ScoreKindKey "Cosine".
//
// Options: WithScoreThreshold keeps the documents whose score is at least the
// threshold, which must lie in [-1, 1]; WithFilters takes a map[string]any
// of metadata values that must match exactly (meta.DocIDKey matches
// documents), mapped by meta.Filter, or a vectorstore.Filter as it is;
// WithEmbedder embeds the query with that embedder. WithNameSpace, other
// filter types and filters meta.Filter refuses give an error wrapping
// meta.ErrUnsupported.
func (s *Store) SimilaritySearch(ctx context.Context, text string, numDocuments int, options ...vectorstores.Option) ([]schema.Document, error) {
	opts := apply(options)
	if opts.NameSpace != "" {
		return nil, fmt.Errorf("%w: WithNameSpace: ragkit stores have no namespaces", meta.ErrUnsupported)
	}
	if opts.ScoreThreshold != 0 {
		if err := meta.CheckThreshold(meta.Cosine, float64(opts.ScoreThreshold)); err != nil {
			return nil, err
		}
	}
	filter, err := Filter(opts.Filters)
	if err != nil {
		return nil, err
	}
	vectors, err := s.embedDocuments(ctx, opts.Embedder, []string{text})
	if err != nil {
		return nil, err
	}
	hits, err := s.cfg.Store.Query(ctx, vectors[0], numDocuments, filter)
	if err != nil {
		return nil, err
	}
	docs := make([]schema.Document, 0, len(hits))
	for _, h := range hits {
		if opts.ScoreThreshold != 0 && h.Score < opts.ScoreThreshold {
			break // hits come best first
		}
		docs = append(docs, document(h, meta.Cosine))
	}
	return docs, nil
}

// Filter maps the value of langchaingo's vectorstores.WithFilters onto a
// ragkit filter: nil is no filter, a map[string]any goes through
// meta.Filter, a map[string]string is the same with string values, and a
// vectorstore.Filter is taken as it is. Any other type gives an error
// wrapping meta.ErrUnsupported.
func Filter(filters any) (vectorstore.Filter, error) {
	switch f := filters.(type) {
	case nil:
		return vectorstore.Filter{}, nil
	case vectorstore.Filter:
		return f, nil
	case map[string]any:
		return meta.Filter(f)
	case map[string]string:
		m := make(map[string]any, len(f))
		for k, v := range f {
			m[k] = v
		}
		return meta.Filter(m)
	}
	return vectorstore.Filter{}, fmt.Errorf("%w: filters of type %T: give a map[string]any", meta.ErrUnsupported, filters)
}

// document converts a hit into a langchaingo document.
func document(h vectorstore.Hit, kind meta.ScoreKind) schema.Document {
	m := meta.FromRecord(h.Record)
	m[meta.ScoreKindKey] = kind.String()
	return schema.Document{PageContent: h.Text, Metadata: m, Score: h.Score}
}

// embedDocuments embeds texts with the call's langchaingo embedder if it
// gave one, else with the store's.
func (s *Store) embedDocuments(ctx context.Context, e embeddings.Embedder, texts []string) ([][]float32, error) {
	if e != nil {
		return RagkitEmbedder(e).Embed(ctx, texts)
	}
	return embedAll(ctx, s.cfg.Embedder.Embed, texts)
}

func apply(options []vectorstores.Option) vectorstores.Options {
	var o vectorstores.Options
	for _, opt := range options {
		opt(&o)
	}
	return o
}

// Passages converts retrieved langchaingo documents back into ragkit
// passages, each with its document's Score, by meta.ToPassage (no
// DocIDKey): what a [Store] or a [Retriever] returns becomes what it was,
// ready for retrieve.Items with its Citation labels and the budget, and a
// store's hit for ragkit's windows (Passage.Hits). A document meta.ToPassage
// refuses gives an error naming its position.
func Passages(docs []schema.Document) ([]retrieve.Passage, error) {
	ps := make([]retrieve.Passage, len(docs))
	for i, d := range docs {
		p, err := meta.ToPassage(d.PageContent, d.Metadata, "", d.Score)
		if err != nil {
			return nil, fmt.Errorf("langchaingo: document %d: %w", i, err)
		}
		ps[i] = p
	}
	return ps, nil
}
