package main

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/vectorstore"
)

// fakeChat is an OpenAI-compatible chat server: summaries are "A summary.",
// answers a stream of two pieces; it keeps the last streamed request.
type fakeChat struct {
	*httptest.Server
	mu     sync.Mutex
	prompt string // the messages of the last streamed request, joined
}

func newFakeChat(t *testing.T) *fakeChat {
	f := &fakeChat{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Stream   bool `json:"stream"`
			Messages []struct {
				Content string `json:"content"`
			} `json:"messages"`
		}
		if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, "not a chat request", http.StatusBadRequest)
			return
		}
		if !req.Stream {
			fmt.Fprint(w, `{"choices":[{"message":{"role":"assistant","content":"A summary."},"finish_reason":"stop"}]}`)
			return
		}
		var b strings.Builder
		for _, m := range req.Messages {
			b.WriteString(m.Content + "\n")
		}
		f.mu.Lock()
		f.prompt = b.String()
		f.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		for _, piece := range []string{"Gross margin was ", "43.0 percent [report-2026-q2.md]."} {
			fmt.Fprintf(w, "data: {\"choices\":[{\"delta\":{\"content\":%q}}]}\n\n", piece)
			w.(http.Flusher).Flush()
		}
		fmt.Fprint(w, "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(f.Close)
	return f
}

// TestAnswerStreamed: with -model the page streams the model's answer to
// the prompt it shows.
func TestAnswerStreamed(t *testing.T) {
	chat := newFakeChat(t)
	o := testOptions()
	o.baseURL, o.model, o.apiKey = chat.URL+"/v1", "tiny", "test-key"
	a := newTestApp(t, o)

	q := "q=" + url.QueryEscape("What was the gross margin in Q2 2026?")
	page := get(a, q)
	require.Equal(t, http.StatusOK, page.Code)
	assert.Contains(t, page.Body.String(), `<output id="answer" data-src="/answer?`)
	assert.Contains(t, page.Body.String(), "answers by tiny")

	// The answer the page's script fetches.
	m := regexp.MustCompile(`data-src="([^"]+)"`).FindStringSubmatch(page.Body.String())
	require.NotNil(t, m)
	r := httptest.NewRequest(http.MethodGet, html.UnescapeString(m[1]), nil)
	r.Host = "localhost"
	w := httptest.NewRecorder()
	a.ServeHTTP(w, r)
	require.Equal(t, http.StatusOK, w.Code)
	assert.Equal(t, "Gross margin was 43.0 percent [report-2026-q2.md].", w.Body.String())
	chat.mu.Lock()
	defer chat.mu.Unlock()
	assert.Contains(t, chat.prompt, "Question: What was the gross margin in Q2 2026?")
	assert.Contains(t, chat.prompt, "Gross margin was 43.0 percent", "the prompt holds the passage that answers")
	assert.NotContains(t, page.Body.String(), "test-key")
}

// gatedEmbedder blocks every Embed call while its gate is closed.
type gatedEmbedder struct {
	vectorstore.Embedder
	mu   sync.Mutex
	gate chan struct{} // nil: open
}

func (g *gatedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	g.mu.Lock()
	gate := g.gate
	g.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return g.Embedder.Embed(ctx, texts)
}

// TestProgress: while a chunk size's index is built, the page says how far
// it got and reloads itself, /progress reports it, and the page shows the
// results once it is built.
func TestProgress(t *testing.T) {
	a := newTestApp(t, testOptions())
	g := &gatedEmbedder{Embedder: a.models.embedder, gate: make(chan struct{})}
	a.models.embedder = g

	w := get(a, "q=hotel&chunk=100")
	require.Equal(t, http.StatusOK, w.Code)
	body := w.Body.String()
	assert.Contains(t, body, `<meta http-equiv="refresh" content="1">`)
	assert.Contains(t, body, "Indexing with chunks of at most 100 tokens: 0 of 10 documents")
	assert.NotContains(t, body, `id="passage-list"`)

	r := httptest.NewRequest(http.MethodGet, "/progress", nil)
	r.Host = "127.0.0.1"
	pw := httptest.NewRecorder()
	a.ServeHTTP(pw, r)
	var p struct {
		Building bool `json:"building"`
		Total    int  `json:"total"`
	}
	require.NoError(t, json.NewDecoder(pw.Body).Decode(&p))
	assert.Equal(t, struct {
		Building bool `json:"building"`
		Total    int  `json:"total"`
	}{true, 10}, p)

	close(g.gate)
	<-a.indexes.get(indexKey{MaxTokens: 100, Headers: true, Summary: true}).done
	w = get(a, "q=hotel&chunk=100")
	require.Equal(t, http.StatusOK, w.Code)
	body = w.Body.String()
	assert.NotContains(t, body, `http-equiv="refresh"`)
	assert.Contains(t, body, `id="passage-list"`)
}
