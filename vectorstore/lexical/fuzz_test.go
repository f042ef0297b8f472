package lexical_test

import (
	"context"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
)

// FuzzLexical checks the embedder on arbitrary text: a unit vector for any
// valid text with something besides white space, the documented errors
// otherwise, and the same vector every time.
func FuzzLexical(f *testing.F) {
	for _, s := range []string{"", " ", "Hello, world!", "don't stop", "* * *", "日本語のテキスト", "a\xffb", "’’'", "x'"} {
		f.Add(s)
	}
	l, err := lexical.New(lexical.Config{Dimension: 64})
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, text string) {
		v, err := l.Embed(context.Background(), []string{text})
		if !utf8.ValidString(text) || strings.TrimFunc(text, unicode.IsSpace) == "" {
			require.ErrorIs(t, err, vectorstore.ErrInvalidArgument)
			return
		}
		require.NoError(t, err)
		var ss float64
		for _, x := range v[0] {
			ss += float64(x) * float64(x)
		}
		require.InDelta(t, 1, ss, 1e-5, "squared norm")
		w, err := l.Embed(context.Background(), []string{text})
		require.NoError(t, err)
		require.Equal(t, v, w, "not deterministic")
	})
}
