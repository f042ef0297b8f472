package vectorstore_test

import (
	"context"
	"errors"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/internal/testcorpus"
	"github.com/ragkit/ragkit/vectorstore"
)

func embedOne(t *testing.T, l *vectorstore.Lexical, text string) []float32 {
	t.Helper()
	v, err := l.Embed(bg, []string{text})
	if err != nil {
		t.Fatal(err)
	}
	return v[0]
}

func TestLexicalVectors(t *testing.T) {
	l, err := vectorstore.NewLexical(vectorstore.LexicalConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if l.Dimension() != vectorstore.DefaultLexicalDimension {
		t.Errorf("Dimension = %d", l.Dimension())
	}
	texts := []string{"The cat sat on the mat.", "¡Hola, señor Müller!", "* * *", "to be or not to be", "x"}
	vecs, err := l.Embed(bg, texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vecs {
		if len(v) != l.Dimension() {
			t.Errorf("text %d: length %d", i, len(v))
		}
		var ss float64
		for _, x := range v {
			ss += float64(x) * float64(x)
		}
		if math.Abs(ss-1) > 1e-5 {
			t.Errorf("text %q: squared norm %v, want 1", texts[i], ss)
		}
	}
	// Deterministic, and one text's vector does not depend on its batch.
	rev := slices.Clone(texts)
	slices.Reverse(rev)
	again, _ := l.Embed(bg, rev)
	if !slices.Equal(again[len(texts)-1], vecs[0]) {
		t.Error("same text, different vector")
	}
}

func TestLexicalSimilarity(t *testing.T) {
	l, _ := vectorstore.NewLexical(vectorstore.LexicalConfig{Dimension: 1024})
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
			if s := sim(tt.a, tt.b); s < tt.atLeast || s > tt.atMost {
				t.Errorf("similarity %v, want in [%v, %v]", s, tt.atLeast, tt.atMost)
			}
		})
	}
	// Word order matters only through bigrams.
	if a, b := sim("old man river", "river man old"), sim("old man river", "old man river"); !(a < b) || a < 0.3 {
		t.Errorf("reordered %v, identical %v", a, b)
	}
}

func TestLexicalErrors(t *testing.T) {
	l, _ := vectorstore.NewLexical(vectorstore.LexicalConfig{})
	tests := []struct {
		name  string
		texts []string
		want  error
	}{
		{"empty", []string{"fine", ""}, vectorstore.ErrEmptyText},
		{"white space", []string{" \t\n "}, vectorstore.ErrEmptyText},
		{"invalid UTF-8", []string{"ab\xffcd"}, vectorstore.ErrInvalidUTF8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := l.Embed(bg, tt.texts); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if _, err := l.Embed(ctx, []string{"a"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	for _, d := range []int{-1, vectorstore.MaxDimension + 1} {
		if _, err := vectorstore.NewLexical(vectorstore.LexicalConfig{Dimension: d}); !errors.Is(err, vectorstore.ErrInvalidConfig) {
			t.Errorf("Dimension %d: %v", d, err)
		}
	}
	if v, err := l.Embed(bg, nil); err != nil || len(v) != 0 {
		t.Errorf("no texts: %v, %v", v, err)
	}
}

func TestLexicalKeepStopWords(t *testing.T) {
	plain, _ := vectorstore.NewLexical(vectorstore.LexicalConfig{})
	keep, _ := vectorstore.NewLexical(vectorstore.LexicalConfig{KeepStopWords: true})
	a, b := "the piano of Lucy", "Lucy piano"
	if cosine(embedOne(t, keep, a), embedOne(t, keep, b)) >= cosine(embedOne(t, plain, a), embedOne(t, plain, b)) {
		t.Error("keeping stop words should make these texts less alike")
	}
}

// paragraphs returns the paragraphs of a corpus with at least minWords
// words, with white space collapsed.
func paragraphs(t testing.TB, name string, minWords int) []string {
	t.Helper()
	var out []string
	for _, p := range regexp.MustCompile(`\r?\n\s*\n`).Split(testcorpus.Must(t, name), -1) {
		if words := strings.Fields(p); len(words) >= minWords {
			out = append(out, strings.Join(words, " "))
		}
	}
	return out
}

// TestLexicalFindsParagraphs is the embedder's job on a real book: a run of
// words taken from the middle of a paragraph finds that paragraph.
func TestLexicalFindsParagraphs(t *testing.T) {
	paras := paragraphs(t, "room_with_a_view.txt", 40)
	l, _ := vectorstore.NewLexical(vectorstore.LexicalConfig{})
	vecs, err := l.Embed(bg, paras)
	if err != nil {
		t.Fatal(err)
	}
	m := newMemory(t, vectorstore.MemoryConfig{})
	for i, v := range vecs {
		if err := m.Upsert(bg, vectorstore.Record{ID: string(rune('a'+i%26)) + strings.Repeat("x", i/26), DocID: "room", Index: i, Vector: v}); err != nil {
			t.Fatal(err)
		}
	}
	found, asked := 0, 0
	for i := 0; i < len(paras); i += 7 {
		words := strings.Fields(paras[i])
		mid := len(words) / 2
		q := embedOne(t, l, strings.Join(words[mid-6:mid+6], " "))
		hits, err := m.Query(bg, q, 3, vectorstore.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		asked++
		for _, h := range hits {
			if h.Index == i {
				found++
				break
			}
		}
	}
	if rate := float64(found) / float64(asked); rate < 0.9 {
		t.Errorf("a 12-word excerpt found its paragraph in the top 3 for %d of %d (%.2f)", found, asked, rate)
	} else {
		t.Logf("found %d of %d paragraphs in the top 3", found, asked)
	}
}
