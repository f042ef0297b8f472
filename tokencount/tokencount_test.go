package tokencount_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/tiktoken"
	"github.com/ragkit/ragkit/tokencount/tokentest"
)

func TestEncodingNames(t *testing.T) {
	for _, name := range tokencount.Encodings() {
		t.Run(name, func(t *testing.T) {
			enc, err := tokencount.Encoding(name)
			require.NoError(t, err)
			bpe, ok := enc.(*tokencount.BPE)
			require.True(t, ok, "Encoding returns a *BPE")
			require.Equal(t, name, bpe.Name())
			again, err := tokencount.Encoding(name)
			require.NoError(t, err)
			require.Same(t, bpe, again, "an encoding is built once per process")
		})
	}
}

func TestUnknownEncoding(t *testing.T) {
	for _, name := range []string{"", "cl100k", "CL100K_BASE", "gpt2", "p50k_edit"} {
		t.Run(name, func(t *testing.T) {
			enc, err := tokencount.Encoding(name)
			require.Nil(t, enc)
			require.ErrorIs(t, err, tokencount.ErrUnknownEncoding)
			ref, err := tiktoken.Encoding(name)
			require.Nil(t, ref)
			require.ErrorIs(t, err, tokencount.ErrUnknownEncoding)
		})
	}
	_, err := tokencount.Encoding("cl100k")
	require.EqualError(t, err, `tokencount: unknown encoding: "cl100k" (known: cl100k_base, o200k_base, p50k_base, r50k_base)`)
}

func TestForModel(t *testing.T) {
	tests := []struct{ model, encoding string }{
		{"gpt-4o", "o200k_base"},
		{"gpt-4o-mini", "o200k_base"},
		{"gpt-4o-2024-08-06", "o200k_base"},
		{"gpt-4.1", "o200k_base"},
		{"gpt-4.1-nano", "o200k_base"},
		{"gpt-4.5-preview", "o200k_base"},
		{"gpt-5", "o200k_base"},
		{"gpt-5-mini", "o200k_base"},
		{"o1", "o200k_base"},
		{"o1-mini", "o200k_base"},
		{"o3-mini", "o200k_base"},
		{"o4-mini", "o200k_base"},
		{"ft:gpt-4o-mini:org::id", "o200k_base"},
		{"gpt-4", "cl100k_base"},
		{"gpt-4-turbo", "cl100k_base"},
		{"gpt-4-0613", "cl100k_base"},
		{"gpt-4-32k", "cl100k_base"},
		{"gpt-3.5-turbo", "cl100k_base"},
		{"gpt-3.5-turbo-16k", "cl100k_base"},
		{"gpt-35-turbo", "cl100k_base"},
		{"text-embedding-3-small", "cl100k_base"},
		{"text-embedding-3-large", "cl100k_base"},
		{"text-embedding-ada-002", "cl100k_base"},
		{"text-davinci-003", "p50k_base"},
		{"code-davinci-002", "p50k_base"},
		{"davinci", "r50k_base"},
		{"gpt2", "r50k_base"},
		// Case and surrounding white space do not matter.
		{"GPT-4o", "o200k_base"},
		{"gpt-4o ", "o200k_base"},
		{"  GPT-4O-Mini\n", "o200k_base"},
		{"\tgpt-3.5-Turbo", "cl100k_base"},
		{"Text-Embedding-3-Small", "cl100k_base"},
		{"FT:GPT-4o:Org::ID", "o200k_base"},
		{"\u00a0O3-MINI\u00a0", "o200k_base"},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			name, err := tokencount.EncodingForModel(tt.model)
			require.NoError(t, err)
			require.Equal(t, tt.encoding, name)
			enc, err := tokencount.ForModel(tt.model)
			require.NoError(t, err)
			require.Equal(t, tt.encoding, enc.(*tokencount.BPE).Name())
		})
	}
}

func TestForModelUnknown(t *testing.T) {
	for _, model := range []string{"", " ", "claude-3", "llama-3-8b", "gpt", "o2", "gpt 4o", "gpt-4 o"} {
		t.Run(model, func(t *testing.T) {
			enc, err := tokencount.ForModel(model)
			require.Nil(t, enc)
			require.ErrorIs(t, err, tokencount.ErrUnknownModel)
		})
	}
	// The error names the model as given.
	_, err := tokencount.EncodingForModel(" Claude-3")
	require.ErrorContains(t, err, `tokencount: unknown model: " Claude-3" (`)
}

func TestCountBasics(t *testing.T) {
	enc, err := tokencount.Encoding(tokencount.Cl100kBase)
	require.NoError(t, err)
	tests := []struct {
		name string
		text string
		want int
	}{
		{"empty", "", 0},
		{"word", "hello", 1},
		{"sentence", "Hello, world!", 4},
		// Special-token markup is ordinary text: never the single special token.
		{"special token text", "<|endoftext|>", 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, enc.Count(tt.text))
		})
	}
}

// TestInvalidUTF8 checks the documented reading of invalid bytes: each
// one counts as U+FFFD, as tiktoken-go reads it, and offsets still point
// into the original bytes.
func TestInvalidUTF8(t *testing.T) {
	enc, err := tokencount.Encoding(tokencount.Cl100kBase)
	require.NoError(t, err)
	const text = "a \xff\xfe b"
	require.Equal(t, enc.Count("a \uFFFD\uFFFD b"), enc.Count(text))
	o := enc.(tokencount.Offsetter)
	tokencount.CheckEnds(t, text, o.AppendTokenEnds(nil, text), enc.Count(text))
	// U+0081 is two byte tokens. The first ends inside the character, at
	// its exact offset, though the piece also holds an invalid byte.
	require.Equal(t, []int{1, 2, 3}, o.AppendTokenEnds(nil, "\xff\u0081"))
	require.Equal(t, []int{1, 2, 3}, o.AppendTokenEnds(nil, "\u0081\xff"))
}

// TestConcurrentCount shares one encoding between goroutines that fill
// and read its cache at once; run with -race.
func TestConcurrentCount(t *testing.T) {
	for _, name := range tokencount.Encodings() {
		t.Run(name, func(t *testing.T) {
			enc, err := tokencount.Encoding(name)
			require.NoError(t, err)
			ref, err := tiktoken.Encoding(name)
			require.NoError(t, err)
			texts := []string{
				"The quick brown fox jumps over the lazy dog. Pneumonoultramicroscopic!",
				strings.Repeat("Supercalifragilisticexpialidocious ", 50),
				"naïve façade coöperate – “quoted” ‘text’ … 日本語のテキスト",
				strings.Repeat("=-", 200) + "\n\n\n",
			}
			want := make([]int, len(texts))
			for i, s := range texts {
				want[i] = ref.Count(s)
			}
			var wg sync.WaitGroup
			for g := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					o := enc.(tokencount.Offsetter)
					for k := range 200 {
						i := (g + k) % len(texts)
						// assert, not require: this is not the test's goroutine.
						if !assert.Equal(t, want[i], enc.Count(texts[i]), "Count(text %d)", i) ||
							!assert.Len(t, o.AppendTokenEnds(nil, texts[i]), want[i], "AppendTokenEnds(text %d)", i) {
							return
						}
					}
				}()
			}
			wg.Wait()
		})
	}
}

// TestCountAllocs guards the hot path: once its pieces are cached,
// counting text allocates nothing.
func TestCountAllocs(t *testing.T) {
	enc, err := tokencount.Encoding(tokencount.O200kBase)
	require.NoError(t, err)
	text := "It was the best of times, it was the worst of times; unquestionably incomprehensible.\r\n\r\n"
	ends := make([]int, 0, 64)
	o := enc.(tokencount.Offsetter)
	enc.Count(text)
	require.Zero(t, testing.AllocsPerRun(100, func() { enc.Count(text) }), "Count allocates")
	require.Zero(t, testing.AllocsPerRun(100, func() { ends = o.AppendTokenEnds(ends[:0], text) }), "AppendTokenEnds allocates")
}

// TestAppendTokenEndsSynthetic spreads the counts of a Tokenizer that is
// not an Offsetter over pieces of text.
func TestAppendTokenEndsSynthetic(t *testing.T) {
	tests := []string{"", "a", "héllo wörld", "one two  three\n\nfour", "日本語", "\xff\xfe x"}
	for _, text := range tests {
		t.Run(text, func(t *testing.T) {
			runes := tokentest.Runes{}
			ends := tokencount.AppendTokenEnds(runes, nil, text)
			// Pieces of rune-counted text add up: the synthetic total is exact.
			tokencount.CheckEnds(t, text, ends, runes.Count(text))
			// Every end of a rune counter falls on a rune boundary.
			for _, e := range ends {
				require.True(t, e == len(text) || (text[e]&0xC0) != 0x80, "end %d inside a rune", e)
			}
		})
	}
}

// A Tokenizer that counts absurdly many tokens must not make the synthetic
// ends grow without bound: a piece holds at most one token per byte.
func TestAppendTokenEndsHugeCounts(t *testing.T) {
	huge := tokentest.Func(func(string) int { return 1 << 28 })
	text := "one two three"
	ends := tokencount.AppendTokenEnds(huge, nil, text)
	require.Len(t, ends, len(text))
	require.Equal(t, len(text), ends[len(ends)-1])
	require.IsNonDecreasing(t, ends)
}

func TestAppendTokenEndsUsesOffsetter(t *testing.T) {
	enc, err := tokencount.Encoding(tokencount.Cl100kBase)
	require.NoError(t, err)
	text := "Offsets, not copies."
	want := enc.(tokencount.Offsetter).AppendTokenEnds([]int{-1}, text)
	got := tokencount.AppendTokenEnds(enc, []int{-1}, text)
	require.Equal(t, want, got, "appends to dst, keeping its contents")
	require.Len(t, got, 1+enc.Count(text))
}
