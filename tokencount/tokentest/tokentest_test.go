package tokentest_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/tokentest"
)

func TestCounts(t *testing.T) {
	tests := []struct {
		name string
		tok  tokencount.Tokenizer
		text string
		want int
	}{
		{"FixedWidth/empty", tokentest.FixedWidth{Bytes: 4}, "", 0},
		{"FixedWidth/round up", tokentest.FixedWidth{Bytes: 4}, "hello", 2},
		{"FixedWidth/zero width", tokentest.FixedWidth{}, "héllo", 6},
		{"Runes", tokentest.Runes{}, "héllo 日本", 8},
		{"Runes/invalid byte", tokentest.Runes{}, "a\xffb", 3},
		{"Words", tokentest.Words{}, "  one two\tthree\n", 3},
		{"Lumpy/run of four", tokentest.Lumpy{}, "abcd", 1},
		{"Lumpy/run of five", tokentest.Lumpy{}, "abcde", 2},
		{"Lumpy/space joins", tokentest.Lumpy{}, "a b", 2},
		{"Lumpy/space alone", tokentest.Lumpy{}, "  ", 1},
		{"Lumpy/punctuation", tokentest.Lumpy{}, "a, b.", 4},
		{"Crowded/8 words", tokentest.Crowded{}, "a b c d e f g h", 9},
		{"Growing/words and marks", tokentest.Growing{}, "Hi, you.", 4},
		{"Growing/length", tokentest.Growing{}, "abcdefghijklmnop", 2},
		{"Func", tokentest.Func(func(string) int { return -1 }), "x", -1},
		{"Hidden", tokentest.Hidden{Tokenizer: tokentest.Runes{}}, "abc", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, tt.tok.Count(tt.text))
		})
	}
}

func TestHiddenIsNotAnOffsetter(t *testing.T) {
	enc, err := tokencount.Encoding(tokencount.Cl100kBase)
	require.NoError(t, err)
	var tok tokencount.Tokenizer = tokentest.Hidden{Tokenizer: enc}
	_, ok := tok.(tokencount.Offsetter)
	require.False(t, ok)
}

func TestEdge(t *testing.T) {
	enc, err := tokencount.Encoding(tokencount.Cl100kBase)
	require.NoError(t, err)
	e := tokentest.Edge{Inner: enc.(tokencount.Offsetter), Extra: 3}
	const text = "Hello, world."
	require.Equal(t, enc.Count(text)+3, e.Count(text))
	require.Equal(t, 0, e.Count(""))
	require.Equal(t, tokencount.AppendTokenEnds(enc, nil, text), e.AppendTokenEnds(nil, text))
}

func TestCounting(t *testing.T) {
	c := tokentest.NewCounting(tokentest.Runes{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			require.Equal(t, 3, c.Count("abc"))
			ends := c.AppendTokenEnds(nil, "ab")
			require.Equal(t, []int{1, 2}, ends)
		}()
	}
	wg.Wait()
	require.Equal(t, 8, c.Counts())
	require.Equal(t, 8, c.Ends())
	require.Equal(t, 8*5, c.Bytes())
	c.Reset()
	require.Zero(t, c.Counts()+c.Ends()+c.Bytes())
}

func ExampleCounting() {
	enc, _ := tokencount.Encoding(tokencount.Cl100kBase)
	c := tokentest.NewCounting(enc)
	c.Count("How many tokens?")
	c.Count("And now?")
	fmt.Println(c.Counts(), "calls,", c.Bytes(), "bytes")
	// Output: 2 calls, 24 bytes
}

func ExampleFunc() {
	negative := tokentest.Func(func(string) int { return -1 })
	fmt.Println(negative.Count("anything"))
	// Output: -1
}
