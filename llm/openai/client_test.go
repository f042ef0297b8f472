package openai_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/llm/openai"
)

var hello = []openai.Message{{Role: openai.RoleUser, Content: "Hello"}}

func TestNewEnvironment(t *testing.T) {
	const envKey = "sk-env-0123456789"
	tests := []struct {
		name             string
		envBase, envKey  string
		cfg              openai.Config
		wantBase, wantKy string
	}{
		{name: "nothing set", wantBase: "https://api.openai.com/v1"},
		{name: "key from env for OpenAI", envKey: envKey, wantBase: "https://api.openai.com/v1", wantKy: envKey},
		{name: "base and key from env", envBase: "http://gpu-box:8000/v1/", envKey: envKey, wantBase: "http://gpu-box:8000/v1", wantKy: envKey},
		{name: "explicit OpenAI URL takes the env key", envKey: envKey, cfg: openai.Config{BaseURL: "https://api.openai.com/v1/"}, wantBase: "https://api.openai.com/v1", wantKy: envKey},
		{name: "env key sent to a server named in code", envKey: envKey, cfg: openai.Config{BaseURL: "http://localhost:11434/v1"}, wantBase: "http://localhost:11434/v1", wantKy: envKey},
		{name: "explicit key wins", envKey: envKey, cfg: openai.Config{APIKey: "sk-mine-0123456789"}, wantBase: "https://api.openai.com/v1", wantKy: "sk-mine-0123456789"},
		{name: "explicit base wins over env base", envBase: "http://gpu-box:8000/v1", cfg: openai.Config{BaseURL: "http://localhost:1234/v1"}, wantBase: "http://localhost:1234/v1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("OPENAI_BASE_URL", tt.envBase)
			t.Setenv("OPENAI_API_KEY", tt.envKey)
			c := newClient(t, tt.cfg)
			got := c.Config()
			assert.Equal(t, tt.wantBase, got.BaseURL)
			assert.Equal(t, tt.wantKy, got.APIKey)
			assert.Equal(t, 30*time.Second, got.Timeout)
			assert.Equal(t, 90*time.Second, got.Deadline)
			assert.Equal(t, 30*time.Second, got.StallTimeout)
			assert.Equal(t, 2, got.MaxRetries)
			assert.Equal(t, 500*time.Millisecond, got.BackoffBase)
			assert.Equal(t, 8*time.Second, got.BackoffMax)
			assert.Equal(t, time.Minute, got.MaxRetryAfter)
			assert.NotNil(t, got.HTTPClient)
		})
	}
}

func TestNewInvalid(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_API_KEY", "")
	tests := []struct {
		name string
		cfg  openai.Config
	}{
		{"relative URL", openai.Config{BaseURL: "localhost:11434/v1"}},
		{"other scheme", openai.Config{BaseURL: "ftp://example.com/v1"}},
		{"no host", openai.Config{BaseURL: "http:///v1"}},
		{"key with newline", openai.Config{APIKey: "sk-secret-0123456789\n"}},
		{"key with space", openai.Config{APIKey: "Bearer sk-secret-0123456789"}},
		{"negative backoff", openai.Config{BackoffBase: -time.Second}},
		{"max below base", openai.Config{BackoffBase: time.Second, BackoffMax: time.Millisecond}},
		{"negative retry-after cap", openai.Config{MaxRetryAfter: -1}},
		{"negative timeout", openai.Config{Timeout: -1}},
		{"negative deadline", openai.Config{Deadline: -time.Second}},
		{"negative stall timeout", openai.Config{StallTimeout: -time.Second}},
		{"negative retries", openai.Config{MaxRetries: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := openai.New(tt.cfg)
			require.ErrorIs(t, err, openai.ErrConfig)
			assert.NotContains(t, err.Error(), "secret")
		})
	}
	_, err := openai.New(openai.Config{Deadline: -time.Second})
	assert.EqualError(t, err, "openai: invalid configuration: Deadline is -1s: must not be negative (zero means the default)")
}

// A hung server fails a call within the Deadline, however many retries
// the Timeout would allow.
func TestDeadline(t *testing.T) {
	var n atomic.Int64
	srv := server(t, counted(&n, hang(nil)))
	cfg := fastConfig(srv)
	cfg.Timeout, cfg.Deadline, cfg.MaxRetries = 100*time.Millisecond, 250*time.Millisecond, 10
	c := newClient(t, cfg)
	_, err := c.Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
	require.ErrorIs(t, err, openai.ErrTimeout)
	assert.Contains(t, err.Error(), "no answer within the Deadline (250ms)")
	assert.Less(t, n.Load(), int64(4), "attempts made")
	_, err = c.ChatStream(context.Background(), hello, openai.ChatOptions{Model: "m"}, func(string) error { return nil })
	require.ErrorIs(t, err, openai.ErrTimeout)
	assert.NotErrorIs(t, err, openai.ErrStreamInterrupted)
}

// A wait the server asks for that would end after the Deadline is not
// made.
func TestDeadlineCutsRetryAfter(t *testing.T) {
	var n atomic.Int64
	srv := server(t, counted(&n, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "30")
		writeJSON(w, 429, apiError("Rate limit reached", "requests", "rate_limit_exceeded"))
	}))
	cfg := fastConfig(srv)
	cfg.Deadline = 5 * time.Second
	c := newClient(t, cfg)
	w := recordWaits(c)
	_, err := c.Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
	require.ErrorIs(t, err, openai.ErrTimeout)
	require.ErrorIs(t, err, openai.ErrRateLimited)
	assert.Empty(t, w.all())
	assert.Equal(t, int64(1), n.Load())
}

func TestNoRetries(t *testing.T) {
	var n atomic.Int64
	srv := server(t, counted(&n, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 503, apiError("overloaded", "server_error", ""))
	}))
	cfg := fastConfig(srv)
	cfg.NoRetries = true
	c := newClient(t, cfg)
	_, err := c.Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
	require.ErrorIs(t, err, openai.ErrServer)
	assert.Equal(t, int64(1), n.Load())
}

func TestAuthorizationHeader(t *testing.T) {
	for _, key := range []string{"sk-test-0123456789", ""} {
		t.Run("key="+key, func(t *testing.T) {
			var got atomic.Value
			srv := server(t, func(w http.ResponseWriter, r *http.Request) {
				got.Store(r.Header.Values("Authorization"))
				writeJSON(w, 200, chatCompletion("Hi.", "stop"))
			})
			cfg := fastConfig(srv)
			cfg.APIKey = key
			_, err := newClient(t, cfg).Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
			require.NoError(t, err)
			if key == "" {
				assert.Empty(t, got.Load())
			} else {
				assert.Equal(t, []string{"Bearer " + key}, got.Load())
			}
		})
	}
}

func TestZeroValues(t *testing.T) {
	ctx := context.Background()
	var c openai.Client
	_, err := c.Chat(ctx, hello, openai.ChatOptions{Model: "m"})
	assert.ErrorIs(t, err, openai.ErrConfig)
	assert.EqualError(t, err, "openai: invalid configuration: a zero Client: use openai.New")
	_, err = (*openai.Client)(nil).ChatStream(ctx, hello, openai.ChatOptions{Model: "m"}, func(string) error { return nil })
	assert.ErrorIs(t, err, openai.ErrConfig)
	assert.Equal(t, "openai.Client{}", c.String())
	var e openai.Embedder
	_, err = e.Embed(ctx, []string{"a"})
	assert.ErrorIs(t, err, openai.ErrConfig)
	_, err = (*openai.Embedder)(nil).Embed(ctx, []string{"a"})
	assert.ErrorIs(t, err, openai.ErrConfig)
	var s openai.Summarizer
	_, err = s.Summarize(ctx, "a")
	assert.ErrorIs(t, err, openai.ErrConfig)
	_, err = openai.NewEmbedder(openai.EmbedderConfig{Client: &c, Model: "m"})
	assert.ErrorIs(t, err, openai.ErrConfig)
	_, err = openai.NewSummarizer(openai.SummarizerConfig{Client: &c, Model: "m"})
	assert.ErrorIs(t, err, openai.ErrConfig)
}

// statusThen answers the first len(statuses) requests with those statuses
// (and headers), then with a chat completion.
func statusThen(n *atomic.Int64, header http.Header, statuses ...int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		if i >= len(statuses) {
			writeJSON(w, 200, chatCompletion("Done.", "stop"))
			return
		}
		for k, v := range header {
			w.Header()[k] = v
		}
		code := ""
		if statuses[i] == 429 {
			code = "rate_limit_exceeded"
		}
		writeJSON(w, statuses[i], apiError(http.StatusText(statuses[i]), "test_error", code))
	}
}

func TestRetries(t *testing.T) {
	tests := []struct {
		name     string
		header   http.Header
		statuses []int
		retries  int
		attempts int64
		want     error // nil: success in the end
	}{
		{name: "500 then success", statuses: []int{500}, attempts: 2},
		{name: "429, 502, 503 then success", statuses: []int{429, 502, 503}, retries: 3, attempts: 4},
		{name: "503 until retries run out", statuses: []int{503, 503, 503, 503}, attempts: 3, want: openai.ErrServer},
		{name: "429 until retries run out", statuses: []int{429, 429, 429}, attempts: 3, want: openai.ErrRateLimited},
		{name: "400 not retried", statuses: []int{400}, attempts: 1, want: openai.ErrBadRequest},
		{name: "401 not retried", statuses: []int{401}, attempts: 1, want: openai.ErrAuth},
		{name: "403 not retried", statuses: []int{403}, attempts: 1, want: openai.ErrAuth},
		{name: "404 not retried", statuses: []int{404}, attempts: 1, want: openai.ErrNotFound},
		{name: "422 not retried", statuses: []int{422}, attempts: 1, want: openai.ErrBadRequest},
		{name: "501 not retried", statuses: []int{501}, attempts: 1, want: openai.ErrServer},
		{name: "x-should-retry false", header: http.Header{"X-Should-Retry": {"false"}}, statuses: []int{500}, attempts: 1, want: openai.ErrServer},
		{name: "x-should-retry true", header: http.Header{"X-Should-Retry": {"true"}}, statuses: []int{409}, attempts: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n atomic.Int64
			srv := server(t, statusThen(&n, tt.header, tt.statuses...))
			cfg := fastConfig(srv)
			cfg.MaxRetries = tt.retries
			r, err := newClient(t, cfg).Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
			assert.Equal(t, tt.attempts, n.Load(), "attempts")
			if tt.want == nil {
				require.NoError(t, err)
				assert.Equal(t, "Done.", r.Content)
				return
			}
			require.ErrorIs(t, err, tt.want)
			var apiErr *openai.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, tt.statuses[tt.attempts-1], apiErr.StatusCode)
			if tt.attempts > 1 {
				assert.Contains(t, err.Error(), "gave up after 3 attempts")
			}
		})
	}
}

func TestQuotaIsNotRetried(t *testing.T) {
	var n atomic.Int64
	srv := server(t, counted(&n, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 429, apiError("You exceeded your current quota, please check your plan and billing details.", "insufficient_quota", "insufficient_quota"))
	}))
	_, err := newClient(t, fastConfig(srv)).Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
	require.ErrorIs(t, err, openai.ErrQuotaExceeded)
	assert.NotErrorIs(t, err, openai.ErrRateLimited)
	assert.Equal(t, int64(1), n.Load())
}

func TestRetryAfter(t *testing.T) {
	date := time.Now().Add(5 * time.Second).UTC().Format(http.TimeFormat)
	tests := []struct {
		name     string
		header   http.Header
		min, max time.Duration
	}{
		{"seconds", http.Header{"Retry-After": {"3"}}, 3 * time.Second, 3*time.Second + 10*time.Millisecond},
		{"HTTP date", http.Header{"Retry-After": {date}}, 3 * time.Second, 5*time.Second + 10*time.Millisecond},
		{"retry-after-ms first", http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"1"}}, 250 * time.Millisecond, 260 * time.Millisecond},
		{"date in the past: backoff", http.Header{"Retry-After": {"Wed, 21 Oct 2015 07:28:00 GMT"}}, 0, 40 * time.Millisecond},
		{"garbage: backoff", http.Header{"Retry-After": {"soon"}}, 0, 40 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n atomic.Int64
			srv := server(t, statusThen(&n, tt.header, 429))
			cfg := fastConfig(srv)
			cfg.BackoffBase, cfg.BackoffMax = 40*time.Millisecond, 40*time.Millisecond
			c := newClient(t, cfg)
			w := recordWaits(c)
			_, err := c.Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
			require.NoError(t, err)
			got := w.all()
			require.Len(t, got, 1)
			assert.GreaterOrEqual(t, got[0], tt.min)
			assert.LessOrEqual(t, got[0], tt.max)
		})
	}
}

func TestRetryAfterOverCap(t *testing.T) {
	var n atomic.Int64
	srv := server(t, statusThen(&n, http.Header{"Retry-After": {"3600"}}, 429))
	c := newClient(t, fastConfig(srv))
	w := recordWaits(c)
	_, err := c.Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
	require.ErrorIs(t, err, openai.ErrRateLimited)
	var apiErr *openai.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, time.Hour, apiErr.RetryAfter)
	assert.Equal(t, int64(1), n.Load())
	assert.Empty(t, w.all())
}

func TestBackoffGrowsWithinCeiling(t *testing.T) {
	var n atomic.Int64
	srv := server(t, statusThen(&n, nil, 500, 500, 500, 500, 500, 500))
	cfg := fastConfig(srv)
	cfg.MaxRetries, cfg.BackoffBase, cfg.BackoffMax = 6, 100*time.Millisecond, 400*time.Millisecond
	for range 20 { // the waits are random: look at several runs
		n.Store(0)
		c := newClient(t, cfg)
		w := recordWaits(c)
		_, err := c.Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
		require.NoError(t, err)
		got := w.all()
		require.Len(t, got, 6)
		for i, d := range got {
			ceiling := min(400*time.Millisecond, 100*time.Millisecond<<i)
			assert.True(t, d >= 0 && d <= ceiling, "wait %d is %v, ceiling %v", i, d, ceiling)
		}
	}
}

func TestErrorBodies(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   openai.APIError
	}{
		{"OpenAI", 401, apiError("Incorrect API key provided: sk-abc***xyz. You can find your API key at https://platform.openai.com/account/api-keys.", "invalid_request_error", "invalid_api_key"),
			openai.APIError{StatusCode: 401, Type: "invalid_request_error", Code: "invalid_api_key", Message: "Incorrect API key provided: sk-abc***xyz. You can find your API key at https://platform.openai.com/account/api-keys."}},
		{"Ollama model not pulled", 404, `{"error":{"message":"model \"llama3.2\" not found, try pulling it first","type":"api_error","param":null,"code":null}}`,
			openai.APIError{StatusCode: 404, Type: "api_error", Message: `model "llama3.2" not found, try pulling it first`}},
		{"llama.cpp numeric code", 501, `{"error":{"code":501,"message":"This server does not support embeddings. Start it with ` + "`--embeddings`" + `","type":"not_supported_error"}}`,
			openai.APIError{StatusCode: 501, Type: "not_supported_error", Code: "501", Message: "This server does not support embeddings. Start it with `--embeddings`"}},
		{"older vLLM, top level", 400, `{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.","type":"BadRequestError","param":null,"code":400}`,
			openai.APIError{StatusCode: 400, Type: "BadRequestError", Code: "400", Message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens."}},
		{"error as a string", 500, `{"error":"llama runner process has terminated: exit status 2"}`,
			openai.APIError{StatusCode: 500, Message: "llama runner process has terminated: exit status 2"}},
		{"FastAPI detail", 422, `{"detail":"Not Found"}`, openai.APIError{StatusCode: 422, Message: "Not Found"}},
		{"HTML from a proxy", 502, "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n",
			openai.APIError{StatusCode: 502, Message: "<html> <head><title>502 Bad Gateway</title></head> <body> <center><h1>502 Bad Gateway</h1></center> </body> </html>"}},
		{"empty body", 503, "", openai.APIError{StatusCode: 503}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := server(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-Request-Id", "req_123")
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			})
			cfg := fastConfig(srv)
			cfg.NoRetries = true
			_, err := newClient(t, cfg).Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
			var got *openai.APIError
			require.ErrorAs(t, err, &got)
			tt.want.RequestID = "req_123"
			assert.Equal(t, tt.want.StatusCode, got.StatusCode)
			assert.Equal(t, tt.want.Type, got.Type)
			assert.Equal(t, tt.want.Code, got.Code)
			assert.Equal(t, tt.want.Message, got.Message)
			assert.Equal(t, tt.want.RequestID, got.RequestID)
		})
	}
}

func TestAPIErrorString(t *testing.T) {
	e := &openai.APIError{StatusCode: 429, Type: "requests", Code: "rate_limit_exceeded", Message: "Rate limit reached.", RequestID: "req_1"}
	assert.Equal(t, "openai: 429 Too Many Requests (requests, rate_limit_exceeded): Rate limit reached. [request req_1]", e.Error())
	e = &openai.APIError{StatusCode: 500}
	assert.Equal(t, "openai: 500 Internal Server Error", e.Error())
	e = &openai.APIError{StatusCode: 400, Code: "context_length_exceeded", Message: "too long"}
	assert.Equal(t, "openai: 400 Bad Request (context_length_exceeded): too long", e.Error())
	assert.ErrorIs(t, e, openai.ErrContextLength)
	assert.ErrorIs(t, e, openai.ErrBadRequest)
	assert.NotErrorIs(t, e, openai.ErrServer)
}

func TestLongErrorBodyIsCut(t *testing.T) {
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(502)
		w.Write([]byte(strings.Repeat("é", 100_000)))
	})
	cfg := fastConfig(srv)
	cfg.NoRetries = true
	_, err := newClient(t, cfg).Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
	var got *openai.APIError
	require.ErrorAs(t, err, &got)
	assert.LessOrEqual(t, len(got.Message), openai.MaxMessage+len("…"))
	assert.True(t, strings.HasSuffix(got.Message, "é…"))
}

// hang is a handler that never answers; it returns when the client goes
// (which the server notices once it has read the request body).
func hang(arrived chan<- struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if arrived != nil {
			select {
			case arrived <- struct{}{}:
			default:
			}
		}
		<-r.Context().Done()
	}
}

func TestTimeout(t *testing.T) {
	var n atomic.Int64
	srv := server(t, counted(&n, hang(nil)))
	cfg := fastConfig(srv)
	cfg.Timeout, cfg.MaxRetries = 50*time.Millisecond, 1
	_, err := newClient(t, cfg).Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
	require.ErrorIs(t, err, openai.ErrTimeout)
	assert.NotErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, int64(2), n.Load())
}

// within fails the test if f does not return within a generous bound: a
// guard against hanging, not a measurement.
func within(t *testing.T, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("did not stop")
		return nil
	}
}

// Cancelling the context stops a request in flight, or the wait before
// the next attempt (here a real one of 50 s), at once.
func TestCancelStops(t *testing.T) {
	tests := []struct {
		name    string
		handler func(arrived chan<- struct{}) http.HandlerFunc
	}{
		{"request", hang},
		{"wait", func(arrived chan<- struct{}) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Retry-After", "50")
				writeJSON(w, 429, apiError("Rate limit reached", "requests", "rate_limit_exceeded"))
				arrived <- struct{}{}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			arrived := make(chan struct{}, 1)
			c := newClient(t, fastConfig(server(t, tt.handler(arrived))))
			ctx, cancel := context.WithCancel(context.Background())
			go func() { <-arrived; cancel() }()
			err := within(t, func() error {
				_, err := c.Chat(ctx, hello, openai.ChatOptions{Model: "m"})
				return err
			})
			require.ErrorIs(t, err, context.Canceled)
		})
	}
}

func TestCancelledBeforeStart(t *testing.T) {
	var n atomic.Int64
	srv := server(t, statusThen(&n, nil))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := newClient(t, fastConfig(srv)).Chat(ctx, hello, openai.ChatOptions{Model: "m"})
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, int64(0), n.Load())
}

func TestConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	c := newClient(t, openai.Config{BaseURL: "http://" + addr + "/v1", BackoffBase: time.Millisecond, BackoffMax: time.Millisecond})
	_, err = c.Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
	require.ErrorIs(t, err, openai.ErrConnection)
	assert.Contains(t, err.Error(), "gave up after 3 attempts")
}

func TestConnectionDroppedBeforeResponse(t *testing.T) {
	var n atomic.Int64
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			panic(http.ErrAbortHandler) // close the connection, no response
		}
		writeJSON(w, 200, chatCompletion("Back.", "stop"))
	})
	r, err := newClient(t, fastConfig(srv)).Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
	require.NoError(t, err)
	assert.Equal(t, "Back.", r.Content)
	assert.Equal(t, int64(2), n.Load())
}

func TestConnectionDroppedMidBody(t *testing.T) {
	var n atomic.Int64
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"id":"chatcmpl-1","choices":[{"index":0,`))
			flush(w)
			panic(http.ErrAbortHandler)
		}
		writeJSON(w, 200, chatCompletion("Whole.", "stop"))
	})
	r, err := newClient(t, fastConfig(srv)).Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
	require.NoError(t, err)
	assert.Equal(t, "Whole.", r.Content)
	assert.Equal(t, int64(2), n.Load())
}

func TestErrorsAreDistinct(t *testing.T) {
	// Each class sentinel matches only its own statuses.
	classes := map[error][]int{
		openai.ErrBadRequest:  {400, 405, 409, 413, 422},
		openai.ErrAuth:        {401, 403},
		openai.ErrNotFound:    {404},
		openai.ErrRateLimited: {429},
		openai.ErrServer:      {500, 501, 502, 503, 504},
	}
	for sentinel, statuses := range classes {
		for _, s := range statuses {
			e := &openai.APIError{StatusCode: s}
			for other := range classes {
				assert.Equal(t, other == sentinel, errors.Is(e, other), "status %d, %v", s, other)
			}
		}
	}
}
