package openai_test

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/llm/openai"
)

// The interface contextheader defines (see DESIGN.md).
var _ interface {
	Summarize(ctx context.Context, text string) (string, error)
} = (*openai.Summarizer)(nil)

func TestSummarize(t *testing.T) {
	c, body := chatAPI(t, chatCompletion("\n  Northwind's 2024 travel policy: booking, per diems and ground transport.  \n", "stop"))
	s, err := openai.NewSummarizer(openai.SummarizerConfig{Client: c, Model: "gpt-4o-mini", System: "You write one-sentence summaries.", MaxTokens: 100})
	require.NoError(t, err)
	got, err := s.Summarize(context.Background(), "Summarize this document:\n\n# Travel policy\n...")
	require.NoError(t, err)
	assert.Equal(t, "Northwind's 2024 travel policy: booking, per diems and ground transport.", got)
	assert.Equal(t, map[string]any{
		"model": "gpt-4o-mini",
		"messages": []any{
			map[string]any{"role": "system", "content": "You write one-sentence summaries."},
			map[string]any{"role": "user", "content": "Summarize this document:\n\n# Travel policy\n..."},
		},
		"temperature": float64(0),
		"max_tokens":  float64(100),
	}, body.Load())

	s, err = openai.NewSummarizer(openai.SummarizerConfig{Client: c, Model: "llama3.2"})
	require.NoError(t, err)
	_, err = s.Summarize(context.Background(), "text")
	require.NoError(t, err)
	assert.Equal(t, []any{map[string]any{"role": "user", "content": "text"}}, body.Load().(map[string]any)["messages"])
}

func TestSummarizeFailures(t *testing.T) {
	tests := []struct {
		name, reply, text string
		want              error
	}{
		{"cut at MaxTokens", chatCompletion("The document is about the", "length"), "text", openai.ErrTruncated},
		{"empty reply", chatCompletion("  \n", "stop"), "text", openai.ErrEmptyReply},
		{"empty text", chatCompletion("x", "stop"), " \n", openai.ErrInvalid},
		{"invalid UTF-8", chatCompletion("x", "stop"), "a\xffb", openai.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := chatAPI(t, tt.reply)
			s, err := openai.NewSummarizer(openai.SummarizerConfig{Client: c, Model: "m"})
			require.NoError(t, err)
			got, err := s.Summarize(context.Background(), tt.text)
			require.ErrorIs(t, err, tt.want)
			assert.Empty(t, got)
		})
	}
}

func TestNewSummarizerInvalid(t *testing.T) {
	c := newClient(t, openai.Config{BaseURL: "http://localhost:11434/v1"})
	for _, cfg := range []openai.SummarizerConfig{
		{Client: c},
		{Client: c, Model: "m", MaxTokens: -1},
		{Client: c, Model: "m", System: "\xff"},
		{Client: c, Model: "m", Temperature: math.Inf(1)},
	} {
		_, err := openai.NewSummarizer(cfg)
		assert.ErrorIs(t, err, openai.ErrConfig)
	}
	s, err := openai.NewSummarizer(openai.SummarizerConfig{Client: c, Model: "m", System: "s"})
	require.NoError(t, err)
	assert.Equal(t, openai.SummarizerConfig{Client: c, Model: "m", System: "s"}, s.Config())
}

func TestDefaultClientFromEnvironment(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "http://localhost:11434/v1")
	t.Setenv("OPENAI_API_KEY", "")
	s, err := openai.NewSummarizer(openai.SummarizerConfig{Model: "llama3.2"})
	require.NoError(t, err)
	assert.Equal(t, "http://localhost:11434/v1", s.Config().Client.Config().BaseURL)
	e, err := openai.NewEmbedder(openai.EmbedderConfig{Model: "nomic-embed-text"})
	require.NoError(t, err)
	assert.Equal(t, "http://localhost:11434/v1", e.Config().Client.Config().BaseURL)
	t.Setenv("OPENAI_BASE_URL", "not a url")
	_, err = openai.NewEmbedder(openai.EmbedderConfig{Model: "nomic-embed-text"})
	assert.ErrorIs(t, err, openai.ErrConfig)
}
