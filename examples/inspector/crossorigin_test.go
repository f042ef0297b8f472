package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/ragkit/ragkit/vectorstore"
)

// countingEmbedder counts Embed calls, and the most in flight at once.
type countingEmbedder struct {
	vectorstore.Embedder
	calls, inFlight, most atomic.Int64
}

func (c *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.calls.Add(1)
	n := c.inFlight.Add(1)
	defer c.inFlight.Add(-1)
	for {
		m := c.most.Load()
		if n <= m || c.most.CompareAndSwap(m, n) {
			break
		}
	}
	return c.Embedder.Embed(ctx, texts)
}

// crossRequest is a GET of target as a page of another site makes it:
// with headers, or with none of them (same-origin, a plain client).
func crossRequest(target string, headers map[string]string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, target, nil)
	r.Host = "127.0.0.1:7331"
	for k, v := range headers {
		r.Header.Set(k, v)
	}
	return r
}

var (
	crossSite   = map[string]string{"Sec-Fetch-Site": "cross-site"}
	sameSite    = map[string]string{"Sec-Fetch-Site": "same-site", "Origin": "http://localhost:3000"}
	otherOrigin = map[string]string{"Origin": "http://evil.example"}
)

// TestCrossSiteRefused: 40 requests of another site's <img> tags for as
// many chunk sizes start no build: 0 embedding calls.
func TestCrossSiteRefused(t *testing.T) {
	a := newTestApp(t, testOptions())
	e := &countingEmbedder{Embedder: a.models.embedder}
	a.models.embedder = e
	for n := 100; n < 140; n++ {
		h := []map[string]string{crossSite, sameSite, otherOrigin}[n%3]
		w := httptest.NewRecorder()
		a.ServeHTTP(w, crossRequest(fmt.Sprintf("/?q=hotel&chunk=%d", n), h))
		assert.Equal(t, http.StatusForbidden, w.Code, "chunk %d, headers %v", n, h)
	}
	assert.Zero(t, e.calls.Load(), "embedding calls")
	assert.Len(t, a.indexes.byKey, 1, "only the default index")

	// The inspector's own pages, and the user's typed address, still work.
	for _, h := range []map[string]string{
		{"Sec-Fetch-Site": "same-origin", "Origin": "http://127.0.0.1:7331"},
		{"Sec-Fetch-Site": "none"},
		nil,
	} {
		w := httptest.NewRecorder()
		a.ServeHTTP(w, crossRequest("/?q=hotel", h))
		assert.Equal(t, http.StatusOK, w.Code, "headers %v", h)
	}
}

// TestCrossSiteAnswerRefused: a cross-site /answer makes no chat call.
func TestCrossSiteAnswerRefused(t *testing.T) {
	var chats atomic.Int64
	chat := newFakeChat(t)
	inner := chat.Config.Handler
	chat.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chats.Add(1)
		inner.ServeHTTP(w, r)
	})
	o := testOptions()
	o.baseURL, o.model, o.apiKey = chat.URL+"/v1", "tiny", "test-key"
	a := newTestApp(t, o)
	before := chats.Load() // the default index's summaries
	for _, h := range []map[string]string{crossSite, sameSite, otherOrigin} {
		w := httptest.NewRecorder()
		a.ServeHTTP(w, crossRequest("/answer?q="+url.QueryEscape("What was the gross margin?"), h))
		assert.Equal(t, http.StatusForbidden, w.Code, "headers %v", h)
	}
	assert.Equal(t, before, chats.Load(), "chat calls")
}

// TestForgottenBuildCancelled: the build of an index forgotten for newer
// ones ends, and at most maxBuilds run at once.
func TestForgottenBuildCancelled(t *testing.T) {
	a := newTestApp(t, testOptions())
	g := &gatedEmbedder{Embedder: a.models.embedder, gate: make(chan struct{})}
	e := &countingEmbedder{Embedder: g}
	a.models.embedder = e
	var built []*index
	for n := range maxIndexes + 1 {
		built = append(built, a.indexes.get(indexKey{MaxTokens: 100 + n}))
	}
	select {
	case <-built[0].done:
	case <-time.After(time.Minute): // a hang guard, not a timing check
		t.Fatal("the forgotten build still runs")
	}
	assert.True(t, errors.Is(built[0].err, errForgotten), "err = %v", built[0].err)
	g.mu.Lock()
	close(g.gate)
	g.mu.Unlock()
	var wg sync.WaitGroup
	for _, ix := range built[1:] {
		wg.Add(1)
		go func() { defer wg.Done(); <-ix.done }()
	}
	wg.Wait()
	for _, ix := range built[1:] {
		assert.NoError(t, ix.err)
	}
	assert.LessOrEqual(t, e.most.Load(), int64(maxBuilds), "Embed calls in flight at once")
}
