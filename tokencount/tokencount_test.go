package tokencount_test

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/tiktoken"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEncodingNames(t *testing.T) {
	for _, name := range tokencount.Encodings() {
		t.Run(name, func(t *testing.T) {
			enc, err := tokencount.Encoding(name)
			require.NoError(t, err)
			bpe, ok := enc.(*tokencount.BPE)
			require.True(t, ok, "Encoding returns a *BPE")
			assert.Equal(t, name, bpe.Name())
			again, err := tokencount.Encoding(name)
			require.NoError(t, err)
			assert.Same(t, bpe, again, "an encoding is built once per process")
		})
	}
}

func TestUnknownEncoding(t *testing.T) {
	for _, name := range []string{"", "cl100k", "CL100K_BASE", "gpt2", "p50k_edit"} {
		t.Run(name, func(t *testing.T) {
			enc, err := tokencount.Encoding(name)
			assert.Nil(t, enc)
			assert.ErrorIs(t, err, tokencount.ErrUnknownEncoding)
			ref, err := tiktoken.Encoding(name)
			assert.Nil(t, ref)
			assert.ErrorIs(t, err, tokencount.ErrUnknownEncoding)
		})
	}
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
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			name, err := tokencount.EncodingForModel(tt.model)
			require.NoError(t, err)
			assert.Equal(t, tt.encoding, name)
			enc, err := tokencount.ForModel(tt.model)
			require.NoError(t, err)
			assert.Equal(t, tt.encoding, enc.(*tokencount.BPE).Name())
		})
	}
}

func TestForModelUnknown(t *testing.T) {
	for _, model := range []string{"", "claude-3", "llama-3-8b", "gpt", "o2"} {
		t.Run(model, func(t *testing.T) {
			enc, err := tokencount.ForModel(model)
			assert.Nil(t, enc)
			assert.True(t, errors.Is(err, tokencount.ErrUnknownModel), "got %v", err)
		})
	}
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
			assert.Equal(t, tt.want, enc.Count(tt.text))
		})
	}
}

// TestInvalidUTF8 checks the documented reading of invalid bytes: each
// one counts as U+FFFD, as tiktoken-go reads it, and offsets still point
// into the original bytes.
func TestInvalidUTF8(t *testing.T) {
	enc, err := tokencount.Encoding(tokencount.Cl100kBase)
	require.NoError(t, err)
	assert.Equal(t, enc.Count("a \uFFFD\uFFFD b"), enc.Count("a \xff\xfe b"))
	ends := enc.(tokencount.Offsetter).AppendTokenEnds(nil, "a \xff\xfe b")
	assert.Len(t, ends, enc.Count("a \xff\xfe b"))
	assert.Equal(t, len("a \xff\xfe b"), ends[len(ends)-1])
	// U+0081 is two byte tokens. The first ends inside the character, at
	// its exact offset, though the piece also holds an invalid byte.
	o := enc.(tokencount.Offsetter)
	assert.Equal(t, []int{1, 2, 3}, o.AppendTokenEnds(nil, "\xff\u0081"))
	assert.Equal(t, []int{1, 2, 3}, o.AppendTokenEnds(nil, "\u0081\xff"))
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
						if got := enc.Count(texts[i]); got != want[i] {
							t.Errorf("Count(text %d) = %d, want %d", i, got, want[i])
							return
						}
						if got := len(o.AppendTokenEnds(nil, texts[i])); got != want[i] {
							t.Errorf("AppendTokenEnds(text %d) gave %d ends, want %d", i, got, want[i])
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
	if n := testing.AllocsPerRun(100, func() { enc.Count(text) }); n != 0 {
		t.Errorf("Count allocates %.1f times per call, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { ends = o.AppendTokenEnds(ends[:0], text) }); n != 0 {
		t.Errorf("AppendTokenEnds allocates %.1f times per call, want 0", n)
	}
}

// counter is a Tokenizer that is not an Offsetter: it counts runes.
type counter struct{}

func (counter) Count(s string) int { return len([]rune(s)) }

func TestAppendTokenEndsSynthetic(t *testing.T) {
	tests := []string{"", "a", "héllo wörld", "one two  three\n\nfour", "日本語", "\xff\xfe x"}
	for _, text := range tests {
		t.Run(text, func(t *testing.T) {
			ends := tokencount.AppendTokenEnds(counter{}, nil, text)
			// Pieces of rune-counted text add up: the synthetic total is exact.
			assert.Len(t, ends, counter{}.Count(text))
			prev := 0
			for _, e := range ends {
				assert.GreaterOrEqual(t, e, prev)
				assert.LessOrEqual(t, e, len(text))
				prev = e
			}
			if len(ends) > 0 {
				assert.Equal(t, len(text), ends[len(ends)-1])
			}
			// Every end of a rune counter falls on a rune boundary.
			for _, e := range ends {
				assert.True(t, e == len(text) || (text[e]&0xC0) != 0x80, "end %d inside a rune", e)
			}
		})
	}
}

func TestAppendTokenEndsUsesOffsetter(t *testing.T) {
	enc, err := tokencount.Encoding(tokencount.Cl100kBase)
	require.NoError(t, err)
	text := "Offsets, not copies."
	want := enc.(tokencount.Offsetter).AppendTokenEnds([]int{-1}, text)
	got := tokencount.AppendTokenEnds(enc, []int{-1}, text)
	assert.Equal(t, want, got, "appends to dst, keeping its contents")
	assert.Len(t, got, 1+enc.Count(text))
}
