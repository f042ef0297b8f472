package contextheader_test

import (
	"context"
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/tokencount/tokentest"
)

// A Summarizer that panics once fails that document with ErrPanic, and
// leaves nothing behind: the next Decorate of the same document calls the
// Summarizer again and succeeds, where it used to wait forever on the
// call the panic had abandoned.
func TestSummarizerPanicIsAnError(t *testing.T) {
	var calls atomic.Int64
	s := &fakeSummarizer{answer: func(context.Context, string) (string, error) {
		if calls.Add(1) == 1 {
			panic("model client bug")
		}
		return "A summary.", nil
	}}
	tok := cl100k(t)
	d := newDecorator(t, contextheader.Config{Tokenizer: tok, Summarizer: s,
		Parts: []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.Summary}}})
	doc := document.Document{ID: "p", Title: "Policy", Text: paragraphs(3)}
	chunks := split(t, tok, 64, doc)
	_, err := d.Decorate(context.Background(), doc, chunks)
	require.ErrorIs(t, err, contextheader.ErrPanic)
	require.ErrorContains(t, err, "model client bug")
	var de *contextheader.DocumentError
	require.ErrorAs(t, err, &de)
	require.Equal(t, "p", de.ID)

	done := make(chan error, 1)
	go func() {
		_, err := d.Decorate(context.Background(), doc, chunks)
		done <- err
	}()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("the second Decorate hangs")
	}
	require.EqualValues(t, 2, calls.Load())
}

// A Custom part's Func that panics gives ErrPanic, not a crash.
func TestCustomPanicIsAnError(t *testing.T) {
	tok := cl100k(t)
	d := newDecorator(t, contextheader.Config{Tokenizer: tok, Parts: []contextheader.Part{{Kind: contextheader.Custom,
		Func: func(document.Document, chunker.Chunk) string { panic("bad part") }}}})
	doc := document.Document{ID: "c", Text: "Some text."}
	_, err := d.Decorate(context.Background(), doc, split(t, tok, 64, doc))
	require.ErrorIs(t, err, contextheader.ErrPanic)
}

func TestNilMemoryCacheLen(t *testing.T) {
	var c *contextheader.MemoryCache
	require.Zero(t, c.Len())
}

// TestHugeSettings: settings that size work are bounded, so that
// ChunkMaxTokens cannot overflow and Concurrency is no huge allocation
// (issue 24: New accepted settings whose ChunkMaxTokens overflowed).
func TestHugeSettings(t *testing.T) {
	tok := tokentest.Words{}
	for _, cfg := range []contextheader.Config{
		{Tokenizer: tok, MaxEmbedTokens: 100, MaxHeaderTokens: math.MaxInt},
		{Tokenizer: tok, MaxEmbedTokens: math.MaxInt},
		{Tokenizer: tok, MaxEmbedTokens: math.MaxInt, MaxHeaderTokens: math.MaxInt - 1},
		{Tokenizer: tok, Concurrency: math.MaxInt},
	} {
		_, err := contextheader.New(cfg)
		require.ErrorIs(t, err, contextheader.ErrConfig, "%+v", cfg)
	}
	d, err := contextheader.New(contextheader.Config{Tokenizer: tok, MaxEmbedTokens: 1 << 30, MaxHeaderTokens: 1<<30 - 10})
	require.NoError(t, err)
	n, err := d.ChunkMaxTokens()
	require.NoError(t, err)
	require.Positive(t, n)
}
