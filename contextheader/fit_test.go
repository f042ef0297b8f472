package contextheader_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/tokencount/tokentest"
)

// A document whose header, with tokentest.Words, is the title (2 tokens),
// the section path "One > Two > Three" (5: the separators are words too)
// and the summary (9).
var cutDoc = document.Document{
	ID:      "cut",
	Title:   "T1 T2",
	Text:    "# One\n\n## Two\n\n### Three\n\nBody text here.",
	Format:  document.Markdown,
	Summary: "Sun one two. Moon one two. Star one two.",
}

func cutHeader(t *testing.T, maxHeader int, parts []contextheader.Part) contextheader.Chunk {
	t.Helper()
	tok := tokentest.Words{}
	d := newDecorator(t, contextheader.Config{Tokenizer: tok, MaxHeaderTokens: maxHeader, Parts: parts, Summarizer: &fakeSummarizer{}})
	got, err := d.Decorate(context.Background(), cutDoc, cutAt(t, tok, cutDoc.Text, "Body"))
	require.NoError(t, err)
	return got[1]
}

func TestHeaderCut(t *testing.T) {
	parts := []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.Section}, {Kind: contextheader.Summary}}
	tests := []struct {
		name string
		max  int
		want string
	}{
		{"fits", 16, "T1 T2\nOne > Two > Three\nSun one two. Moon one two. Star one two."},
		{"summary cut at a sentence", 13, "T1 T2\nOne > Two > Three\nSun one two. Moon one two."},
		{"a sentence, not more words", 12, "T1 T2\nOne > Two > Three\nSun one two."},
		{"summary cut at a word", 9, "T1 T2\nOne > Two > Three\nSun one"},
		{"summary dropped", 7, "T1 T2\nOne > Two > Three"},
		{"path loses its outermost heading", 6, "T1 T2\nTwo > Three"},
		{"innermost heading only", 4, "T1 T2\nThree"},
		{"path dropped", 2, "T1 T2"},
		{"title cut at a word", 1, "T1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := cutHeader(t, tt.max, parts)
			require.Equal(t, tt.want, c.Header)
			require.Equal(t, tt.max < 16, c.HeaderCut)
			require.LessOrEqual(t, c.HeaderTokens, tt.max)
			require.Equal(t, tokentest.Words{}.Count(c.Header), c.HeaderTokens)
		})
	}
}

func TestHeaderCutPriority(t *testing.T) {
	t.Run("a higher priority keeps the summary", func(t *testing.T) {
		parts := []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.Section}, {Kind: contextheader.Summary, Priority: 100}}
		require.Equal(t, "T1 T2\nSun one two. Moon one two. Star one two.", cutHeader(t, 11, parts).Header)
	})
	t.Run("equal priorities cut the later part first", func(t *testing.T) {
		parts := []contextheader.Part{{Kind: contextheader.Summary, Priority: 5}, {Kind: contextheader.Title, Priority: 5}}
		require.Equal(t, "Sun one two. Moon one two. Star one two.", cutHeader(t, 9, parts).Header)
	})
	t.Run("labels go with their part", func(t *testing.T) {
		parts := []contextheader.Part{{Kind: contextheader.Title, Label: "Document: "}, {Kind: contextheader.Summary, Label: "Summary: "}}
		require.Equal(t, "Document: T1 T2", cutHeader(t, 4, parts).Header)
	})
}

func TestMaxEmbedTokens(t *testing.T) {
	tok := tokentest.Words{}
	d := newDecorator(t, contextheader.Config{Tokenizer: tok, MaxHeaderTokens: 5, MaxEmbedTokens: 20})
	room, err := d.ChunkMaxTokens()
	require.NoError(t, err)
	require.Equal(t, 20-5-0-2, room, "the limit, less the header, the separator (no words) and the margin")

	words := func(n int) string { return strings.TrimSpace(strings.Repeat("w ", n)) }
	tests := []struct {
		name   string
		chunk  int
		header string
	}{
		{"room left by ChunkMaxTokens", room, "Alpha beta\nGamma"},
		{"room left by a header that is short", 17, "Alpha beta\nGamma"},
		{"a longer chunk cuts the header", 18, "Alpha beta"},
		{"a longer chunk still", 19, "Alpha"},
		{"no room for a header", 20, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := document.Document{Title: "Alpha beta", Text: "Gamma\n\n" + words(tt.chunk) + "\n\nLast."}
			got, err := d.Decorate(context.Background(), doc, cutAt(t, tok, doc.Text, "w", "Last"))
			require.NoError(t, err)
			c := got[1]
			require.Equal(t, tt.header, c.Header)
			require.Equal(t, tt.header != "Alpha beta\nGamma", c.HeaderCut)
			require.LessOrEqual(t, c.EmbedTokens, 20)
		})
	}

	doc := document.Document{Text: words(21)}
	_, err = d.Decorate(context.Background(), doc, cutAt(t, tok, doc.Text))
	require.ErrorIs(t, err, contextheader.ErrChunkTooLong)

	_, err = newDecorator(t, contextheader.Config{Tokenizer: tok}).ChunkMaxTokens()
	require.ErrorIs(t, err, contextheader.ErrConfig, "no MaxEmbedTokens, no answer")
}
