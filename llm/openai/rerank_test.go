package openai_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/llm/openai"
)

// rerankScore is the fake model's score of a text: the number of the
// query's words in it, minus 2, so that scores fall outside [0, 1].
func rerankScore(query, text string) float64 {
	n := 0
	for _, w := range strings.Fields(query) {
		if strings.Contains(text, w) {
			n++
		}
	}
	return float64(n) - 2
}

type rerankRequest struct {
	Model           string   `json:"model"`
	Query           string   `json:"query"`
	Documents       []string `json:"documents"`
	TopN            int      `json:"top_n"`
	ReturnDocuments bool     `json:"return_documents"`
}

// rerankAPI is a fake rerank endpoint answering in a given shape,
// results in reverse order.
type rerankAPI struct {
	shape string // "results" (Cohere, Jina, vLLM, llama.cpp), "data", "bare" (text-embeddings-inference)
	score string // "relevance_score" or "score"

	mu       sync.Mutex
	requests []rerankRequest
	paths    []string
}

func (a *rerankAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req rerankRequest
	raw, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(raw, &req); err != nil {
		writeJSON(w, 400, apiError("bad JSON", "invalid_request_error", ""))
		return
	}
	a.mu.Lock()
	a.requests = append(a.requests, req)
	a.paths = append(a.paths, r.URL.Path)
	a.mu.Unlock()
	results := make([]map[string]any, len(req.Documents))
	for i, d := range req.Documents {
		results[len(results)-1-i] = map[string]any{"index": i, a.score: rerankScore(req.Query, d)}
	}
	var body any = results
	if a.shape != "bare" {
		body = map[string]any{"id": "rr-1", "model": req.Model, a.shape: results, "usage": map[string]any{"total_tokens": 42}}
	}
	b, _ := json.Marshal(body)
	writeJSON(w, 200, string(b))
}

func newReranker(t *testing.T, h http.Handler, cfg openai.RerankerConfig) *openai.Reranker {
	t.Helper()
	srv := server(t, h.ServeHTTP)
	ccfg := fastConfig(srv)
	ccfg.APIKey = "sk-rerank-0123456789"
	cfg.Client = newClient(t, ccfg)
	r, err := openai.NewReranker(cfg)
	require.NoError(t, err)
	return r
}

var rerankTexts = []string{
	"Employees may expense ride-hailing on business travel.",
	"The cafeteria opens at eight.",
	"Business travel needs a manager's approval.",
	"Ride-hailing is not covered for commuting.",
}

func TestRerankResponseShapes(t *testing.T) {
	const query = "ride-hailing business travel"
	for _, shape := range []string{"results", "data", "bare"} {
		for _, score := range []string{"relevance_score", "score"} {
			t.Run(shape+"/"+score, func(t *testing.T) {
				api := &rerankAPI{shape: shape, score: score}
				r := newReranker(t, api, openai.RerankerConfig{Model: "bge-reranker-v2-m3"})
				got, err := r.Rerank(context.Background(), query, rerankTexts)
				require.NoError(t, err)
				assert.Equal(t, []float64{1, -2, -1, -2}, got)
				require.Len(t, api.requests, 1)
				assert.Equal(t, rerankRequest{Model: "bge-reranker-v2-m3", Query: query, Documents: rerankTexts, TopN: 4}, api.requests[0])
				assert.Equal(t, "/v1/rerank", api.paths[0])
			})
		}
	}
}

func TestRerankBatches(t *testing.T) {
	api := &rerankAPI{shape: "results", score: "relevance_score"}
	r := newReranker(t, api, openai.RerankerConfig{BatchSize: 3, Concurrency: 2, Path: "v2/rerank"})
	var texts []string
	for i := range 10 {
		texts = append(texts, strings.Repeat("word ", i%4)+strconv.Itoa(i))
	}
	got, err := r.Rerank(context.Background(), "word word word", texts)
	require.NoError(t, err)
	for i, text := range texts {
		assert.Equal(t, rerankScore("word word word", text), got[i], "text %d", i)
	}
	sizes := map[int]int{}
	for i, req := range api.requests {
		sizes[len(req.Documents)]++
		assert.Empty(t, req.Model, "no model: left out")
		assert.Equal(t, "/v1/v2/rerank", api.paths[i])
	}
	assert.Equal(t, map[int]int{3: 3, 1: 1}, sizes)

	got, err = r.Rerank(context.Background(), "q", nil)
	require.NoError(t, err)
	assert.Empty(t, got)
	assert.Len(t, api.requests, 4, "no request for no texts")
}

func TestRerankBadResponses(t *testing.T) {
	two := []string{"first text", "second text"}
	tests := map[string]string{
		"not JSON":           `<html>502</html>`,
		"no results":         `{"model":"m"}`,
		"results not array":  `{"results":{"index":0}}`,
		"fewer":              `{"results":[{"index":0,"relevance_score":0.5}]}`,
		"more":               `{"results":[{"index":0,"relevance_score":0.5},{"index":1,"relevance_score":0.5},{"index":1,"relevance_score":0.5}]}`,
		"duplicate index":    `{"results":[{"index":1,"relevance_score":0.5},{"index":1,"relevance_score":0.4}]}`,
		"index out of range": `{"results":[{"index":0,"relevance_score":0.5},{"index":2,"relevance_score":0.4}]}`,
		"negative index":     `{"results":[{"index":0,"relevance_score":0.5},{"index":-1,"relevance_score":0.4}]}`,
		"missing index":      `{"results":[{"index":0,"relevance_score":0.5},{"relevance_score":0.4}]}`,
		"missing score":      `{"results":[{"index":0,"relevance_score":0.5},{"index":1}]}`,
		"string score":       `{"results":[{"index":0,"relevance_score":"high"},{"index":1,"relevance_score":0.4}]}`,
		"fractional index":   `{"results":[{"index":0.5,"relevance_score":0.5},{"index":1,"relevance_score":0.4}]}`,
		"score out of range": `{"results":[{"index":0,"relevance_score":1e999},{"index":1,"relevance_score":0.4}]}`,
		"bare, wrong count":  `[{"index":0,"score":0.5}]`,
	}
	for name, body := range tests {
		t.Run(name, func(t *testing.T) {
			var n atomic.Int64
			r := newReranker(t, counted(&n, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, body) }), openai.RerankerConfig{})
			_, err := r.Rerank(context.Background(), "query", two)
			require.ErrorIs(t, err, openai.ErrBadResponse)
			assert.Equal(t, 1, strings.Count(err.Error(), "openai:"), err.Error())
			assert.Equal(t, int64(1), n.Load(), "an unusable answer is not retried")
		})
	}
}

func TestRerankRetries(t *testing.T) {
	api := &rerankAPI{shape: "results", score: "relevance_score"}
	for _, status := range []int{429, 500, 502, 503} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			var n atomic.Int64
			r := newReranker(t, counted(&n, func(w http.ResponseWriter, r *http.Request) {
				if n.Load() <= 2 {
					w.Header().Set("Retry-After-Ms", "1")
					writeJSON(w, status, apiError("try again", "server_error", ""))
					return
				}
				api.ServeHTTP(w, r)
			}), openai.RerankerConfig{})
			got, err := r.Rerank(context.Background(), "business travel", rerankTexts)
			require.NoError(t, err)
			assert.Equal(t, []float64{0, -2, -1, -2}, got)
			assert.Equal(t, int64(3), n.Load())
		})
	}
	var n atomic.Int64
	r := newReranker(t, counted(&n, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 401, apiError("Incorrect API key provided", "invalid_request_error", "invalid_api_key"))
	}), openai.RerankerConfig{})
	_, err := r.Rerank(context.Background(), "q", rerankTexts)
	require.ErrorIs(t, err, openai.ErrAuth)
	assert.Contains(t, err.Error(), "batch 1 of 1 (texts 0-3)")
	assert.Equal(t, int64(1), n.Load(), "a 401 is not retried")
}

func TestRerankTimeout(t *testing.T) {
	var n atomic.Int64
	srv := server(t, counted(&n, hang(nil)))
	cfg := fastConfig(srv)
	cfg.Timeout, cfg.Deadline = 50*time.Millisecond, 120*time.Millisecond
	r, err := openai.NewReranker(openai.RerankerConfig{Client: newClient(t, cfg)})
	require.NoError(t, err)
	_, err = r.Rerank(context.Background(), "q", rerankTexts)
	require.ErrorIs(t, err, openai.ErrTimeout)
	assert.LessOrEqual(t, n.Load(), int64(3))
}

func TestRerankKey(t *testing.T) {
	var auth atomic.Value
	api := &rerankAPI{shape: "results", score: "relevance_score"}
	r := newReranker(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization"))
		api.ServeHTTP(w, r)
	}), openai.RerankerConfig{})
	_, err := r.Rerank(context.Background(), "q", rerankTexts[:1])
	require.NoError(t, err)
	assert.Equal(t, "Bearer sk-rerank-0123456789", auth.Load())
}

func TestRerankInvalid(t *testing.T) {
	api := &rerankAPI{shape: "results", score: "relevance_score"}
	r := newReranker(t, api, openai.RerankerConfig{})
	ctx := context.Background()
	_, err := r.Rerank(ctx, " \n", rerankTexts)
	assert.ErrorIs(t, err, openai.ErrInvalid)
	_, err = r.Rerank(ctx, "q", []string{"fine", ""})
	assert.ErrorIs(t, err, openai.ErrInvalid)
	assert.Contains(t, err.Error(), "text 1")
	_, err = r.Rerank(ctx, "q", []string{"\xff"})
	assert.ErrorIs(t, err, openai.ErrInvalid)
	assert.Empty(t, api.requests, "no request")

	c := r.Config().Client
	for _, cfg := range []openai.RerankerConfig{
		{Client: c, BatchSize: -1},
		{Client: c, Concurrency: -2},
		{Client: c, Path: "rerank?x=1"},
		{Client: c, Path: "../rerank"},
	} {
		_, err := openai.NewReranker(cfg)
		assert.ErrorIs(t, err, openai.ErrConfig, "%+v", cfg)
	}
	_, err = (*openai.Reranker)(nil).Rerank(ctx, "q", rerankTexts)
	assert.ErrorIs(t, err, openai.ErrConfig)
	assert.Equal(t, 32, r.Config().BatchSize)
	assert.Equal(t, "rerank", r.Config().Path)
}
