package langchaingo

import (
	"context"
	"fmt"
	"slices"

	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/tmc/langchaingo/embeddings"
)

// NewEmbedder returns e as a langchaingo embeddings.Embedder: EmbedDocuments
// is e.Embed, EmbedQuery e.Embed of one text. A wrong number of vectors gives
// an error wrapping meta.ErrEmbedding.
func NewEmbedder(e vectorstore.Embedder) embeddings.Embedder { return embedder{e} }

type embedder struct{ e vectorstore.Embedder }

func (e embedder) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	return embedAll(ctx, e.e.Embed, texts)
}

func (e embedder) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	vs, err := embedAll(ctx, e.e.Embed, []string{text})
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

// RagkitEmbedder returns a langchaingo embedder as a vectorstore.Embedder,
// for ingest, vectorstore.Hybrid or a [Store]. Embed calls
// e.EmbedDocuments with a copy of texts, since langchaingo's EmbedderImpl
// rewrites the slice it is given when StripNewLines is set. A wrong number
// of vectors gives an error wrapping meta.ErrEmbedding.
func RagkitEmbedder(e embeddings.Embedder) vectorstore.Embedder { return ragkitEmbedder{e} }

type ragkitEmbedder struct{ e embeddings.Embedder }

func (e ragkitEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return embedAll(ctx, e.e.EmbedDocuments, slices.Clone(texts))
}

// embedAll calls embed and checks that it gave one vector per text.
func embedAll(ctx context.Context, embed func(context.Context, []string) ([][]float32, error), texts []string) ([][]float32, error) {
	vs, err := embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("%w: %d vectors for %d texts", meta.ErrEmbedding, len(vs), len(texts))
	}
	return vs, nil
}
