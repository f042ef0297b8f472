package eval_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/benchmarks/eval"
)

// TestWithSearch evaluates the tiny corpus with an embedder that gives
// every text the same vector, so that the vector search cannot tell the
// units apart: the answers are found by their words ("seals", "valve").
func TestWithSearch(t *testing.T) {
	c := tinyCorpus(t)
	for _, tt := range []struct {
		search, name string
		hitAt1       float64
	}{
		{"vector", "paragraphs", 0}, // every unit ties; the first by ID holds neither answer
		{"keywords", "paragraphs+keywords", 1},
		{"hybrid", "paragraphs+hybrid", 1},
	} {
		t.Run(tt.search, func(t *testing.T) {
			m, err := eval.WithSearch(paragraphs, tt.search)
			require.NoError(t, err)
			assert.Equal(t, tt.name, m.Name)
			same := &keywords{} // no words: one vector for every text
			r, err := newEvaluator(t, eval.Config{Embedder: same, K: 1}).Evaluate(context.Background(), c, m)
			require.NoError(t, err)
			assert.InDelta(t, tt.hitAt1, r.HitAt1, 1e-12)
			assert.Len(t, same.texts, r.Units+len(c.Questions), "each unit and question embedded once")
		})
	}
}

func TestWithSearchUnknown(t *testing.T) {
	_, err := eval.WithSearch(paragraphs, "bm25")
	require.ErrorIs(t, err, eval.ErrConfig)
	assert.Equal(t, []string{"vector", "keywords", "hybrid"}, eval.Searches())
}
