package langchaingo

import (
	"context"

	"github.com/ragkit/ragkit/adapters/internal/query"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/tmc/langchaingo/schema"
)

// Retriever is a ragkit retrieve.Retriever as a langchaingo
// schema.Retriever, for chains such as chains.NewRetrievalQAFromLLM: the
// whole of ragkit's query side (hybrid search, fusion, filters, sentence
// windows or segments) behind langchaingo's one method. It is safe for
// concurrent use if the Retriever is.
type Retriever struct {
	r *retrieve.Retriever
}

var _ schema.Retriever = (*Retriever)(nil)

// NewRetriever returns r as a langchaingo retriever. Its configuration
// (search, filter, number of passages, widener) applies to every call:
// schema.Retriever takes no options.
func NewRetriever(r *retrieve.Retriever) *Retriever { return &Retriever{r: r} }

// GetRelevantDocuments returns the passages of the Retriever for query,
// best first: PageContent the passage's text, Score its score, and metadata
// by meta.FromPassage, whose meta.ScoreKindKey says what the score is (a
// fused score for a Hybrid search, not a cosine similarity). The
// Retriever's errors are returned as they are; a cancelled ctx stops it.
func (r *Retriever) GetRelevantDocuments(ctx context.Context, question string) ([]schema.Document, error) {
	ps, kind, err := query.Run(ctx, r.r, question, query.Options{})
	if err != nil {
		return nil, err
	}
	docs := make([]schema.Document, len(ps))
	for i, p := range ps {
		docs[i] = schema.Document{PageContent: p.Text, Metadata: meta.FromPassage(p, kind), Score: p.Score}
	}
	return docs, nil
}
