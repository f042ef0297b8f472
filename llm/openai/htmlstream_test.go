package openai_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/llm/openai"
)

// TestStreamHTMLReply: a 200 reply to a stream that holds no event (a
// proxy's HTML page) is quoted, cut short and without the key, as the
// embeddings path quotes a body it cannot read. Before: "the stream ended
// without [DONE] after 0 bytes of reply", which said nothing of what came.
func TestStreamHTMLReply(t *testing.T) {
	const key = "sk-html-test-0123456789"
	page := "<!DOCTYPE html><html><body>Sign in to the proxy (" + key + ")" + strings.Repeat(" and more", 2000) + "</body></html>"
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, page)
	})
	cfg := fastConfig(srv)
	cfg.APIKey = key
	c := newClient(t, cfg)
	_, _, err := collect(c)
	require.ErrorIs(t, err, openai.ErrBadResponse)
	require.ErrorIs(t, err, openai.ErrStreamInterrupted)
	assert.Contains(t, err.Error(), "<!DOCTYPE html><html><body>Sign in to the proxy")
	assert.NotContains(t, err.Error(), key)
	assert.Less(t, len(err.Error()), 400)
}
