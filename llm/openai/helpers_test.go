package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/llm/openai"
)

// server starts a test server for h and closes it when the test ends.
func server(t testing.TB, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// counted counts the requests that reach h in n.
func counted(n *atomic.Int64, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		h(w, r)
	}
}

// fastConfig is a Config for srv whose retries do not wait long.
func fastConfig(srv *httptest.Server) openai.Config {
	return openai.Config{
		BaseURL:     srv.URL + "/v1",
		Timeout:     10 * time.Second,
		BackoffBase: time.Millisecond,
		BackoffMax:  4 * time.Millisecond,
	}
}

func newClient(t testing.TB, cfg openai.Config) *openai.Client {
	t.Helper()
	c, err := openai.New(cfg)
	require.NoError(t, err)
	return c
}

// waits records the waits a client asks for instead of spending them.
type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func recordWaits(c *openai.Client) *waits {
	w := &waits{}
	openai.SetSleep(c, func(ctx context.Context, d time.Duration) error {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.d = append(w.d, d)
		return ctx.Err()
	})
	return w
}

func (w *waits) all() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]time.Duration(nil), w.d...)
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// apiError is an error body as OpenAI sends it.
func apiError(message, typ, code string) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": message, "type": typ, "param": nil, "code": nilIfEmpty(code),
	}})
	return string(b)
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// chatCompletion is a chat completion as OpenAI sends it.
func chatCompletion(content, finish string) string {
	b, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG", "object": "chat.completion",
		"created": 1741570283, "model": "gpt-4o-mini-2024-07-18",
		"choices": []any{map[string]any{
			"index":    0,
			"message":  map[string]any{"role": "assistant", "content": content, "refusal": nil, "annotations": []any{}},
			"logprobs": nil, "finish_reason": finish,
		}},
		"usage": map[string]any{
			"prompt_tokens": 19, "completion_tokens": 10, "total_tokens": 29,
			"prompt_tokens_details":     map[string]any{"cached_tokens": 0, "audio_tokens": 0},
			"completion_tokens_details": map[string]any{"reasoning_tokens": 0, "audio_tokens": 0},
		},
		"service_tier": "default", "system_fingerprint": "fp_06737a9306",
	})
	return string(b)
}

// chunk is one streamed chat completion chunk as OpenAI sends it:
// content "" with role set is the opening chunk, finish set is the last.
func chunk(content, finish string) string {
	delta := map[string]any{}
	if content != "" {
		delta["content"] = content
	}
	if content == "" && finish == "" {
		delta = map[string]any{"role": "assistant", "content": "", "refusal": nil}
	}
	b, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-123", "object": "chat.completion.chunk", "created": 1694268190,
		"model": "gpt-4o-mini-2024-07-18", "service_tier": "default", "system_fingerprint": "fp_44709d6fcb",
		"choices": []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": nilIfEmpty(finish)}},
	})
	return "data: " + string(b) + "\n\n"
}

// sse starts an event stream response.
func sse(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

func flush(w http.ResponseWriter) { w.(http.Flusher).Flush() }

// vectorOf is the fake embedding of a text: its length, its first byte and
// a hash, so that a test can tell which text a vector belongs to.
func vectorOf(text string) []float32 {
	h := uint32(2166136261)
	for i := 0; i < len(text); i++ {
		h = (h ^ uint32(text[i])) * 16777619
	}
	return []float32{float32(len(text)), float32(text[0]), float32(h % 10007)}
}

// embedAPI is a fake embeddings endpoint. It answers in reverse order (as
// a server may) and refuses, as OpenAI does, a request with more than
// MaxInputs inputs or, counting with Count, more than MaxTokens tokens.
type embedAPI struct {
	MaxInputs int
	MaxTokens int
	Count     func(string) int

	requests atomic.Int64
	mu       sync.Mutex
	sizes    []int // inputs per request
	tokens   []int // tokens per request
	bodies   []map[string]any
}

func (a *embedAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.requests.Add(1)
	if r.URL.Path != "/v1/embeddings" || r.Method != http.MethodPost {
		writeJSON(w, 404, apiError("Invalid URL (POST "+r.URL.Path+")", "invalid_request_error", ""))
		return
	}
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	raw, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(raw, &req); err != nil {
		writeJSON(w, 400, apiError("We could not parse the JSON body of your request.", "invalid_request_error", ""))
		return
	}
	var body map[string]any
	json.Unmarshal(raw, &body)
	sum := 0
	for _, in := range req.Input {
		if a.Count != nil {
			sum += a.Count(in)
		}
	}
	a.mu.Lock()
	a.sizes = append(a.sizes, len(req.Input))
	a.tokens = append(a.tokens, sum)
	a.bodies = append(a.bodies, body)
	a.mu.Unlock()
	if a.MaxInputs > 0 && len(req.Input) > a.MaxInputs {
		writeJSON(w, 400, apiError(fmt.Sprintf("'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference. (at most %d inputs)", a.MaxInputs), "invalid_request_error", ""))
		return
	}
	if a.MaxTokens > 0 && sum > a.MaxTokens {
		writeJSON(w, 400, apiError(fmt.Sprintf("Requested %d tokens, max %d tokens per request", sum, a.MaxTokens), "max_tokens_per_request", "max_tokens_per_request"))
		return
	}
	writeJSON(w, 200, embeddings(req.Model, req.Input, true))
}

// embeddings is an embeddings response for inputs as OpenAI sends it,
// with the data in reverse order if reverse.
func embeddings(model string, inputs []string, reverse bool) string {
	data := make([]any, len(inputs))
	for i, in := range inputs {
		at := i
		if reverse {
			at = len(inputs) - 1 - i
		}
		data[at] = map[string]any{"object": "embedding", "index": i, "embedding": vectorOf(in)}
	}
	b, _ := json.Marshal(map[string]any{
		"object": "list", "data": data, "model": model,
		"usage": map[string]any{"prompt_tokens": 8, "total_tokens": 8},
	})
	return string(b)
}

// texts returns n distinct texts.
func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("text number %d %s", i, strings.Repeat("x", i%7))
	}
	return out
}
