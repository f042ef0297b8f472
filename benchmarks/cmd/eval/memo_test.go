package main

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// counting embeds a text as {len(text), call number} and records the
// texts it was given.
type counting struct {
	calls int
	texts []string
	err   error
}

func (c *counting) Embed(_ context.Context, texts []string) ([][]float32, error) {
	if c.err != nil {
		return nil, c.err
	}
	c.calls++
	c.texts = append(c.texts, texts...)
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = []float32{float32(len(t)), float32(c.calls)}
	}
	return out, nil
}

func TestMemo(t *testing.T) {
	ctx := context.Background()
	c := &counting{}
	m := newMemo(c)
	first, err := m.Embed(ctx, []string{"a", "bb", "a"})
	if err != nil {
		t.Fatal(err)
	}
	second, err := m.Embed(ctx, []string{"bb", "ccc", "a"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "bb", "ccc"}; !slices.Equal(c.texts, want) {
		t.Errorf("embedded %q, want each text once: %q", c.texts, want)
	}
	want := [][]float32{{1, 1}, {2, 1}, {1, 1}}
	for i := range want {
		if !slices.Equal(first[i], want[i]) {
			t.Errorf("first call: vector %d is %v, want %v", i, first[i], want[i])
		}
	}
	want = [][]float32{{2, 1}, {3, 2}, {1, 1}}
	for i := range want {
		if !slices.Equal(second[i], want[i]) {
			t.Errorf("second call: vector %d is %v, want %v (the remembered one)", i, second[i], want[i])
		}
	}
	if _, err := m.Embed(ctx, []string{"a"}); err != nil {
		t.Errorf("a remembered text: %v", err)
	}
}

func TestMemoError(t *testing.T) {
	boom := errors.New("boom")
	m := newMemo(&counting{err: boom})
	if _, err := m.Embed(context.Background(), []string{"a"}); !errors.Is(err, boom) {
		t.Errorf("error %v, want the embedder's", err)
	}
	if len(m.cache) != 0 {
		t.Errorf("a failed call left %d vectors", len(m.cache))
	}
}
