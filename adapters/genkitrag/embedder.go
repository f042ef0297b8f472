package genkitrag

import (
	"context"
	"fmt"

	"github.com/firebase/genkit/go/ai"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/vectorstore"
)

// NewEmbedder returns e as a Genkit embedder named name, not registered
// anywhere (register it with genkit.RegisterAction, or use it directly). Each
// input document is embedded as its text parts, joined; other parts give an
// error wrapping meta.ErrUnsupported. An empty name gives an error wrapping
// [ErrConfig].
func NewEmbedder(name string, e vectorstore.Embedder) (ai.Embedder, error) {
	if name == "" {
		return nil, fmt.Errorf("%w: name is empty: a Genkit action needs one", ErrConfig)
	}
	if e == nil {
		return nil, fmt.Errorf("%w: Embedder is nil: it is required", ErrConfig)
	}
	return ai.NewEmbedder(name, &ai.EmbedderOptions{Label: name}, func(ctx context.Context, req *ai.EmbedRequest) (*ai.EmbedResponse, error) {
		texts := make([]string, len(req.Input))
		for i, d := range req.Input {
			var err error
			if texts[i], err = textAt(i, d); err != nil {
				return nil, err
			}
		}
		vs, err := embed(ctx, e, texts)
		if err != nil {
			return nil, err
		}
		resp := &ai.EmbedResponse{Embeddings: make([]*ai.Embedding, len(vs))}
		for i, v := range vs {
			resp.Embeddings[i] = &ai.Embedding{Embedding: v}
		}
		return resp, nil
	}), nil
}

// RagkitEmbedder returns a Genkit embedder as a vectorstore.Embedder: each
// text goes in as a document of one text part, with options as the
// request's Options (nil for the embedder's defaults). A response with a
// number of embeddings other than of texts gives an error wrapping
// meta.ErrEmbedding.
func RagkitEmbedder(e ai.Embedder, options any) vectorstore.Embedder {
	return ragkitEmbedder{e: e, options: options}
}

type ragkitEmbedder struct {
	e       ai.Embedder
	options any
}

func (e ragkitEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	req := &ai.EmbedRequest{Input: make([]*ai.Document, len(texts)), Options: e.options}
	for i, t := range texts {
		req.Input[i] = ai.DocumentFromText(t, nil)
	}
	resp, err := e.e.Embed(ctx, req)
	if err != nil {
		return nil, err
	}
	if resp == nil || len(resp.Embeddings) != len(texts) {
		n := 0
		if resp != nil {
			n = len(resp.Embeddings)
		}
		return nil, fmt.Errorf("%w: %d embeddings for %d texts", meta.ErrEmbedding, n, len(texts))
	}
	out := make([][]float32, len(texts))
	for i, emb := range resp.Embeddings {
		if emb == nil {
			return nil, fmt.Errorf("%w: embedding %d is nil", meta.ErrEmbedding, i)
		}
		out[i] = emb.Embedding
	}
	return out, nil
}
