package window_test

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/tokentest"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/window"
)

// spaced returns n units of one document, each a short sentence, one space
// apart, with their offsets, and the document's text.
func spaced(docID string, n int) ([]vectorstore.Record, string) {
	units := make([]vectorstore.Record, n)
	var b strings.Builder
	for i := range units {
		if i > 0 {
			b.WriteByte(' ')
		}
		text := "Sentence " + strings.Repeat("x", 1+i%3) + " number " + strconv.Itoa(i) + "."
		units[i] = vectorstore.Record{ID: docID + "#" + strconv.Itoa(i), DocID: docID, Index: i,
			Start: b.Len(), End: b.Len() + len(text), Text: text}
		b.WriteString(text)
	}
	return units, b.String()
}

// longWindow expands one hit in the middle of n units to a window of all
// of them under a cap that every window fits.
func longWindow(t testing.TB, n int, tok tokencount.Tokenizer) (*window.Expander, []vectorstore.Hit, string) {
	units, text := spaced("d", n)
	e, err := window.NewExpander(window.ExpanderConfig{Source: static{"d": units}, Size: n,
		Tokenizer: tok, MaxTokens: 1 << 30})
	require.NoError(t, err)
	return e, []vectorstore.Hit{{Record: units[n/2], Score: 1}}, text
}

// TestExpandCapLinear is a regression test: a capped window used to
// recount its whole text after each unit it grew by, so the bytes counted
// grew with the square of its length (about n²/2 units' worth). Now a
// window's growth costs O(log n) counts of at most its text, plus the
// final count.
func TestExpandCapLinear(t *testing.T) {
	for _, n := range []int{1000, 4000} {
		tok := tokentest.NewCounting(tokentest.Runes{})
		e, hits, text := longWindow(t, n, tok)
		ws, err := e.Expand(context.Background(), hits)
		require.NoError(t, err)
		require.Len(t, ws, 1)
		require.Equal(t, text, ws[0].Text)
		require.Equal(t, len([]rune(text)), ws[0].Tokens)
		logn := 1
		for 1<<logn < n {
			logn++
		}
		t.Logf("n = %d: %d counts, %d bytes counted for a %d-byte window", n, tok.Counts(), tok.Bytes(), len(text))
		require.LessOrEqual(t, tok.Bytes(), 2*(logn+2)*len(text), "bytes counted")
	}
}

// TestExpandCapWalk checks a capped window against the walk the
// documentation describes: one unit at a time, alternating sides from the
// left, a side stopping at the first unit that does not fit or is past
// Before or After, with a tokenizer whose count never falls as text
// grows.
func TestExpandCapWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	tok := tokentest.Runes{}
	for trial := range 2000 {
		n := 1 + rng.IntN(40)
		units := make([]vectorstore.Record, n)
		for i := range units {
			units[i] = vectorstore.Record{ID: strconv.Itoa(i), DocID: "d", Index: i, Text: strings.Repeat("w", 1+rng.IntN(12))}
		}
		h := rng.IntN(n)
		before, after := 1+rng.IntN(n), 1+rng.IntN(n)
		limit := len(units[h].Text) + rng.IntN(120)
		e, err := window.NewExpander(window.ExpanderConfig{Source: static{"d": units}, Before: before, After: after,
			Tokenizer: tok, MaxTokens: limit, Separator: " "})
		require.NoError(t, err)
		ws, err := e.Expand(context.Background(), []vectorstore.Hit{{Record: units[h], Score: 1}})
		require.NoError(t, err)
		require.Len(t, ws, 1)

		fits := func(lo, hi int) bool {
			texts := make([]string, 0, hi-lo+1)
			for _, u := range units[lo : hi+1] {
				texts = append(texts, u.Text)
			}
			return tok.Count(strings.Join(texts, " ")) <= limit
		}
		lo, hi, left, right := h, h, true, true
		for left || right {
			if left {
				if left = lo > 0 && lo-1 >= h-before && fits(lo-1, hi); left {
					lo--
				}
			}
			if right {
				if right = hi < n-1 && hi+1 <= h+after && fits(lo, hi+1); right {
					hi++
				}
			}
		}
		require.Equal(t, [2]int{lo, hi}, [2]int{ws[0].First, ws[0].Last}, "trial %d: n %d, hit %d, before %d, after %d, cap %d", trial, n, h, before, after, limit)
	}
}

// BenchmarkExpandLong grows one window over 1,000 and 4,000 units under a
// token cap that they all fit.
func BenchmarkExpandLong(b *testing.B) {
	benchmarkLong(b, func(b *testing.B, n int, tok tokencount.Tokenizer) (func() error, string) {
		e, hits, text := longWindow(b, n, tok)
		return func() error { _, err := e.Expand(context.Background(), hits); return err }, text
	})
}

// benchmarkLong runs, for 1,000 and 4,000 units, the call that setup makes
// over a text of that many units, counted with cl100k_base.
func benchmarkLong(b *testing.B, setup func(b *testing.B, n int, tok tokencount.Tokenizer) (call func() error, text string)) {
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(b, err)
	for _, n := range []int{1000, 4000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			call, text := setup(b, n, tok)
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				if err := call(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
