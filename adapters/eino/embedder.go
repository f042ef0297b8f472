package eino

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/cloudwego/eino/components/embedding"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/vectorstore"
)

// ErrConfig reports a configuration that a constructor refused.
var ErrConfig = errors.New("eino: invalid configuration")

// typeName is the component type eino shows for the adapters in graphs and
// callbacks (components.Typer).
const typeName = "Ragkit"

// NewEmbedder returns e as an eino embedding.Embedder. Each float32 becomes
// the float64 of the same value, exactly. embedding.WithModel gives an error
// wrapping meta.ErrUnsupported: e embeds with the one model it has. A wrong
// number of vectors gives an error wrapping meta.ErrEmbedding.
func NewEmbedder(e vectorstore.Embedder) embedding.Embedder { return embedder{e} }

type embedder struct{ e vectorstore.Embedder }

func (e embedder) GetType() string { return typeName }

func (e embedder) EmbedStrings(ctx context.Context, texts []string, opts ...embedding.Option) ([][]float64, error) {
	if o := embedding.GetCommonOptions(nil, opts...); o.Model != nil {
		return nil, fmt.Errorf("%w: embedding.WithModel(%q): a ragkit Embedder has one model", meta.ErrUnsupported, *o.Model)
	}
	vs, err := e.e.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("%w: %d vectors for %d texts", meta.ErrEmbedding, len(vs), len(texts))
	}
	out := make([][]float64, len(vs))
	for i, v := range vs {
		out[i] = make([]float64, len(v))
		for j, x := range v {
			out[i][j] = float64(x)
		}
	}
	return out, nil
}

// RagkitEmbedder returns an eino embedder as a vectorstore.Embedder. Each
// float64 is rounded to the nearest float32 (see the package documentation
// for what that loses); a component a float32 cannot hold, or a wrong number
// of vectors, gives an error wrapping meta.ErrEmbedding.
func RagkitEmbedder(e embedding.Embedder) vectorstore.Embedder { return ragkitEmbedder{e} }

type ragkitEmbedder struct{ e embedding.Embedder }

func (e ragkitEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return embed64(ctx, e.e, texts)
}

func embed64(ctx context.Context, e embedding.Embedder, texts []string, opts ...embedding.Option) ([][]float32, error) {
	vs, err := e.EmbedStrings(ctx, texts, opts...)
	if err != nil {
		return nil, err
	}
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("%w: %d vectors for %d texts", meta.ErrEmbedding, len(vs), len(texts))
	}
	out := make([][]float32, len(vs))
	for i, v := range vs {
		if out[i], err = float32s(v); err != nil {
			return nil, fmt.Errorf("vector %d: %w", i, err)
		}
	}
	return out, nil
}

// float32s rounds v to float32s, refusing what a float32 cannot hold.
func float32s(v []float64) ([]float32, error) {
	out := make([]float32, len(v))
	for i, x := range v {
		f := float32(x)
		if math.IsInf(float64(f), 0) || math.IsNaN(x) {
			return nil, fmt.Errorf("%w: component %d is %v, which a float32 cannot hold", meta.ErrEmbedding, i, x)
		}
		out[i] = f
	}
	return out, nil
}
