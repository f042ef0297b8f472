package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/ragkit/ragkit/vectorstore"
)

// memo is an Embedder that remembers the vector of every text it has
// embedded, so that the configurations of one run that embed the same
// units (every fusion setting of -retriever over the same chunks, windows
// and segments over the same sentences) pay for them once: with a model
// in process, embedding is nearly all of a run's time. The embedders the
// command uses are deterministic, so the figures do not change.
type memo struct {
	emb   vectorstore.Embedder
	mu    sync.Mutex
	cache map[string][]float32
}

func newMemo(emb vectorstore.Embedder) *memo {
	return &memo{emb: emb, cache: make(map[string][]float32)}
}

// Embed implements vectorstore.Embedder: the texts not seen before are
// embedded in one call to the wrapped Embedder (each once), in order.
func (m *memo) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	m.mu.Lock()
	var todo []string
	seen := make(map[string]bool)
	for _, t := range texts {
		if _, ok := m.cache[t]; !ok && !seen[t] {
			seen[t] = true
			todo = append(todo, t)
		}
	}
	m.mu.Unlock()
	if len(todo) > 0 {
		vecs, err := m.emb.Embed(ctx, todo)
		if err != nil {
			return nil, err
		}
		if len(vecs) != len(todo) {
			return nil, fmt.Errorf("embedder returned %d vectors for %d texts", len(vecs), len(todo))
		}
		m.mu.Lock()
		for i, t := range todo {
			m.cache[t] = vecs[i]
		}
		m.mu.Unlock()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = m.cache[t]
	}
	return out, nil
}
