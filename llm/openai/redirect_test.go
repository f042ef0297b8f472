package openai_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/llm/openai"
)

const redirectKey = "sk-redirect-test-0123456789"

// seen is what a server received: requests, bearer tokens, body bytes.
type seen struct {
	requests, keys, bodyBytes atomic.Int64
}

func (s *seen) record(r *http.Request) {
	s.requests.Add(1)
	if r.Header.Get("Authorization") != "" {
		s.keys.Add(1)
	}
	b, _ := io.ReadAll(r.Body)
	s.bodyBytes.Add(int64(len(b)))
}

// TestRedirectToAnotherPort: a 307 from one port of 127.0.0.1 to another
// is not followed: the other server sees neither the key nor the body
// (Go's own rule compares host names only).
func TestRedirectToAnotherPort(t *testing.T) {
	var b seen
	other := server(t, func(w http.ResponseWriter, r *http.Request) {
		b.record(r)
		writeJSON(w, 200, chatCompletion("stolen", "stop"))
	})
	first := server(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	})
	cfg := fastConfig(first)
	cfg.APIKey = redirectKey
	hc := &http.Client{}
	cfg.HTTPClient = hc
	c := newClient(t, cfg)
	_, err := c.Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
	var apiErr *openai.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusTemporaryRedirect, apiErr.StatusCode)
	assert.Contains(t, err.Error(), "another origin")
	assert.NotContains(t, err.Error(), redirectKey)
	assert.Zero(t, b.requests.Load(), "the other server was reached")
	assert.Nil(t, hc.CheckRedirect, "the caller's http.Client was changed")
}

// TestRedirectSameOrigin: a redirect within the origin is followed with the
// key and the body.
func TestRedirectSameOrigin(t *testing.T) {
	var got seen
	var calls atomic.Int64
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/chat/completions" {
			http.Redirect(w, r, "/v2/chat/completions", http.StatusTemporaryRedirect)
			return
		}
		got.record(r)
		writeJSON(w, 200, chatCompletion("ok", "stop"))
	})
	cfg := fastConfig(srv)
	cfg.APIKey = redirectKey
	cfg.HTTPClient = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
		calls.Add(1) // the caller's own rule still runs
		return nil
	}}
	r, err := newClient(t, cfg).Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
	require.NoError(t, err)
	assert.Equal(t, "ok", r.Content)
	assert.EqualValues(t, 1, got.keys.Load())
	assert.Positive(t, got.bodyBytes.Load())
	assert.EqualValues(t, 1, calls.Load())
}

// hosts is a transport that answers for host names without a network: a
// 307 from https://api.example.test to http://api.example.test (the same
// host, another scheme), and a reply from the latter.
type hosts struct {
	mu   sync.Mutex
	seen map[string]*seen
}

func (h *hosts) RoundTrip(r *http.Request) (*http.Response, error) {
	h.mu.Lock()
	s := h.seen[r.URL.Scheme]
	if s == nil {
		s = new(seen)
		h.seen[r.URL.Scheme] = s
	}
	h.mu.Unlock()
	s.record(r)
	resp := &http.Response{Header: http.Header{}, Body: io.NopCloser(strings.NewReader(chatCompletion("ok", "stop"))), Request: r, StatusCode: 200}
	if r.URL.Scheme == "https" {
		resp.StatusCode = http.StatusTemporaryRedirect
		resp.Header.Set("Location", "http://api.example.test"+r.URL.Path)
		resp.Body = io.NopCloser(strings.NewReader(""))
	}
	return resp, nil
}

// TestRedirectDowngrade: https -> http on the same host never keeps the key
// or the body.
func TestRedirectDowngrade(t *testing.T) {
	h := &hosts{seen: map[string]*seen{}}
	c := newClient(t, openai.Config{BaseURL: "https://api.example.test/v1", APIKey: redirectKey, HTTPClient: &http.Client{Transport: h}, NoRetries: true})
	_, err := c.Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
	var apiErr *openai.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusTemporaryRedirect {
		t.Fatalf("err = %v; want the 307 as an APIError", err)
	}
	if s := h.seen["http"]; s != nil {
		t.Errorf("http://api.example.test got %d requests, %d keys, %d body bytes", s.requests.Load(), s.keys.Load(), s.bodyBytes.Load())
	}
}
