package eino

import (
	"context"
	"fmt"

	"github.com/cloudwego/eino/components/retriever"
	"github.com/cloudwego/eino/schema"
	"github.com/ragkit/ragkit/adapters/internal/query"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
)

// PassageRetriever is a ragkit retrieve.Retriever as an eino
// retriever.Retriever: the whole of ragkit's query side (hybrid search,
// fusion, filters, sentence windows or segments) as one node of a graph. It
// is safe for concurrent use if the Retriever is.
type PassageRetriever struct {
	r *retrieve.Retriever
}

var _ retriever.Retriever = (*PassageRetriever)(nil)

// NewPassageRetriever returns r as an eino retriever.
func NewPassageRetriever(r *retrieve.Retriever) *PassageRetriever {
	return &PassageRetriever{r: r}
}

// GetType names the component in eino's graphs and callbacks.
func (r *PassageRetriever) GetType() string { return typeName }

// Retrieve returns the Retriever's passages for query, best first: ID by
// meta.PassageID, Content the passage's text, metadata by meta.FromPassage
// (meta.ScoreKindKey says what the score is: fused for a Hybrid search), and
// the passage's score as the document's Score.
//
// Options: retriever.WithTopK runs the Retriever with that many passages;
// [WithFilter] with that filter and the Retriever's own together (their
// intersection, by meta.Combine: a call's filter narrows the Retriever's and
// never widens or replaces it); retriever.WithScoreThreshold keeps passages scoring at least
// that, for a Vector search only (cosine similarities; on fused or keyword
// scores it is an error wrapping meta.ErrUnsupported); WithEmbedding embeds
// the question with that embedder. retriever.WithIndex, WithSubIndex and
// WithDSLInfo give an error wrapping meta.ErrUnsupported. The Retriever's
// errors are returned as they are.
func (r *PassageRetriever) Retrieve(ctx context.Context, question string, opts ...retriever.Option) ([]*schema.Document, error) {
	o := retriever.GetCommonOptions(nil, opts...)
	switch {
	case o.Index != nil || o.SubIndex != nil:
		return nil, fmt.Errorf("%w: retriever.WithIndex or WithSubIndex: ragkit stores have no indexes to choose", meta.ErrUnsupported)
	case o.DSLInfo != nil:
		return nil, fmt.Errorf("%w: retriever.WithDSLInfo", meta.ErrUnsupported)
	}
	var q query.Options
	if o.TopK != nil {
		if *o.TopK < 1 {
			return nil, fmt.Errorf("%w: retriever.WithTopK(%d): must be positive", vectorstore.ErrInvalidArgument, *o.TopK)
		}
		q.K = *o.TopK
	}
	q.Threshold = o.ScoreThreshold
	var err error
	if q.Filter, err = meta.Filter(retriever.GetImplSpecificOptions(&retrieveOptions{}, opts...).filter); err != nil {
		return nil, err
	}
	if o.Embedding != nil {
		vs, err := embed64(ctx, o.Embedding, []string{question})
		if err != nil {
			return nil, err
		}
		q.Vector = vs[0]
	}
	ps, kind, err := query.Run(ctx, r.r, question, q)
	if err != nil {
		return nil, err
	}
	docs := make([]*schema.Document, len(ps))
	for i, p := range ps {
		d := &schema.Document{ID: meta.PassageID(p), Content: p.Text, MetaData: meta.FromPassage(p, kind)}
		delete(d.MetaData, meta.ScoreKey) // eino keeps the score under its own key
		docs[i] = d.WithScore(float64(p.Score))
	}
	return docs, nil
}
