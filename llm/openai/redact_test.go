package openai_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/llm/openai"
)

const secret = "sk-proj-SECRET0123456789abcdef"

// requireNoKey checks that out shows the key in no form.
func requireNoKey(t *testing.T, out string, format string, args ...any) {
	t.Helper()
	for _, form := range []string{secret, "SECRET0123456789", hex.EncodeToString([]byte(secret)), strings.ToUpper(hex.EncodeToString([]byte(secret)))} {
		require.NotContains(t, out, form, fmt.Sprintf(format, args...))
	}
}

// echoServer answers 500 once, then 401, each time quoting the request's
// Authorization header back, as a careless proxy might.
func echoServer(t *testing.T) *openai.Client {
	var n atomic.Int64
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		status := 401
		if n.Add(1) == 1 {
			status = 500
		}
		writeJSON(w, status, apiError("bad header: "+r.Header.Get("Authorization"), "invalid_request_error", "invalid_api_key"))
	})
	cfg := fastConfig(srv)
	cfg.APIKey = secret
	return newClient(t, cfg)
}

func TestKeyNotPrinted(t *testing.T) {
	c := echoServer(t)
	cfg := c.Config()
	require.Equal(t, secret, cfg.APIKey, "the caller can still read its key")
	e, err := openai.NewEmbedder(openai.EmbedderConfig{Client: c, Model: "m"})
	require.NoError(t, err)
	s, err := openai.NewSummarizer(openai.SummarizerConfig{Client: c, Model: "m"})
	require.NoError(t, err)
	values := map[string]any{
		"Config": cfg, "*Config": &cfg, "Client": c, "Client value": *c,
		"Embedder": e, "EmbedderConfig": e.Config(), "Summarizer": s, "SummarizerConfig": s.Config(),
		"wrapped": struct{ Settings openai.Config }{cfg},
	}
	for name, v := range values {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d"} {
			requireNoKey(t, fmt.Sprintf(verb, v), "%s printed with %s", name, verb)
		}
	}
	assert.Equal(t, `openai.Config{BaseURL: "`+cfg.BaseURL+`", APIKey: [REDACTED], Timeout: 10s, MaxRetries: 2, BackoffBase: 1ms, BackoffMax: 4ms, MaxRetryAfter: 1m0s}`, cfg.String())
	assert.Equal(t, "openai.Client"+strings.TrimPrefix(cfg.String(), "openai.Config"), c.String())

	raw, err := json.Marshal(cfg)
	require.NoError(t, err)
	requireNoKey(t, string(raw), "JSON")

	var buf bytes.Buffer
	for _, h := range []slog.Handler{slog.NewTextHandler(&buf, nil), slog.NewJSONHandler(&buf, nil)} {
		slog.New(h).Info("configured", "config", cfg, "client", c, "embedder", e)
	}
	requireNoKey(t, buf.String(), "slog")
	assert.Contains(t, buf.String(), "api_key=[REDACTED]")
}

func TestKeyNotInErrorsOrLogs(t *testing.T) {
	c := echoServer(t)
	var buf syncBuffer
	cfg := c.Config()
	cfg.Logger = slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c = newClient(t, cfg)
	_, err := c.Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
	require.ErrorIs(t, err, openai.ErrAuth)
	requireNoKey(t, err.Error(), "error")
	requireNoKey(t, fmt.Sprintf("%+v %#v", err, err), "error printed")
	assert.Contains(t, err.Error(), "bad header: Bearer [REDACTED]")
	log := buf.String()
	assert.Contains(t, log, "openai: retrying", "the 500 was retried and logged")
	requireNoKey(t, log, "log")
}

func TestKeyNotInStreamErrors(t *testing.T) {
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w)
		io.WriteString(w, `data: {"error":{"message":"key `+strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")+` revoked","type":"invalid_request_error"}}`+"\n\n")
	})
	cfg := fastConfig(srv)
	cfg.APIKey = secret
	_, _, err := collect(newClient(t, cfg))
	require.ErrorIs(t, err, openai.ErrStreamInterrupted)
	requireNoKey(t, err.Error(), "stream error")
	assert.Contains(t, err.Error(), "key [REDACTED] revoked")
}

func TestPasswordInBaseURLNotPrinted(t *testing.T) {
	c := newClient(t, openai.Config{BaseURL: "https://user:hunter2hunter2@llm.example.com/v1"})
	for _, out := range []string{c.String(), fmt.Sprint(c.Config())} {
		assert.NotContains(t, out, "hunter2")
	}
	_, err := openai.New(openai.Config{BaseURL: "ftp://user:hunter2hunter2@llm.example.com/v1"})
	require.ErrorIs(t, err, openai.ErrInvalidConfig)
	assert.NotContains(t, err.Error(), "hunter2")
}

// syncBuffer is a bytes.Buffer safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
