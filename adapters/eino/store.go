package eino

import (
	"context"
	"fmt"
	"maps"

	"github.com/cloudwego/eino/components/embedding"
	"github.com/cloudwego/eino/components/indexer"
	"github.com/cloudwego/eino/components/retriever"
	"github.com/cloudwego/eino/schema"
	"github.com/ragkit/ragkit/adapters/internal/query"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
)

// DefaultTopK is how many documents a [Retriever] returns when neither its
// configuration nor the call sets TopK.
const DefaultTopK = 4

// StoreConfig configures an [Indexer] and a [Retriever].
type StoreConfig struct {
	// Store holds the records. Required.
	Store vectorstore.VectorStore
	// Embedder embeds documents and queries. Required; a call's
	// indexer.WithEmbedding or retriever.WithEmbedding replaces it for
	// that call.
	Embedder vectorstore.Embedder
	// DocIDKey is the metadata key of a document's ID when its metadata
	// has no meta.DocIDKey; empty means none (see [Indexer.Store]).
	DocIDKey string
	// TopK is how many documents a Retriever returns unless the call sets
	// retriever.WithTopK. Zero means [DefaultTopK]; negative is an error.
	TopK int
}

func (c StoreConfig) check() error {
	return query.CheckStore(ErrConfig, c.Store, c.Embedder, "TopK", c.TopK)
}

// Indexer is a ragkit vectorstore.VectorStore as an eino indexer.Indexer. It
// is safe for concurrent use if its store and embedder are.
type Indexer struct {
	cfg StoreConfig
}

var _ indexer.Indexer = (*Indexer)(nil)

// NewIndexer returns an Indexer configured by cfg; a missing Store or
// Embedder, or a negative TopK, gives an error wrapping [ErrConfig].
func NewIndexer(cfg StoreConfig) (*Indexer, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return &Indexer{cfg: cfg}, nil
}

// GetType names the component in eino's graphs and callbacks.
func (x *Indexer) GetType() string { return typeName }

// Store upserts docs as records made by meta.ToRecord (numbered by
// meta.Number) and returns their IDs in order. A document's ID is its ID
// field (else the one meta.ToRecord makes); its document is its metadata's
// meta.DocIDKey, else its StoreConfig.DocIDKey, else its ID field, else one
// made from its text. A
// document with a dense vector (schema.Document.WithDenseVector) is stored
// with that vector rounded to float32; the others are embedded in one call,
// each its meta.EmbedTextKey if it has one, else its Content.
//
// indexer.WithEmbedding embeds with that embedder. indexer.WithSubIndexes,
// a document with sub-indexes or a sparse vector, and metadata that
// meta.ToRecord refuses give an error wrapping meta.ErrUnsupported; a nil
// document an error too. The store's errors are returned as they are.
func (x *Indexer) Store(ctx context.Context, docs []*schema.Document, opts ...indexer.Option) ([]string, error) {
	o := indexer.GetCommonOptions(nil, opts...)
	if len(o.SubIndexes) > 0 {
		return nil, fmt.Errorf("%w: indexer.WithSubIndexes: ragkit stores have no sub-indexes", meta.ErrUnsupported)
	}
	units := make([]meta.Unit, len(docs))
	for i, d := range docs {
		var err error
		if units[i], err = x.unit(d); err != nil {
			return nil, fmt.Errorf("eino: document %d: %w", i, err)
		}
	}
	meta.Number(units)
	records := make([]vectorstore.Record, len(docs))
	var texts []string
	var toEmbed []int
	for i, d := range docs {
		records[i] = units[i].Record
		if dv := d.DenseVector(); dv != nil {
			var err error
			if records[i].Vector, err = float32s(dv); err != nil {
				return nil, fmt.Errorf("eino: document %d: dense vector: %w", i, err)
			}
			continue
		}
		texts = append(texts, units[i].EmbedText)
		toEmbed = append(toEmbed, i)
	}
	if len(texts) > 0 {
		vs, err := embedWith(ctx, x.cfg.Embedder, o.Embedding, texts)
		if err != nil {
			return nil, err
		}
		for j, i := range toEmbed {
			records[i].Vector = vs[j]
		}
	}
	if len(records) > 0 {
		if err := x.cfg.Store.Upsert(ctx, records...); err != nil {
			return nil, err
		}
	}
	ids := make([]string, len(records))
	for i, r := range records {
		ids[i] = r.ID
	}
	return ids, nil
}

// unit converts one eino document into a record without its vector.
func (x *Indexer) unit(d *schema.Document) (meta.Unit, error) {
	if d == nil {
		return meta.Unit{}, fmt.Errorf("document is nil")
	}
	if len(d.SubIndexes()) > 0 {
		return meta.Unit{}, fmt.Errorf("%w: sub-indexes: ragkit stores have none", meta.ErrUnsupported)
	}
	if d.SparseVector() != nil {
		return meta.Unit{}, fmt.Errorf("%w: a sparse vector: ragkit stores hold dense vectors", meta.ErrUnsupported)
	}
	m := maps.Clone(d.MetaData)
	for _, k := range wholeDocumentKeys {
		delete(m, k)
	}
	delete(m, "_sub_indexes")
	if d.ID != "" {
		if m == nil {
			m = make(map[string]any, 2)
		}
		m[meta.IDKey] = d.ID
		_, hasDoc := m[meta.DocIDKey]
		_, hasKey := m[x.cfg.DocIDKey]
		if !hasDoc && (x.cfg.DocIDKey == "" || !hasKey) {
			m[meta.DocIDKey] = d.ID
		}
	}
	return meta.ToRecord(d.Content, m, x.cfg.DocIDKey)
}

// Retriever is a ragkit vectorstore.VectorStore as an eino
// retriever.Retriever: a vector search by cosine similarity. It is safe for
// concurrent use if its store and embedder are.
type Retriever struct {
	cfg StoreConfig
}

var _ retriever.Retriever = (*Retriever)(nil)

// NewRetriever returns a Retriever configured by cfg; a missing Store or
// Embedder, or a negative TopK, gives an error wrapping [ErrConfig].
func NewRetriever(cfg StoreConfig) (*Retriever, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.TopK == 0 {
		cfg.TopK = DefaultTopK
	}
	return &Retriever{cfg: cfg}, nil
}

// GetType names the component in eino's graphs and callbacks.
func (r *Retriever) GetType() string { return typeName }

// retrieveOptions are the Retriever's own options.
type retrieveOptions struct {
	filter map[string]any
}

// WithFilter restricts a [Retriever]'s or [PassageRetriever]'s search to the
// records that filter matches, mapped by meta.Filter (values held exactly,
// lists, $in, $gt, $gte, $lt and $lte; meta.DocIDKey selects documents); a
// filter it refuses fails the call with an error wrapping
// meta.ErrUnsupported. On a PassageRetriever it narrows the Retriever's own
// filter (meta.Combine).
func WithFilter(filter map[string]any) retriever.Option {
	return retriever.WrapImplSpecificOptFn(func(o *retrieveOptions) { o.filter = filter })
}

// Retrieve returns the documents nearest to query by cosine similarity,
// best first: ID the record's, Content its text, metadata by
// meta.FromRecord with meta.ScoreKindKey "Cosine", and the cosine similarity
// as the document's Score.
//
// Options: retriever.WithTopK (at least 1), WithScoreThreshold (keeps
// documents scoring at least that, in [-1, 1]), WithEmbedding (embeds the
// query with that embedder) and [WithFilter]. retriever.WithIndex,
// WithSubIndex and WithDSLInfo give an error wrapping meta.ErrUnsupported.
func (r *Retriever) Retrieve(ctx context.Context, query string, opts ...retriever.Option) ([]*schema.Document, error) {
	topK := r.cfg.TopK
	o := retriever.GetCommonOptions(&retriever.Options{TopK: &topK}, opts...)
	switch {
	case o.Index != nil || o.SubIndex != nil:
		return nil, fmt.Errorf("%w: retriever.WithIndex or WithSubIndex: ragkit stores have no indexes to choose", meta.ErrUnsupported)
	case o.DSLInfo != nil:
		return nil, fmt.Errorf("%w: retriever.WithDSLInfo", meta.ErrUnsupported)
	}
	if o.ScoreThreshold != nil {
		if err := meta.CheckThreshold(meta.Cosine, *o.ScoreThreshold); err != nil {
			return nil, err
		}
	}
	filter, err := meta.Filter(retriever.GetImplSpecificOptions(&retrieveOptions{}, opts...).filter)
	if err != nil {
		return nil, err
	}
	vs, err := embedWith(ctx, r.cfg.Embedder, o.Embedding, []string{query})
	if err != nil {
		return nil, err
	}
	hits, err := r.cfg.Store.Query(ctx, vs[0], *o.TopK, filter)
	if err != nil {
		return nil, err
	}
	docs := make([]*schema.Document, 0, len(hits))
	for _, h := range hits {
		if o.ScoreThreshold != nil && float64(h.Score) < *o.ScoreThreshold {
			break // hits come best first
		}
		docs = append(docs, toDocument(h, meta.Cosine))
	}
	return docs, nil
}

// toDocument converts a hit into an eino document.
func toDocument(h vectorstore.Hit, kind meta.ScoreKind) *schema.Document {
	m := meta.FromRecord(h.Record)
	m[meta.ScoreKindKey] = kind.String()
	d := &schema.Document{ID: h.ID, Content: h.Text, MetaData: m}
	return d.WithScore(float64(h.Score))
}

// embedWith embeds texts with the call's eino embedder if it gave one, else
// with e.
func embedWith(ctx context.Context, e vectorstore.Embedder, call embedding.Embedder, texts []string) ([][]float32, error) {
	if call != nil {
		return embed64(ctx, call, texts)
	}
	vs, err := e.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("%w: %d vectors for %d texts", meta.ErrEmbedding, len(vs), len(texts))
	}
	return vs, nil
}

// Passages converts retrieved eino documents back into ragkit passages,
// each with its document's Score rounded to float32, by meta.ToPassage (the
// document's ID field as the record's ID when its metadata has none): what a
// [Retriever] or a [PassageRetriever] returns becomes what it was, ready for
// retrieve.Items with its Citation labels and the budget, and a store's hit
// for ragkit's windows (Passage.Hits). A nil document, one whose score
// meta.Score32 refuses (not a finite float32) or one meta.ToPassage refuses
// gives an error naming its position.
func Passages(docs []*schema.Document) ([]retrieve.Passage, error) {
	ps := make([]retrieve.Passage, len(docs))
	for i, d := range docs {
		if d == nil {
			return nil, fmt.Errorf("eino: document %d is nil", i)
		}
		m := maps.Clone(d.MetaData)
		for _, k := range wholeDocumentKeys {
			delete(m, k)
		}
		_, last := m[meta.LastKey]
		if _, ok := m[meta.IDKey]; !ok && d.ID != "" && !last {
			if m == nil {
				m = make(map[string]any, 1)
			}
			m[meta.IDKey] = d.ID
		}
		score, err := meta.Score32(d.Score())
		if err != nil {
			return nil, fmt.Errorf("eino: document %d: %w", i, err)
		}
		p, err := meta.ToPassage(d.Content, m, "", score)
		if err != nil {
			return nil, fmt.Errorf("eino: document %d: %w", i, err)
		}
		ps[i] = p
	}
	return ps, nil
}
