package contextheader_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
)

// A chunk that starts inside a Markdown table gets the table's header row
// (header line and delimiter line) in its header, so that its rows keep
// their column names; the chunk's text and offsets are unchanged. A
// 40-row table chunked at 120 tokens used to give chunks that start with
// a bare data row.
func TestTableHeaderRow(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Quarterly figures\n\nThe table lists each office's figures.\n\n")
	b.WriteString("| Office | Quarter | Revenue | Staff |\n|:-------|:-------:|--------:|------:|\n")
	for i := range 40 {
		fmt.Fprintf(&b, "| Office %d | Q%d | %d.%02d | %d |\n", i, i%4+1, 1000+i*37, i%100, 10+i)
	}
	b.WriteString("\nFigures are unaudited.\n")
	text := b.String()
	head := "| Office | Quarter | Revenue | Staff |\n|:-------|:-------:|--------:|------:|"
	tableStart := strings.Index(text, "| Office |")
	tableEnd := strings.Index(text, "\nFigures")

	tok := cl100k(t)
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 120, Format: document.Markdown})
	require.NoError(t, err)
	doc := document.Document{ID: "q", Title: "Figures", Text: text, Format: document.Markdown}
	chunks, err := c.Split(text)
	require.NoError(t, err)
	out, err := newDecorator(t, contextheader.Config{Tokenizer: tok}).Decorate(context.Background(), doc, chunks)
	require.NoError(t, err)

	inside := 0
	for i, ch := range out {
		require.Equal(t, chunks[i], ch.Chunk)
		require.Equal(t, tok.Count(ch.EmbedText), ch.EmbedTokens)
		if ch.Start > tableStart && ch.Start < tableEnd {
			inside++
			require.True(t, strings.HasPrefix(ch.Text, "| Office "), "chunk %d: %q", i, ch.Text)
			require.Equal(t, "Figures\nQuarterly figures\n"+head, ch.Header, "chunk %d", i)
		} else {
			require.NotContains(t, ch.Header, "|", "chunk %d", i)
		}
	}
	require.GreaterOrEqual(t, inside, 5)

	// A header row that does not fit is dropped whole, never cut.
	small, err := newDecorator(t, contextheader.Config{Tokenizer: tok, MaxHeaderTokens: 20}).Decorate(context.Background(), doc, chunks)
	require.NoError(t, err)
	for i, ch := range small {
		if ch.Start > tableStart && ch.Start < tableEnd {
			require.Equal(t, "Figures\nQuarterly figures", ch.Header, "chunk %d", i)
			require.True(t, ch.HeaderCut)
		}
	}

	// A header without a Table part has no header row, and plain text
	// has no tables.
	noTable, err := newDecorator(t, contextheader.Config{Tokenizer: tok,
		Parts: []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.Section}}}).Decorate(context.Background(), doc, chunks)
	require.NoError(t, err)
	doc.Format = document.Text
	plain, err := newDecorator(t, contextheader.Config{Tokenizer: tok}).Decorate(context.Background(), doc, chunks)
	require.NoError(t, err)
	for i := range chunks {
		require.NotContains(t, plain[i].Header, "|")
		require.NotContains(t, noTable[i].Header, "|")
	}
}
