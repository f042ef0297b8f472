package retrieve_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/llm/openai"
	"github.com/ragkit/ragkit/retrieve"
)

// openai.Reranker is a retrieve.Reranker.
var _ retrieve.Reranker = (*openai.Reranker)(nil)

// wordReranker is a fake cross-encoder: a text scores the number of the
// query's words of four letters or more it holds, minus 3 (so that
// scores fall outside [0, 1]). It records the texts of each call.
type wordReranker struct {
	mu    sync.Mutex
	calls [][]string
}

func wordScore(query, text string) float64 {
	n := 0
	for _, w := range strings.Fields(strings.ToLower(strings.Trim(query, "?"))) {
		if len(w) >= 4 && strings.Contains(strings.ToLower(text), w) {
			n++
		}
	}
	return float64(n) - 3
}

func (f *wordReranker) Rerank(_ context.Context, query string, texts []string) ([]float64, error) {
	f.mu.Lock()
	f.calls = append(f.calls, texts)
	f.mu.Unlock()
	out := make([]float64, len(texts))
	for i, t := range texts {
		out[i] = wordScore(query, t)
	}
	return out, nil
}

// rerankFunc is a Reranker of one function.
type rerankFunc func(ctx context.Context, query string, texts []string) ([]float64, error)

func (f rerankFunc) Rerank(ctx context.Context, q string, t []string) ([]float64, error) {
	return f(ctx, q, t)
}

const reviewQuestion = "Who has to approve a code review before merging?"

func TestRerank(t *testing.T) {
	store, emb := folder(t, 40, twelveNotes...)
	rr := &wordReranker{}
	r := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Search: retrieve.Vector,
		Reranker: rr, RerankDepth: 10, RerankBatch: 4, Passages: 3})
	ps, err := r.Retrieve(bg, reviewQuestion)
	require.NoError(t, err)
	require.Len(t, ps, 3)

	// The reranker saw the best 10 passages of the vector search, in
	// batches of at most 4, in their order.
	plain, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Search: retrieve.Vector, Passages: 10}).Retrieve(bg, reviewQuestion)
	require.NoError(t, err)
	var seen []string
	for _, c := range rr.calls {
		require.LessOrEqual(t, len(c), 4)
		seen = append(seen, c...)
	}
	require.Len(t, rr.calls, 3)
	want := make([]string, len(plain))
	for i, p := range plain {
		want[i] = p.Text
	}
	require.Equal(t, want, seen)

	// Ranked by the reranker's scores, which the passages carry.
	for i, p := range ps {
		assert.Equal(t, float32(wordScore(reviewQuestion, p.Text)), p.Score, "passage %d", i)
		if i > 0 {
			assert.GreaterOrEqual(t, ps[i-1].Score, p.Score)
		}
	}
	require.Equal(t, "handbook.md", ps[0].DocID)
	require.Contains(t, ps[0].Text, "Code review\n\nBefore merging")
	require.Equal(t, float32(1), ps[0].Score, "code, review, before, merging: 4 words, minus 3")
}

func TestRerankDefaults(t *testing.T) {
	store, emb := folder(t, 40, twelveNotes...)
	rr := &wordReranker{}
	r := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Reranker: rr})
	assert.Equal(t, retrieve.DefaultRerankDepth, r.Config().RerankDepth)
	assert.Equal(t, 30, newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Reranker: rr, Passages: 30}).Config().RerankDepth)
	_, err := r.Retrieve(bg, reviewQuestion)
	require.NoError(t, err)
	require.Len(t, rr.calls, 1, "one call: batching is the reranker's")
	require.Len(t, rr.calls[0], 16, "every chunk of the folder: fewer than DefaultRerankDepth")
}

// TestRerankOpenAI: an openai.Reranker against a fake rerank server
// (results out of order, scores outside [0, 1]) reranks the passages.
func TestRerankOpenAI(t *testing.T) {
	var mu sync.Mutex
	requests := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Query     string   `json:"query"`
			Documents []string `json:"documents"`
		}
		if r.URL.Path != "/v1/rerank" || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		mu.Lock()
		requests++
		mu.Unlock()
		type result struct {
			Index int     `json:"index"`
			Score float64 `json:"relevance_score"`
		}
		res := make([]result, len(req.Documents))
		for i, d := range req.Documents { // best first, as the servers answer
			res[len(res)-1-i] = result{i, wordScore(req.Query, d)}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"results": res})
	}))
	defer srv.Close()
	c, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1", APIKey: "sk-test"})
	require.NoError(t, err)
	rr, err := openai.NewReranker(openai.RerankerConfig{Client: c, Model: "bge-reranker-v2-m3", BatchSize: 5})
	require.NoError(t, err)

	store, emb := folder(t, 40, twelveNotes...)
	ps, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Search: retrieve.Vector, Reranker: rr, Passages: 3}).Retrieve(bg, reviewQuestion)
	require.NoError(t, err)
	want, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Search: retrieve.Vector, Reranker: &wordReranker{}, Passages: 3}).Retrieve(bg, reviewQuestion)
	require.NoError(t, err)
	require.Equal(t, want, ps, "the same ranking as the same scores given directly")
	require.Equal(t, 4, requests, "the 16 chunks of the folder in batches of 5")
}

func TestRerankErrors(t *testing.T) {
	store, emb := folder(t, 40, twelveNotes...)
	boom := errors.New("reranker down")
	for name, tt := range map[string]struct {
		rr   retrieve.Reranker
		want error
		msg  string
	}{
		"error": {rerankFunc(func(context.Context, string, []string) ([]float64, error) { return nil, boom }), boom, "retrieve: reranking passages 0 to 15: reranker down"},
		"panic": {rerankFunc(func(context.Context, string, []string) ([]float64, error) { panic("reranker bug") }), retrieve.ErrPanic, "reranker bug"},
		"too few": {rerankFunc(func(_ context.Context, _ string, t []string) ([]float64, error) {
			return make([]float64, len(t)-1), nil
		}), retrieve.ErrReranker, "returned 15 scores for 16 passages"},
		"too many": {rerankFunc(func(_ context.Context, _ string, t []string) ([]float64, error) {
			return make([]float64, len(t)+1), nil
		}), retrieve.ErrReranker, "returned 17 scores for 16 passages"},
		"NaN": {rerankFunc(func(_ context.Context, _ string, t []string) ([]float64, error) {
			s := make([]float64, len(t))
			s[2] = math.NaN()
			return s, nil
		}), retrieve.ErrReranker, "scored passage 2"},
		"infinite": {rerankFunc(func(_ context.Context, _ string, t []string) ([]float64, error) {
			s := make([]float64, len(t))
			s[0] = math.Inf(1)
			return s, nil
		}), retrieve.ErrReranker, "+Inf: scores must be finite"},
		"openai zero": {&openai.Reranker{}, openai.ErrConfig, "use openai.NewReranker"},
	} {
		t.Run(name, func(t *testing.T) {
			ps, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Reranker: tt.rr}).Retrieve(bg, reviewQuestion)
			require.Nil(t, ps)
			require.ErrorIs(t, err, tt.want)
			require.ErrorContains(t, err, tt.msg)
		})
	}
}

// TestRerankCancellation: a cancelled question stops between batches,
// and the context reaches the reranker.
func TestRerankCancellation(t *testing.T) {
	store, emb := folder(t, 40, twelveNotes...)
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	calls := 0
	rr := rerankFunc(func(ctx context.Context, _ string, t []string) ([]float64, error) {
		calls++
		cancel() // the caller gives up during the first batch
		return make([]float64, len(t)), ctx.Err()
	})
	_, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Reranker: rr, RerankBatch: 5}).Retrieve(ctx, reviewQuestion)
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, 1, calls)

	calls = 0
	ctx, cancel = context.WithCancel(bg)
	rr = func(_ context.Context, _ string, t []string) ([]float64, error) {
		calls++
		cancel() // the reranker finishes its batch; the next one is not sent
		return make([]float64, len(t)), nil
	}
	_, err = newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Reranker: rr, RerankBatch: 5}).Retrieve(ctx, reviewQuestion)
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, 1, calls)
}

func TestPickingConfigErrors(t *testing.T) {
	store, emb := folder(t, 40, threeNotes...)
	rr := &wordReranker{}
	for _, tt := range []struct {
		name string
		cfg  retrieve.Config
		msg  string
	}{
		{"negative rerank depth", retrieve.Config{Reranker: rr, RerankDepth: -1}, "RerankDepth is -1: must be 0 or more"},
		{"rerank depth below passages", retrieve.Config{Reranker: rr, RerankDepth: 5, Passages: 6}, "RerankDepth is 5: must be 0 or at least Passages (6)"},
		{"negative rerank batch", retrieve.Config{Reranker: rr, RerankBatch: -3}, "RerankBatch is -3"},
		{"rerank depth without reranker", retrieve.Config{RerankDepth: 10}, "RerankDepth and RerankBatch need a Reranker"},
		{"NaN min score", retrieve.Config{Search: retrieve.Vector, MinScore: math.NaN()}, "MinScore is NaN: must be finite"},
		{"infinite min score", retrieve.Config{Search: retrieve.Vector, MinScore: math.Inf(-1)}, "MinScore is -Inf"},
		{"min score of fused ranks", retrieve.Config{MinScore: 0.1}, "MinScore is 0.1 with Hybrid search and no Reranker"},
		{"min score zero of fused ranks", retrieve.Config{MinScoreZero: true}, "MinScore is 0 with Hybrid search and no Reranker"},
		{"min score and min score zero", retrieve.Config{Search: retrieve.Vector, MinScore: 0.2, MinScoreZero: true}, "MinScore is 0.2: must be 0 with MinScoreZero"},
		{"lambda above 1", retrieve.Config{Diversity: retrieve.Diversity{Lambda: 1.5}}, "Diversity.Lambda is 1.5: must be in [0, 1]"},
		{"negative lambda", retrieve.Config{Diversity: retrieve.Diversity{Lambda: -0.5}}, "Diversity.Lambda is -0.5"},
		{"NaN lambda", retrieve.Config{Diversity: retrieve.Diversity{Lambda: math.NaN()}}, "Diversity.Lambda is NaN"},
		{"negative per document", retrieve.Config{Diversity: retrieve.Diversity{PerDocument: -1}}, "Diversity.PerDocument is -1"},
		{"vectors out of range", retrieve.Config{Diversity: retrieve.Diversity{Lambda: 0.5, Vectors: 9}}, "Diversity.Vectors is Vectors(9)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.Store, tt.cfg.Embedder = store, emb
			r, err := retrieve.New(tt.cfg)
			require.Nil(t, r)
			require.ErrorIs(t, err, retrieve.ErrConfig)
			require.ErrorContains(t, err, "retrieve: invalid configuration: "+tt.msg)
		})
	}
	_, err := retrieve.New(retrieve.Config{Store: store, Search: retrieve.Keywords, Diversity: retrieve.Diversity{Lambda: 0.5, Vectors: retrieve.EmbeddedVectors}})
	require.ErrorIs(t, err, retrieve.ErrConfig)
	require.ErrorContains(t, err, "EmbeddedVectors: an Embedder is required")
	// A hybrid search may cut reranked scores.
	newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Reranker: rr, MinScore: -1})
	assert.Equal(t, "EmbeddedVectors", retrieve.EmbeddedVectors.String())
}
