package chunker_test

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/tokencount/tokentest"
)

// At a tiny MaxTokens the estimates fall short chunk after chunk; the
// tails that repairs leave must not pile up, or every chunk counts a
// growing stretch of text and Split turns quadratic. The bytes counted per
// byte of text stay flat as the text grows.
func TestTinyMaxIsLinear(t *testing.T) {
	prose := corpus(t, "sherlock_1661.txt")
	repeated := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 4000)
	for _, tc := range []struct {
		name string
		text string
		max  int
	}{
		{"repeated prose", repeated, 1},
		{"prose", prose, 2},
		{"prose", prose, 8},
	} {
		t.Run(fmt.Sprintf("%s/%d", tc.name, tc.max), func(t *testing.T) {
			ratio := func(n int) float64 {
				tok := tokentest.NewCounting(cl100k(t))
				c := mustNew(t, chunker.Config{Tokenizer: tok, MaxTokens: tc.max})
				_, err := c.Split(tc.text[:n])
				require.NoError(t, err)
				return float64(tok.Bytes()) / float64(n)
			}
			small, large := ratio(20_000), ratio(160_000)
			t.Logf("bytes tokenized per byte: %.2f at 20 KB, %.2f at 160 KB", small, large)
			require.Less(t, large, 1.5*small+1, "the work per byte grows with the text")
			require.Less(t, large, 8.0)
		})
	}
}

// Degenerate shapes must not make Split allocate without bound: one
// enormous word, a line break every other byte, deeply nested quotes, a
// sentence of a hundred thousand commas. What Split allocates bounds its
// peak memory; prose takes about 5 bytes per byte, these shapes up to
// twelve times that (every token of a long word needs its end recorded, and
// candidate cuts are dense), where they took 100 to 550 before the
// candidates inside long units were thinned and read window by window.
func TestDegenerateShapesMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates tens of megabytes")
	}
	if raceEnabled {
		t.Skip("-race allocates on its own account")
	}
	const n = 1 << 20
	var quotes strings.Builder
	for quotes.Len() < n {
		quotes.WriteString(strings.Repeat("> ", quotes.Len()%50) + "quoted line text here\n")
	}
	shapes := []struct {
		name   string
		text   string
		format document.Format
	}{
		{"one letter", strings.Repeat("a", n), document.Text},
		{"one word of two letters", strings.Repeat("ab", n/2), document.Text},
		{"x and a line break", strings.Repeat("x\n", n/2), document.Text},
		{"nested quotes", quotes.String(), document.Markdown},
		{"commas", strings.Repeat("a, ", n/3), document.Text},
		{"prose", corpus(t, "sherlock_1661.txt"), document.Text},
	}
	tok := cl100k(t)
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			c := mustNew(t, chunker.Config{Tokenizer: tok, MaxTokens: 512, Format: sh.format})
			_, err := c.Split(sh.text) // warm the tokenizer's cache, not ours to measure
			require.NoError(t, err)
			var before, after runtime.MemStats
			// Two collections empty the pools (the second clears their
			// victim caches), so every run counts the same allocations.
			runtime.GC()
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err = c.Split(sh.text)
			require.NoError(t, err)
			runtime.ReadMemStats(&after)
			perByte := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(sh.text))
			t.Logf("%.1f bytes allocated per byte of text (%d bytes, %d allocated)", perByte, len(sh.text), after.TotalAlloc-before.TotalAlloc)
			require.Less(t, perByte, 64.0)
		})
	}
}

// Configurations at the edges of int must not overflow into a panic. Such
// a text is one chunk by Split's first count; TestHugeConfigurationsPlan
// plans it too.
func TestHugeConfigurations(t *testing.T) {
	tok := cl100k(t)
	text := corpus(t, "room_with_a_view.txt")[:20000]
	for _, cfg := range []chunker.Config{
		{Tokenizer: tok, MaxTokens: math.MaxInt, OverlapTokens: math.MaxInt - 1},
		{Tokenizer: tok, MaxTokens: math.MaxInt},
		{Tokenizer: tok, MaxTokens: math.MaxInt, MinTokens: math.MaxInt / 4},
		{Tokenizer: tok, MaxTokens: math.MaxInt, MinTokens: math.MaxInt / 2},
		{Tokenizer: tok, MaxTokens: math.MaxInt / 2, OverlapTokens: math.MaxInt / 4, Format: document.Markdown},
	} {
		chunks := split(t, cfg, text)
		require.Len(t, chunks, 1)
	}
	require.Equal(t, chunker.Config{}, (*chunker.Chunker)(nil).Config())
	require.Equal(t, chunker.Config{}, new(chunker.Chunker).Config())
}

// A Tokenizer that returns a negative count, or an absurd one, gets an
// error, not a negative Tokens or memory without end.
func TestMisbehavingTokenizers(t *testing.T) {
	text := corpus(t, "room_with_a_view.txt")[:5000]
	for name, tok := range map[string]tokentest.Func{
		"negative": func(string) int { return -1 },
		"negative for long text": func(s string) int {
			if len(s) > 100 {
				return -5
			}
			return len(s) / 4
		},
		"huge": func(string) int { return 1 << 28 },
	} {
		t.Run(name, func(t *testing.T) {
			c := mustNew(t, chunker.Config{Tokenizer: tok, MaxTokens: 64})
			_, err := c.Split(text)
			require.Error(t, err)
			require.True(t, errorsIsAny(err, chunker.ErrTokenizer, chunker.ErrGraphemeTooLong), "%v", err)
		})
	}
}

func errorsIsAny(err error, targets ...error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}

// A white space character can open a grapheme cluster (a space carrying a
// combining mark or a zero-width non-joiner) or close one (after a
// prepended mark such as U+0600). Trimming it by character cut the cluster,
// so a chunk started inside it; white space is trimmed in whole clusters.
func TestCutsKeepSpaceClusters(t *testing.T) {
	tests := []struct {
		name string
		cfg  chunker.Config
		text string
	}{
		{"fuzz: space and ZWNJ", chunker.Config{MaxTokens: 4, OverlapTokens: 1, Format: document.Markdown, StretchChunks: 3}, "0\u0301\u0301\u0301\u0301 \u200c"},
		{"space and acute between words", chunker.Config{MaxTokens: 3}, strings.Repeat("word \u0301 next ", 40)},
		{"leading space cluster", chunker.Config{MaxTokens: 8}, " \u0301" + strings.Repeat("Some words here. ", 20)},
		{"prepended mark before a space", chunker.Config{MaxTokens: 3}, strings.Repeat("alpha\u0600 beta ", 30)},
		{"prepended mark, space, acute", chunker.Config{MaxTokens: 2, OverlapTokens: 1}, strings.Repeat("x\u0600 \u0301y ", 30)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.Tokenizer = cl100k(t)
			split(t, tt.cfg, tt.text)
		})
	}
}
