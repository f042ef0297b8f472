package contextheader_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/contextheader"
)

func TestExtractive(t *testing.T) {
	const report = `# Quarterly report

| Segment | Q2 |
|---|---|
| Cloud | 29.4 |

SCOPE
Kestrel Software plc reports its results for the second quarter of 2024.

It was a good quarter for everyone involved here.

Revenue grew by 14 per cent in the quarter.
`
	tests := []struct {
		name string
		cfg  contextheader.ExtractiveConfig
		doc  string
		want string
	}{
		{"first informative sentence", contextheader.ExtractiveConfig{}, report,
			"Kestrel Software plc reports its results for the second quarter of 2024."},
		{"then sentences that name something", contextheader.ExtractiveConfig{Sentences: 2}, report,
			"Kestrel Software plc reports its results for the second quarter of 2024. Revenue grew by 14 per cent in the quarter."},
		{"within MaxChars", contextheader.ExtractiveConfig{Sentences: 2, MaxChars: 100}, report,
			"Kestrel Software plc reports its results for the second quarter of 2024."},
		{"a first sentence cut at a word", contextheader.ExtractiveConfig{MaxChars: 30}, report,
			"Kestrel Software plc reports"},
		{"short sentences are not informative", contextheader.ExtractiveConfig{}, "Hello there. Yes. The Harbourside scheme provides 320 new homes by the river.",
			"The Harbourside scheme provides 320 new homes by the river."},
		{"no informative sentence", contextheader.ExtractiveConfig{MaxChars: 20}, "| a | b |\n|---|---|\n| 1 | 2 |",
			"| a | b | |---|---|"},
		{"code is not informative", contextheader.ExtractiveConfig{}, "```\nfunc main() { return x + y; }\n```\n\nThe function adds two numbers and returns them.",
			"The function adds two numbers and returns them."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := contextheader.NewExtractive(tt.cfg)
			require.NoError(t, err)
			got, err := e.SummarizeDocument(context.Background(), tt.doc)
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
			same, err := e.Summarize(context.Background(), tt.doc)
			require.NoError(t, err)
			require.Equal(t, got, same, "Summarize reads its text as the document")
		})
	}
}

func TestExtractiveErrors(t *testing.T) {
	_, err := contextheader.NewExtractive(contextheader.ExtractiveConfig{Sentences: -1})
	require.ErrorIs(t, err, contextheader.ErrConfig)
	_, err = contextheader.NewExtractive(contextheader.ExtractiveConfig{MaxChars: -1})
	require.ErrorIs(t, err, contextheader.ErrConfig)

	var e *contextheader.Extractive // nil is the default configuration
	require.Equal(t, contextheader.ExtractiveConfig{Sentences: 1, MaxChars: 300}, e.Config())
	_, err = e.SummarizeDocument(context.Background(), " \n")
	require.ErrorIs(t, err, contextheader.ErrInvalidDocument)
	_, err = e.SummarizeDocument(context.Background(), "caf\xe9")
	require.ErrorIs(t, err, contextheader.ErrInvalidDocument)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = e.SummarizeDocument(ctx, "A sentence of enough words to be informative.")
	require.ErrorIs(t, err, context.Canceled)
}
