package retrieve_test

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/llm/openai"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
)

// TestDiversityNaNVector: a NaN in the vector the embedder gives a passage
// for EmbeddedVectors is an error, not a picking that stops at 1 passage
// of 4.
func TestDiversityNaNVector(t *testing.T) {
	store, emb := folder(t, 60, nearCopies...)
	calls := 0
	nan := embedFunc(func(texts []string) ([][]float32, error) {
		vs, err := emb.Embed(bg, texts)
		if calls++; calls > 1 && err == nil && len(vs) > 1 {
			vs[1][0] = float32(math.NaN())
		}
		return vs, err
	})
	ps, err := newRetriever(t, retrieve.Config{Store: store, Embedder: nan, Search: retrieve.Vector, Passages: 4,
		Diversity: retrieve.Diversity{Lambda: 0.5, Vectors: retrieve.EmbeddedVectors}}).Retrieve(bg, uberQuestion)
	require.ErrorIs(t, err, vectorstore.ErrInvalidArgument, "%d passages", len(ps))
	require.ErrorContains(t, err, "NaN")
}

// TestRerankScoreBeyondFloat32: a score finite as a float64 but not as the
// float32 Score it becomes is not finite.
func TestRerankScoreBeyondFloat32(t *testing.T) {
	store, emb := folder(t, 40, twelveNotes...)
	for _, s := range []float64{1e39, -1e39, math.MaxFloat64} {
		rr := rerankFunc(func(_ context.Context, _ string, texts []string) ([]float64, error) {
			scores := make([]float64, len(texts))
			scores[1] = s
			return scores, nil
		})
		ps, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Reranker: rr,
			Diversity: retrieve.Diversity{Lambda: 0.5}}).Retrieve(bg, reviewQuestion)
		require.Nil(t, ps)
		require.ErrorIs(t, err, retrieve.ErrReranker, "score %v", s)
	}
}

// TestRerankOpenAIWrongCount: an openai.Reranker whose server answers with
// too few scores gives ErrReranker through a Retriever, as Config.Reranker
// promises, and still openai.ErrBadResponse.
func TestRerankOpenAIWrongCount(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"results": []map[string]any{{"index": 0, "relevance_score": 0.5}}})
	}))
	defer srv.Close()
	c, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1", NoRetries: true})
	require.NoError(t, err)
	rr, err := openai.NewReranker(openai.RerankerConfig{Client: c, Model: "m"})
	require.NoError(t, err)
	store, emb := folder(t, 40, twelveNotes...)
	_, err = newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Reranker: rr}).Retrieve(bg, reviewQuestion)
	require.ErrorIs(t, err, retrieve.ErrReranker)
	require.ErrorIs(t, err, openai.ErrBadResponse)
}

// TestFuseWeightsBeyondFloat32: weights whose fused score would pass
// math.MaxFloat32 (+Inf as a float32 Score) are refused.
func TestFuseWeightsBeyondFloat32(t *testing.T) {
	list := []vectorstore.Hit{{Record: vectorstore.Record{ID: "a", DocID: "a"}, Score: 1}}
	for _, m := range []retrieve.FusionMethod{retrieve.Reciprocal, retrieve.Relative} {
		hits, err := retrieve.Fuse(retrieve.FusionConfig{Method: m, K: 1, Weights: []float64{4e38, 4e38}}, list, list)
		require.ErrorIs(t, err, retrieve.ErrConfig, "%v: %v", m, hits)
	}
	hits, err := retrieve.Fuse(retrieve.FusionConfig{K: 1, Weights: []float64{1e38, 1e38}}, list, list)
	require.NoError(t, err)
	require.False(t, math.IsInf(float64(hits[0].Score), 0))
}
