package openai_test

import (
	"context"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/llm/openai"
)

// One event of many long data lines is refused once it passes the event
// limit, not read whole.
func TestStreamEventIsBounded(t *testing.T) {
	line := "data: " + strings.Repeat("x", 1<<20) + "\n"
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w)
		io.WriteString(w, chunk("Partial", ""))
		for range 100 {
			if _, err := io.WriteString(w, line); err != nil {
				return
			}
		}
		io.WriteString(w, "\n")
	})
	c := newClient(t, fastConfig(srv))
	var mem runtime.MemStats
	runtime.ReadMemStats(&mem)
	start := mem.TotalAlloc // all goroutines', the test server's too
	_, r, err := collect(c)
	runtime.ReadMemStats(&mem)
	n := mem.TotalAlloc - start
	require.ErrorIs(t, err, openai.ErrStreamInterrupted)
	require.ErrorIs(t, err, openai.ErrTooLarge)
	require.ErrorIs(t, err, openai.ErrBadResponse)
	assert.Equal(t, "Partial", r.Content)
	assert.Less(t, n, uint64(48<<20), "bytes allocated reading a 100 MB event")
}

// A stream that never ends does not grow the reply without bound.
func TestStreamReplyIsBounded(t *testing.T) {
	piece := chunk(strings.Repeat("y", 64<<10), "")
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w)
		for {
			if _, err := io.WriteString(w, piece); err != nil {
				return
			}
		}
	})
	_, r, err := collect(newClient(t, fastConfig(srv)))
	require.ErrorIs(t, err, openai.ErrStreamInterrupted)
	require.ErrorIs(t, err, openai.ErrTooLarge)
	assert.LessOrEqual(t, len(r.Content), 16<<20)
}

// A chat completion over the limit is refused, with or without a
// Content-Length that says so in advance.
func TestChatBodyIsBounded(t *testing.T) {
	for _, length := range []bool{true, false} {
		srv := server(t, func(w http.ResponseWriter, r *http.Request) {
			body := chatCompletion(strings.Repeat("z", 17<<20), "stop")
			w.Header().Set("Content-Type", "application/json")
			if !length {
				w.Header().Set("Transfer-Encoding", "chunked")
			}
			io.WriteString(w, body)
		})
		cfg := fastConfig(srv)
		cfg.NoRetries = true
		_, err := newClient(t, cfg).Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
		require.ErrorIs(t, err, openai.ErrTooLarge, "Content-Length %v", length)
		require.ErrorIs(t, err, openai.ErrBadResponse)
	}
}

// An embeddings body is bounded by what the texts' vectors can take, and
// a vector by MaxDimensions.
func TestEmbeddingsBodyIsBounded(t *testing.T) {
	tests := []struct {
		name   string
		dims   int
		vector string // the one vector sent back
	}{
		{"body over the limit for one text", 0, "[" + strings.Repeat("0.5,", 600_000) + "0.5]"},
		{"vector over MaxDimensions", 0, "[" + strings.Repeat("0,", openai.MaxDimensions) + "0]"},
		{"body over the limit with Dimensions", 256, "[" + strings.Repeat("0.5,", 30_000) + "0.5]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := server(t, func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 200, `{"object":"list","data":[{"object":"embedding","index":0,"embedding":`+tt.vector+`}],"model":"m"}`)
			})
			cfg := fastConfig(srv)
			cfg.NoRetries = true
			e, err := openai.NewEmbedder(openai.EmbedderConfig{Client: newClient(t, cfg), Model: "m", Dimensions: tt.dims})
			require.NoError(t, err)
			_, err = e.Embed(context.Background(), []string{"one text"})
			require.ErrorIs(t, err, openai.ErrTooLarge)
			require.ErrorIs(t, err, openai.ErrBadResponse)
		})
	}
}
