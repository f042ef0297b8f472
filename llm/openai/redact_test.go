package openai_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/llm/openai"
)

const secret = "sk-proj-SECRET0123456789abcdef"

// requireNoKey checks that out shows the key in no form, whole or in
// part: no 8 bytes of it in a row, as text or in hex.
func requireNoKey(t *testing.T, out string, format string, args ...any) {
	t.Helper()
	for _, form := range []string{secret, hex.EncodeToString([]byte(secret)), strings.ToUpper(hex.EncodeToString([]byte(secret)))} {
		require.NotContains(t, out, form, fmt.Sprintf(format, args...))
	}
	for i := 0; i+8 <= len(secret); i++ {
		require.NotContains(t, out, secret[i:i+8], fmt.Sprintf(format, args...))
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
	assert.Equal(t, `openai.Config{BaseURL: "`+cfg.BaseURL+`", APIKey: [REDACTED], Timeout: 10s, Deadline: 1m30s, StallTimeout: 30s, MaxRetries: 2, NoRetries: false, BackoffBase: 1ms, BackoffMax: 4ms, MaxRetryAfter: 1m0s}`, cfg.String())
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

func TestPasswordInBaseURLNotPrinted(t *testing.T) {
	c := newClient(t, openai.Config{BaseURL: "https://user:hunter2hunter2@llm.example.com/v1"})
	for _, out := range []string{c.String(), fmt.Sprint(c.Config())} {
		assert.NotContains(t, out, "hunter2")
	}
	_, err := openai.New(openai.Config{BaseURL: "ftp://user:hunter2hunter2@llm.example.com/v1"})
	require.ErrorIs(t, err, openai.ErrConfig)
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

// echoKey is a handler that answers status with the request's key put
// where a careless server or proxy might echo it: the error's type, code
// or message, or the X-Request-Id header.
func echoKey(status int, where string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		msg, typ, code := "bad key", "invalid_request_error", "invalid_api_key"
		switch where {
		case "type":
			typ = key
		case "code":
			code = key
		case "message":
			msg = "key " + key + " is revoked"
		case "request id":
			w.Header().Set("X-Request-Id", "req_"+key)
		case "cut": // the key straddles the cut of a long message
			msg = strings.Repeat("x", openai.MaxMessage-10) + " " + key + " and more"
		case "body": // not JSON: the message is the start of the body
			msg = ""
			w.WriteHeader(status)
			io.WriteString(w, strings.Repeat("y", openai.MaxMessage-10)+" "+key+" trailing text")
			return
		}
		writeJSON(w, status, apiError(msg, typ, code))
	}
}

var echoPlaces = []string{"type", "code", "message", "request id", "cut", "body"}

// A key the server echoes anywhere in an error answer is in no error and
// no retry warning, whole or in part.
func TestKeyEchoedAnywhere(t *testing.T) {
	for _, where := range echoPlaces {
		t.Run(where, func(t *testing.T) {
			var buf syncBuffer
			srv := server(t, echoKey(503, where))
			cfg := fastConfig(srv)
			cfg.APIKey = secret
			cfg.MaxRetries = 1
			cfg.Logger = slog.New(slog.NewTextHandler(&buf, nil))
			_, err := newClient(t, cfg).Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
			require.ErrorIs(t, err, openai.ErrServer)
			requireNoKey(t, err.Error(), "error")
			var apiErr *openai.APIError
			require.ErrorAs(t, err, &apiErr)
			for _, field := range []string{apiErr.Type, apiErr.Code, apiErr.Message, apiErr.RequestID} {
				requireNoKey(t, field, "field %q", field)
			}
			assert.Contains(t, err.Error(), "[REDACTED]")
			require.Contains(t, buf.String(), "openai: retrying", "the 503 was retried and logged")
			requireNoKey(t, buf.String(), "retry warning")
		})
	}
}

// The same in an error event inside a stream.
func TestKeyEchoedInStreamErrorEvent(t *testing.T) {
	for _, where := range []string{"type", "code", "message", "request id", "cut"} {
		t.Run(where, func(t *testing.T) {
			srv := server(t, func(w http.ResponseWriter, r *http.Request) {
				rec := &eventRecorder{header: http.Header{}}
				echoKey(500, where)(rec, r)
				for k, v := range rec.header {
					w.Header()[k] = v
				}
				sse(w)
				io.WriteString(w, chunk("Partial", "")+"data: "+rec.body.String()+"\n\n")
			})
			cfg := fastConfig(srv)
			cfg.APIKey = secret
			_, r, err := collect(newClient(t, cfg))
			require.ErrorIs(t, err, openai.ErrStreamInterrupted)
			requireNoKey(t, err.Error(), "stream error")
			assert.Contains(t, err.Error(), "[REDACTED]")
			assert.Equal(t, "Partial", r.Content)
		})
	}
}

// A body that is not the API's JSON is quoted in the error by its start;
// a key that straddles that cut does not leak its first part.
func TestKeyInUnusableBody(t *testing.T) {
	for _, at := range []int{0, 40, 70, 79, 80} {
		srv := server(t, func(w http.ResponseWriter, r *http.Request) {
			key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
			writeJSON(w, 200, "{"+strings.Repeat(" ", at)+key+" not json")
		})
		cfg := fastConfig(srv)
		cfg.APIKey = secret
		_, err := newClient(t, cfg).Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
		require.ErrorIs(t, err, openai.ErrBadResponse)
		requireNoKey(t, err.Error(), "key at %d", at)
	}
}

// eventRecorder records what a handler writes, to send it another way.
type eventRecorder struct {
	header http.Header
	body   bytes.Buffer
}

func (e *eventRecorder) Header() http.Header         { return e.header }
func (e *eventRecorder) Write(p []byte) (int, error) { return e.body.Write(p) }
func (e *eventRecorder) WriteHeader(int)             {}

// A transport error can quote what the server sent: a status line that
// is not HTTP, here made of the key.
func TestKeyInTransportError(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				bufio.NewReader(conn).ReadString('\n')
				io.WriteString(conn, "HTTP/1.1 "+secret+"\r\n\r\n")
			}()
		}
	}()
	var buf syncBuffer
	c := newClient(t, openai.Config{BaseURL: "http://" + l.Addr().String() + "/v1", APIKey: secret, MaxRetries: 1,
		BackoffBase: time.Millisecond, BackoffMax: time.Millisecond, Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	_, err = c.Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
	require.ErrorIs(t, err, openai.ErrConnection)
	requireNoKey(t, err.Error(), "transport error")
	assert.Contains(t, err.Error(), "[REDACTED]")
	require.Contains(t, buf.String(), "openai: retrying")
	requireNoKey(t, buf.String(), "retry warning")
}
