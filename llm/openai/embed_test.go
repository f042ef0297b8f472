package openai_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/internal/testcorpus"
	"github.com/ragkit/ragkit/llm/openai"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/tokentest"
	"github.com/ragkit/ragkit/vectorstore"
)

var _ vectorstore.Embedder = (*openai.Embedder)(nil)

func newEmbedder(t testing.TB, srv http.Handler, cfg openai.EmbedderConfig) (*openai.Embedder, *embedAPI) {
	t.Helper()
	api, _ := srv.(*embedAPI)
	s := server(t, srv.ServeHTTP)
	if cfg.Client == nil {
		cfg.Client = newClient(t, fastConfig(s))
	}
	if cfg.Model == "" {
		cfg.Model = "text-embedding-3-small"
	}
	e, err := openai.NewEmbedder(cfg)
	require.NoError(t, err)
	return e, api
}

// requireVectors checks that each vector is its text's.
func requireVectors(t *testing.T, in []string, out [][]float32) {
	t.Helper()
	require.Len(t, out, len(in))
	for i := range in {
		require.Equal(t, vectorOf(in[i]), out[i], "vector %d", i)
	}
}

func TestEmbedOrderAndBatchSize(t *testing.T) {
	in := texts(1000)
	e, api := newEmbedder(t, &embedAPI{MaxInputs: 300}, openai.EmbedderConfig{BatchSize: 300})
	out, err := e.Embed(context.Background(), in)
	require.NoError(t, err)
	requireVectors(t, in, out)
	assert.ElementsMatch(t, []int{300, 300, 300, 100}, api.sizes)
	assert.Equal(t, "text-embedding-3-small", api.bodies[0]["model"])
	assert.NotContains(t, api.bodies[0], "dimensions")
}

func TestEmbedBatchOverServerLimit(t *testing.T) {
	in := texts(20)
	e, _ := newEmbedder(t, &embedAPI{MaxInputs: 8}, openai.EmbedderConfig{BatchSize: 10})
	_, err := e.Embed(context.Background(), in)
	require.ErrorIs(t, err, openai.ErrBadRequest)
	assert.Contains(t, err.Error(), "'$.input' is invalid")
	assert.Regexp(t, `batch [12] of 2 \(texts (0-9|10-19)\)`, err.Error())
}

func TestEmbedBatchTokens(t *testing.T) {
	in := make([]string, 200)
	for i := range in {
		in[i] = strings.Repeat("word ", 1+i%50) + "end"
	}
	words := tokentest.Words{}
	e, api := newEmbedder(t, &embedAPI{MaxTokens: 500, Count: words.Count}, openai.EmbedderConfig{Tokenizer: words, BatchTokens: 500, Concurrency: 1})
	out, err := e.Embed(context.Background(), in)
	require.NoError(t, err)
	requireVectors(t, in, out)
	total := 0
	for i, n := range api.tokens {
		assert.LessOrEqual(t, n, 500, "request %d", i)
		total += n
	}
	// Batches are filled: a request and the next hold more than the limit.
	for i := 1; i < len(api.tokens); i++ {
		assert.Greater(t, api.tokens[i-1]+api.tokens[i], 500)
	}
	assert.Equal(t, total, func() (s int) {
		for _, t := range in {
			s += words.Count(t)
		}
		return
	}())
}

func TestEmbedTextTooLong(t *testing.T) {
	var n atomic.Int64
	srv := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1) })
	in := []string{"short", "also short", strings.Repeat("long words ", 100)}
	tests := []struct {
		name string
		cfg  openai.EmbedderConfig
		want string
	}{
		{"over MaxTextTokens", openai.EmbedderConfig{Tokenizer: tokentest.Words{}, MaxTextTokens: 199}, `text 2 ("long words long words long words long wo…") has 200 tokens, the limit is 199 (counted; cut smaller texts or raise MaxTextTokens if the model takes more)`},
		{"over BatchTokens", openai.EmbedderConfig{Tokenizer: tokentest.Words{}, BatchTokens: 150}, `has 200 tokens, the limit is 150 (counted; cut smaller texts or raise BatchTokens if the model takes more)`},
		{"estimated", openai.EmbedderConfig{MaxTextTokens: 100}, `the limit is 100 (estimated high; cut smaller texts, raise MaxTextTokens if the model takes more, or give the model's Tokenizer for exact counts)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := newEmbedder(t, srv, tt.cfg)
			_, err := e.Embed(context.Background(), in)
			require.ErrorIs(t, err, openai.ErrTextTooLong)
			assert.Contains(t, err.Error(), tt.want)
			assert.Equal(t, int64(0), n.Load(), "no request")
		})
	}
	e, _ := newEmbedder(t, &embedAPI{}, openai.EmbedderConfig{Tokenizer: tokentest.Words{}, MaxTextTokens: 200})
	_, err := e.Embed(context.Background(), in[2:])
	require.NoError(t, err, "a text at the limit is sent")
}

// Without a Tokenizer the estimate errs high: no paragraph of the corpora
// that cl100k_base counts over the limit gets through.
func TestEmbedEstimateIsConservative(t *testing.T) {
	var n atomic.Int64
	c := newClient(t, fastConfig(server(t, func(w http.ResponseWriter, r *http.Request) { n.Add(1) })))
	cl100k, err := tokencount.Encoding(tokencount.Cl100kBase)
	require.NoError(t, err)
	names, err := testcorpus.Names()
	require.NoError(t, err)
	checked := 0
	for _, name := range names {
		text := testcorpus.Must(t, name)
		for _, p := range segment.Paragraphs(text) {
			para := text[p.Start:p.End]
			exact := cl100k.Count(para)
			if exact < 2 {
				continue
			}
			checked++
			e, err := openai.NewEmbedder(openai.EmbedderConfig{Client: c, Model: "m", MaxTextTokens: exact - 1})
			require.NoError(t, err)
			_, err = e.Embed(context.Background(), []string{para})
			require.ErrorIs(t, err, openai.ErrTextTooLong, "%s: %q (%d tokens)", name, para, exact)
		}
	}
	assert.Greater(t, checked, 5000)
	assert.Equal(t, int64(0), n.Load())
}

func TestEmbedBadInput(t *testing.T) {
	e, api := newEmbedder(t, &embedAPI{}, openai.EmbedderConfig{})
	tests := []struct {
		name string
		in   []string
		want error
		text string
	}{
		{"empty", []string{"a", ""}, openai.ErrInvalid, "text 1 is empty"},
		{"white space", []string{" \n\t "}, openai.ErrInvalid, "text 0 is empty"},
		{"invalid UTF-8", []string{"a", "b", "\xff"}, openai.ErrInvalid, "text 2 is not valid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.Embed(context.Background(), tt.in)
			require.ErrorIs(t, err, tt.want)
			assert.Contains(t, err.Error(), tt.text)
		})
	}
	out, err := e.Embed(context.Background(), nil)
	require.NoError(t, err)
	assert.Empty(t, out)
	assert.Equal(t, int64(0), api.requests.Load())
}

func TestNewEmbedderInvalid(t *testing.T) {
	c := newClient(t, openai.Config{BaseURL: "http://localhost:11434/v1"})
	for _, cfg := range []openai.EmbedderConfig{
		{Client: c},
		{Client: c, Model: "m", BatchSize: -1},
		{Client: c, Model: "m", BatchTokens: -1},
		{Client: c, Model: "m", MaxTextTokens: -1},
		{Client: c, Model: "m", Dimensions: -1},
		{Client: c, Model: "m", Concurrency: -1},
	} {
		_, err := openai.NewEmbedder(cfg)
		assert.ErrorIs(t, err, openai.ErrConfig, "%+v", cfg)
	}
	e, err := openai.NewEmbedder(openai.EmbedderConfig{Client: c, Model: "m"})
	require.NoError(t, err)
	got := e.Config()
	assert.Equal(t, 256, got.BatchSize)
	assert.Equal(t, 100_000, got.BatchTokens)
	assert.Equal(t, 8191, got.MaxTextTokens)
	assert.Equal(t, 4, got.Concurrency)
}

func TestEmbedNegativeCount(t *testing.T) {
	e, _ := newEmbedder(t, &embedAPI{}, openai.EmbedderConfig{Tokenizer: tokentest.Func(func(string) int { return -1 })})
	_, err := e.Embed(context.Background(), []string{"a"})
	require.ErrorIs(t, err, openai.ErrConfig)
}

func TestEmbedDimensions(t *testing.T) {
	var body atomic.Value
	srv := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req map[string]any
		json.NewDecoder(r.Body).Decode(&req)
		body.Store(req)
		writeJSON(w, 200, `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.1,0.2,0.3]}],"model":"text-embedding-3-small","usage":{"prompt_tokens":1,"total_tokens":1}}`)
	})
	e, _ := newEmbedder(t, srv, openai.EmbedderConfig{Dimensions: 3})
	out, err := e.Embed(context.Background(), []string{"a"})
	require.NoError(t, err)
	assert.Equal(t, [][]float32{{0.1, 0.2, 0.3}}, out)
	assert.Equal(t, float64(3), body.Load().(map[string]any)["dimensions"])

	e, _ = newEmbedder(t, srv, openai.EmbedderConfig{Dimensions: 2})
	_, err = e.Embed(context.Background(), []string{"a"})
	require.ErrorIs(t, err, openai.ErrBadResponse)
	assert.Contains(t, err.Error(), "3 dimensions, asked for 2")
}

func TestEmbedBadResponses(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"too few", `{"data":[{"index":0,"embedding":[1,2]}]}`, "1 embeddings for 2 texts"},
		{"repeated index", `{"data":[{"index":1,"embedding":[1,2]},{"index":1,"embedding":[3,4]}]}`, "embedding 1 has a missing, repeated or out-of-range index"},
		{"index out of range", `{"data":[{"index":0,"embedding":[1,2]},{"index":2,"embedding":[3,4]}]}`, "out-of-range index"},
		{"index missing on one", `{"data":[{"index":1,"embedding":[1,2]},{"embedding":[3,4]}]}`, "embedding 1 has a missing"},
		{"index on one only", `{"data":[{"embedding":[1,2]},{"index":1,"embedding":[3,4]}]}`, "embedding 1 has an index, embedding 0 has none"},
		{"lengths differ", `{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[3]}]}`, "embedding 1: 1 dimensions, embedding 0 has 2"},
		{"empty vector", `{"data":[{"index":0,"embedding":[]},{"index":1,"embedding":[]}]}`, "embedding 0: empty vector"},
		{"base64", `{"data":[{"index":0,"embedding":"AACAPwAAAEA="},{"index":1,"embedding":"AACAPwAAAEA="}]}`, "embeddings: json"},
		{"not JSON", `<html>hello</html>`, `body starts "<html>hello</html>"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := newEmbedder(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 200, tt.body)
			}), openai.EmbedderConfig{})
			_, err := e.Embed(context.Background(), []string{"a", "b"})
			require.ErrorIs(t, err, openai.ErrBadResponse)
			assert.Contains(t, err.Error(), tt.want)
			assert.Contains(t, err.Error(), "batch 1 of 1 (texts 0-1)")
		})
	}
}

func TestEmbedWithoutIndexKeepsOrder(t *testing.T) {
	e, _ := newEmbedder(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, `{"data":[{"embedding":[1,2]},{"embedding":[3,4]}]}`)
	}), openai.EmbedderConfig{})
	out, err := e.Embed(context.Background(), []string{"a", "b"})
	require.NoError(t, err)
	assert.Equal(t, [][]float32{{1, 2}, {3, 4}}, out)
}

func TestEmbedDimensionsAgreeAcrossBatches(t *testing.T) {
	var n atomic.Int64
	e, _ := newEmbedder(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			writeJSON(w, 200, `{"data":[{"index":0,"embedding":[1,2]}]}`)
			return
		}
		writeJSON(w, 200, `{"data":[{"index":0,"embedding":[1,2,3]}]}`)
	}), openai.EmbedderConfig{BatchSize: 1, Concurrency: 1})
	_, err := e.Embed(context.Background(), []string{"a", "b"})
	require.ErrorIs(t, err, openai.ErrBadResponse)
	assert.Contains(t, err.Error(), "text 1 has 3 dimensions, text 0 has 2")
}

func TestEmbedConcurrencyBound(t *testing.T) {
	const limit = 3
	var inflight, peak atomic.Int64
	full := make(chan struct{})
	var once sync.Once
	api := &embedAPI{}
	srv := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inflight.Add(1)
		defer inflight.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		if n == limit {
			once.Do(func() { close(full) })
		}
		select { // hold the first requests until the bound is reached
		case <-full:
		case <-time.After(10 * time.Second):
		}
		api.ServeHTTP(w, r)
	})
	in := texts(40)
	e, _ := newEmbedder(t, srv, openai.EmbedderConfig{BatchSize: 2, Concurrency: limit})
	out, err := e.Embed(context.Background(), in)
	require.NoError(t, err)
	requireVectors(t, in, out)
	assert.Equal(t, int64(limit), peak.Load())
	assert.Equal(t, int64(20), api.requests.Load())
}

func TestEmbedFailureCancelsOtherBatches(t *testing.T) {
	var n atomic.Int64
	srv := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 2 {
			writeJSON(w, 400, apiError("bad input", "invalid_request_error", ""))
			return
		}
		hang(nil)(w, r)
	})
	e, _ := newEmbedder(t, srv, openai.EmbedderConfig{BatchSize: 1, Concurrency: 2})
	err := within(t, func() error {
		_, err := e.Embed(context.Background(), texts(10))
		return err
	})
	require.ErrorIs(t, err, openai.ErrBadRequest)
	assert.Regexp(t, `openai: 400 Bad Request \(invalid_request_error\): bad input: batch \d+ of 10 \(texts \d+-\d+\)`, err.Error())
	assert.LessOrEqual(t, n.Load(), int64(3))
}

func TestEmbedRetriesABatch(t *testing.T) {
	var n atomic.Int64
	api := &embedAPI{}
	srv := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After-Ms", "1")
			writeJSON(w, 429, apiError("Rate limit reached for text-embedding-3-small", "requests", "rate_limit_exceeded"))
			return
		}
		api.ServeHTTP(w, r)
	})
	in := texts(5)
	e, _ := newEmbedder(t, srv, openai.EmbedderConfig{})
	out, err := e.Embed(context.Background(), in)
	require.NoError(t, err)
	requireVectors(t, in, out)
}

func TestEmbedCancelled(t *testing.T) {
	e, api := newEmbedder(t, &embedAPI{}, openai.EmbedderConfig{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := e.Embed(ctx, texts(3))
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, int64(0), api.requests.Load())
}
