package window_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/tokentest"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/window"
)

// trimSetup is an Extractor over one document of n units, every one a hit
// of nearly equal worth, so that the best segment is all of them, under a
// total budget of a third of their tokens: the segment is trimmed.
func trimSetup(t testing.TB, n int, tok tokencount.Tokenizer) (*window.Extractor, []vectorstore.Hit, string) {
	units, text := spaced("d", n)
	x, err := window.NewExtractor(window.ExtractorConfig{Source: static{"d": units}, MaxUnits: n,
		Penalty: 1e-9, Decay: 1e12, MinValue: 1e-9, Tokenizer: tok, MaxTotalTokens: tok.Count(text) / 3})
	require.NoError(t, err)
	hits := make([]vectorstore.Hit, n)
	for i, u := range units {
		hits[i] = vectorstore.Hit{Record: u, Score: 1}
	}
	return x, hits, text
}

// TestExtractTrimLinear is a regression test: a segment over the budget
// was cut one unit at a time and recounted after each cut, so the bytes
// counted grew with the square of its length (72-121x the time for 8x the
// units). Now the cut is found by bisection: O(log n) counts of at most
// the segment's text.
func TestExtractTrimLinear(t *testing.T) {
	for _, n := range []int{1000, 4000} {
		tok := tokentest.NewCounting(tokentest.Runes{})
		x, hits, text := trimSetup(t, n, tok)
		before := tok.Bytes()
		ws, err := x.Extract(context.Background(), hits)
		require.NoError(t, err)
		require.NotEmpty(t, ws)
		require.True(t, ws[0].Trimmed)
		require.LessOrEqual(t, ws[0].Tokens, len(text)/3)
		logn := 1
		for 1<<logn < n {
			logn++
		}
		counted := tok.Bytes() - before
		t.Logf("n = %d: %d bytes counted for a %d-byte segment", n, counted, len(text))
		require.LessOrEqual(t, counted, 2*(logn+2)*len(text), "bytes counted")
	}
}

// BenchmarkExtractTrim trims one segment of 1,000 and 4,000 units to a
// third of its tokens.
func BenchmarkExtractTrim(b *testing.B) {
	benchmarkLong(b, func(b *testing.B, n int, tok tokencount.Tokenizer) (func() error, string) {
		x, hits, text := trimSetup(b, n, tok)
		return func() error { _, err := x.Extract(context.Background(), hits); return err }, text
	})
}
