package evaluate_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ragkit/ragkit/evaluate"
	"github.com/ragkit/ragkit/llm/openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJudgeOverOpenAI judges through llm/openai against a scripted
// OpenAI-compatible server: the verdicts arrive, a refusal is retried,
// and a server that does not answer in time is the client's ErrTimeout.
func TestJudgeOverOpenAI(t *testing.T) {
	var requests atomic.Int64
	var stall atomic.Bool
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		if stall.Load() {
			<-release
			return
		}
		var req struct {
			Messages []openai.Message `json:"messages"`
		}
		assert.NoError(t, json.NewDecoder(r.Body).Decode(&req))
		prompt := req.Messages[len(req.Messages)-1].Content
		var content string
		switch {
		case n == 1: // the first reply is a refusal
			content = "I'm sorry, but I can't help with that."
		case strings.Contains(prompt, "Break the answer"):
			content = `{"statements": ["The bridge was built in 1890.", "The bridge is red."]}`
		default:
			content = `{"verdicts": [{"statement": 1, "reason": "stated", "verdict": 1}, {"statement": 2, "reason": "grey", "verdict": 0}]}`
		}
		json.NewEncoder(w).Encode(map[string]any{
			"model":   "judge",
			"choices": []map[string]any{{"message": map[string]string{"role": "assistant", "content": content}, "finish_reason": "stop"}},
		})
	}))
	defer srv.Close()
	defer close(release) // before Close, which waits for the handlers
	// A judge over a client whose attempts time out after timeout.
	judge := func(timeout time.Duration) *evaluate.Judge {
		client, err := openai.New(openai.Config{BaseURL: srv.URL, Timeout: timeout, NoRetries: true})
		require.NoError(t, err)
		chat := evaluate.ChatFunc(func(ctx context.Context, prompt string) (string, error) {
			r, err := client.Chat(ctx, []openai.Message{{Role: openai.RoleUser, Content: prompt}}, openai.ChatOptions{Model: "judge"})
			return r.Content, err
		})
		j, err := evaluate.NewJudge(evaluate.JudgeConfig{Chat: chat})
		require.NoError(t, err)
		return j
	}
	j := judge(time.Minute)

	f, err := j.Faithfulness(context.Background(), question, answer, passage)
	require.NoError(t, err)
	assert.InDelta(t, 0.5, f.Score, 1e-12)
	assert.Equal(t, 3, j.Calls(), "a refusal, then statements and verdicts")
	assert.EqualValues(t, 3, requests.Load())

	// The server stops answering (until the test ends): the client's
	// timeout, however short, is what ends the call.
	stall.Store(true)
	_, err = judge(50*time.Millisecond).ContextRelevance(context.Background(), question, passage)
	require.ErrorIs(t, err, openai.ErrTimeout)
}
