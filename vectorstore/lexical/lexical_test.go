package lexical_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/internal/testcorpus"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/stretchr/testify/require"
)

func embedOne(t *testing.T, l *lexical.Embedder, text string) []float32 {
	t.Helper()
	v, err := l.Embed(context.Background(), []string{text})
	require.NoError(t, err)
	return v[0]
}

func TestLexicalVectors(t *testing.T) {
	l, err := lexical.New(lexical.Config{})
	require.NoError(t, err)
	require.Equal(t, 2048, l.Dimension())
	require.Equal(t, lexical.Config{Dimension: 2048}, l.Config())
	texts := []string{"The cat sat on the mat.", "¡Hola, señor Müller!", "* * *", "to be or not to be", "x"}
	vecs, err := l.Embed(context.Background(), texts)
	require.NoError(t, err)
	for i, v := range vecs {
		require.Len(t, v, l.Dimension(), "text %d", i)
		var ss float64
		for _, x := range v {
			ss += float64(x) * float64(x)
		}
		require.InDelta(t, 1, ss, 1e-5, "text %q: squared norm", texts[i])
	}
	// Deterministic, and one text's vector does not depend on its batch.
	rev := slices.Clone(texts)
	slices.Reverse(rev)
	again, err := l.Embed(context.Background(), rev)
	require.NoError(t, err)
	require.Equal(t, vecs[0], again[len(texts)-1], "same text, different vector")
}

// TestZeroLexical is the regression test for the zero Lexical, whose Embed
// divided by zero: it is the default embedder, and so is a nil *Lexical.
func TestZeroLexical(t *testing.T) {
	def, err := lexical.New(lexical.Config{})
	require.NoError(t, err)
	texts := []string{"Lucy played Beethoven", "the Arno"}
	want, err := def.Embed(context.Background(), texts)
	require.NoError(t, err)
	for name, l := range map[string]*lexical.Embedder{"zero": {}, "nil": nil} {
		t.Run(name, func(t *testing.T) {
			got, err := l.Embed(context.Background(), texts)
			require.NoError(t, err)
			require.Equal(t, want, got)
			require.Equal(t, def.Config(), l.Config())
			require.Equal(t, 2048, l.Dimension())
		})
	}
}

func TestLexicalSimilarity(t *testing.T) {
	l, err := lexical.New(lexical.Config{Dimension: 1024})
	require.NoError(t, err)
	sim := func(a, b string) float64 { return cosine(embedOne(t, l, a), embedOne(t, l, b)) }
	tests := []struct {
		name    string
		a, b    string
		atLeast float64
		atMost  float64
	}{
		{"identical", "Lucy played Beethoven", "Lucy played Beethoven", 0.9999, 1.0001},
		{"case and punctuation", "Lucy played BEETHOVEN!", "lucy, played beethoven", 0.9999, 1.0001},
		{"apostrophe", "don't", "dont", 0.9999, 1.0001},
		{"curly apostrophe", "Lucy’s piano", "Lucy's piano", 0.9999, 1.0001},
		{"stop words alone do not matter", "the piano of Lucy", "Lucy piano", 0.5, 1},
		{"shared words", "Lucy played the piano in Florence", "In Florence, Lucy played", 0.4, 1},
		{"no shared words", "Lucy played the piano", "George walked to the church", -0.2, 0.2},
		{"synonyms are not matched", "car", "automobile", -0.2, 0.2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sim(tt.a, tt.b)
			require.GreaterOrEqual(t, s, tt.atLeast)
			require.LessOrEqual(t, s, tt.atMost)
		})
	}
	// Word order matters only through bigrams.
	reordered, identical := sim("old man river", "river man old"), sim("old man river", "old man river")
	require.Less(t, reordered, identical)
	require.GreaterOrEqual(t, reordered, 0.3)
}

func TestLexicalErrors(t *testing.T) {
	l, err := lexical.New(lexical.Config{})
	require.NoError(t, err)
	tests := []struct {
		name  string
		texts []string
		msg   string
	}{
		{"empty", []string{"fine", ""}, "vectorstore: invalid argument: text 1 has nothing to embed"},
		{"white space", []string{" \t\n "}, "vectorstore: invalid argument: text 0 has nothing to embed"},
		{"invalid UTF-8", []string{"ab\xffcd"}, "vectorstore: invalid argument: text 0 is not valid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := l.Embed(context.Background(), tt.texts)
			require.ErrorIs(t, err, vectorstore.ErrInvalidArgument)
			require.True(t, strings.HasPrefix(err.Error(), tt.msg), err.Error())
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = l.Embed(ctx, []string{"a"})
	require.ErrorIs(t, err, context.Canceled)
	for _, d := range []int{-1, vectorstore.MaxDimension + 1} {
		_, err := lexical.New(lexical.Config{Dimension: d})
		require.ErrorIs(t, err, lexical.ErrConfig, "Dimension %d", d)
		require.ErrorContains(t, err, fmt.Sprintf("lexical: invalid configuration: Dimension is %d: ", d))
	}
	v, err := l.Embed(context.Background(), nil)
	require.NoError(t, err)
	require.Empty(t, v)
}

func TestLexicalKeepStopWords(t *testing.T) {
	plain, err := lexical.New(lexical.Config{})
	require.NoError(t, err)
	keep, err := lexical.New(lexical.Config{KeepStopWords: true})
	require.NoError(t, err)
	require.True(t, keep.Config().KeepStopWords)
	a, b := "the piano of Lucy", "Lucy piano"
	require.Less(t, cosine(embedOne(t, keep, a), embedOne(t, keep, b)), cosine(embedOne(t, plain, a), embedOne(t, plain, b)),
		"keeping stop words should make these texts less alike")
}

// TestLexicalFindsParagraphs is the embedder's job on a real book: a run of
// words taken from the middle of a paragraph finds that paragraph.
func TestLexicalFindsParagraphs(t *testing.T) {
	paras := testcorpus.Paragraphs(t, "room_with_a_view.txt", 40)
	l, err := lexical.New(lexical.Config{})
	require.NoError(t, err)
	vecs, err := l.Embed(context.Background(), paras)
	require.NoError(t, err)
	m, err := memory.New(memory.Config{})
	require.NoError(t, err)
	for i, v := range vecs {
		require.NoError(t, m.Upsert(context.Background(), vectorstore.Record{ID: string(rune('a'+i%26)) + strings.Repeat("x", i/26), DocID: "room", Index: i, Vector: v}))
	}
	found, asked := 0, 0
	for i := 0; i < len(paras); i += 7 {
		words := strings.Fields(paras[i])
		mid := len(words) / 2
		q := embedOne(t, l, strings.Join(words[mid-6:mid+6], " "))
		hits, err := m.Query(context.Background(), q, 3, vectorstore.Filter{})
		require.NoError(t, err)
		asked++
		for _, h := range hits {
			if h.Index == i {
				found++
				break
			}
		}
	}
	rate := float64(found) / float64(asked)
	require.GreaterOrEqual(t, rate, 0.9, "a 12-word excerpt found its paragraph in the top 3 for %d of %d", found, asked)
	t.Logf("found %d of %d paragraphs in the top 3", found, asked)
}

// cosine is the similarity of two of the embedder's vectors, which are of
// unit length: their dot product.
func cosine(a, b []float32) float64 {
	var ab float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
	}
	return ab
}
