package tiktoken_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/tiktoken"
)

func TestEncoding(t *testing.T) {
	tests := []struct {
		name, text string
		ends       []int
	}{
		{"empty", "", nil},
		{"words", "Hello, world!", []int{5, 6, 12, 13}},
		{"special token text", "<|endoftext|>", []int{1, 2, 6, 8, 11, 12, 13}},
		// tiktoken-go reads an invalid byte as U+FFFD, three bytes.
		{"invalid byte", "a\xffb", []int{1, 2, 3}},
		// U+0081 is two byte tokens; the second starts inside it.
		{"end inside a character", "\u0081\xff", []int{1, 2, 3}},
	}
	enc, err := tiktoken.Encoding(tokencount.Cl100kBase)
	require.NoError(t, err)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, len(tt.ends), enc.Count(tt.text))
			require.Equal(t, tt.ends, enc.(tokencount.Offsetter).AppendTokenEnds(nil, tt.text))
		})
	}
}

func TestEncodingNames(t *testing.T) {
	// The encodings count this text four different ways.
	const text = "    indented: naïve 日本語 1234567 ┌──┐"
	for _, name := range tokencount.Encodings() {
		t.Run(name, func(t *testing.T) {
			ref, err := tiktoken.Encoding(name)
			require.NoError(t, err)
			enc, err := tokencount.Encoding(name)
			require.NoError(t, err)
			require.Equal(t, enc.Count(text), ref.Count(text))
		})
	}
	for _, name := range []string{"", "gpt2", "CL100K_BASE", "o200k"} {
		t.Run("unknown "+name, func(t *testing.T) {
			enc, err := tiktoken.Encoding(name)
			require.Nil(t, enc)
			require.ErrorIs(t, err, tokencount.ErrUnknownEncoding)
		})
	}
}

func Example() {
	yardstick, err := tiktoken.Encoding("o200k_base")
	if err != nil {
		panic(err)
	}
	enc, err := tokencount.Encoding("o200k_base")
	if err != nil {
		panic(err)
	}
	text := "Exact counts, cross-checked."
	fmt.Println(yardstick.Count(text), enc.Count(text))
	// Output: 7 7
}
