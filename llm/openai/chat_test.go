package openai_test

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/llm/openai"
	"github.com/ragkit/ragkit/tokencount/tokentest"
)

// chatAPI answers with reply and keeps the last request body.
func chatAPI(t *testing.T, reply string) (*openai.Client, *atomic.Value) {
	var body atomic.Value
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "/v1/chat/completions", r.URL.Path)
		assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
		raw, _ := io.ReadAll(r.Body)
		var req map[string]any
		require.NoError(t, json.Unmarshal(raw, &req))
		body.Store(req)
		writeJSON(w, 200, reply)
	})
	return newClient(t, fastConfig(srv)), &body
}

func TestChat(t *testing.T) {
	c, body := chatAPI(t, chatCompletion("Paris is the capital of France.", "stop"))
	msgs := []openai.Message{
		{Role: openai.RoleSystem, Content: "Answer from the context."},
		{Role: openai.RoleUser, Content: "What is the capital of France?"},
	}
	r, err := c.Chat(context.Background(), msgs, openai.ChatOptions{Model: "gpt-4o-mini"})
	require.NoError(t, err)
	assert.Equal(t, openai.Reply{
		Content: "Paris is the capital of France.", FinishReason: "stop", Model: "gpt-4o-mini-2024-07-18",
		Usage: openai.Usage{PromptTokens: 19, CompletionTokens: 10, TotalTokens: 29},
	}, r)
	assert.Equal(t, map[string]any{
		"model": "gpt-4o-mini",
		"messages": []any{
			map[string]any{"role": "system", "content": "Answer from the context."},
			map[string]any{"role": "user", "content": "What is the capital of France?"},
		},
		"temperature": float64(0),
	}, body.Load())
}

func TestChatOptions(t *testing.T) {
	c, body := chatAPI(t, chatCompletion("ok", "stop"))
	_, err := c.Chat(context.Background(), hello, openai.ChatOptions{Model: "o3-mini", OmitTemperature: true, MaxTokens: 64})
	require.NoError(t, err)
	got := body.Load().(map[string]any)
	assert.NotContains(t, got, "temperature")
	assert.NotContains(t, got, "stream")
	assert.Equal(t, float64(64), got["max_tokens"])
	_, err = c.Chat(context.Background(), hello, openai.ChatOptions{Model: "m", Temperature: 0.7})
	require.NoError(t, err)
	assert.Equal(t, 0.7, body.Load().(map[string]any)["temperature"])
}

func TestChatInvalid(t *testing.T) {
	c, body := chatAPI(t, chatCompletion("ok", "stop"))
	tests := []struct {
		name string
		msgs []openai.Message
		opts openai.ChatOptions
		want error
		says string
	}{
		{"no model", hello, openai.ChatOptions{}, openai.ErrConfig, "Model"},
		{"negative MaxTokens", hello, openai.ChatOptions{Model: "m", MaxTokens: -1}, openai.ErrConfig, "MaxTokens is -1"},
		{"NaN temperature", hello, openai.ChatOptions{Model: "m", Temperature: math.NaN()}, openai.ErrConfig, "Temperature is NaN"},
		{"negative temperature", hello, openai.ChatOptions{Model: "m", Temperature: -1}, openai.ErrConfig, "Temperature is -1"},
		{"no messages", nil, openai.ChatOptions{Model: "m"}, openai.ErrInvalid, "no messages"},
		{"no role", []openai.Message{hello[0], {Content: "x"}}, openai.ChatOptions{Model: "m"}, openai.ErrInvalid, "message 1 has no Role"},
		{"invalid UTF-8", []openai.Message{{Role: "user", Content: "\xc3("}}, openai.ChatOptions{Model: "m"}, openai.ErrInvalid, "message 0 is not valid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Chat(context.Background(), tt.msgs, tt.opts)
			require.ErrorIs(t, err, tt.want)
			assert.Contains(t, err.Error(), tt.says)
			_, err = c.ChatStream(context.Background(), tt.msgs, tt.opts, func(string) error { return nil })
			require.ErrorIs(t, err, tt.want)
			assert.Contains(t, err.Error(), tt.says)
		})
	}
	assert.Nil(t, body.Load(), "no request")
}

func TestChatBadResponse(t *testing.T) {
	for name, reply := range map[string]string{
		"no choices": `{"id":"chatcmpl-1","object":"chat.completion","choices":[]}`,
		"not JSON":   `Gateway says hello`,
	} {
		t.Run(name, func(t *testing.T) {
			c, _ := chatAPI(t, reply)
			_, err := c.Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
			require.ErrorIs(t, err, openai.ErrBadResponse)
		})
	}
}

func TestChatContextLength(t *testing.T) {
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 400, apiError("This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens. Please reduce the length of the messages.", "invalid_request_error", "context_length_exceeded"))
	})
	_, err := newClient(t, fastConfig(srv)).Chat(context.Background(), hello, openai.ChatOptions{Model: "m"})
	require.ErrorIs(t, err, openai.ErrContextLength)
	require.ErrorIs(t, err, openai.ErrBadRequest)
}

// TestMessagesOf: a budget's messages become chat messages with their
// role and content, in order.
func TestMessagesOf(t *testing.T) {
	tok := tokentest.Words{}
	a, err := budget.New(budget.Config{Tokenizer: tok, Limit: 100})
	require.NoError(t, err)
	res, err := a.Assemble(
		budget.Section{Name: "instructions", Priority: 2, Role: openai.RoleSystem, Items: []budget.Item{{Text: "Answer briefly."}}},
		budget.Section{Name: "question", Priority: 1, Role: openai.RoleUser, Items: []budget.Item{{Text: "Why?", ID: "q"}}},
	)
	require.NoError(t, err)
	require.Equal(t, []openai.Message{
		{Role: openai.RoleSystem, Content: "Answer briefly."},
		{Role: openai.RoleUser, Content: "Why?"},
	}, openai.MessagesOf(res.Messages))
	require.Empty(t, openai.MessagesOf([]budget.Message{}))
}
