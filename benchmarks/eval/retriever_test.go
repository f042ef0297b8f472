package eval_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/benchmarks/eval"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
)

// TestRetrieverMethods runs chunks, windows and segments through a
// Retriever on a few questions of the built-in corpora: names, and
// answer-in-context never above hit@k (it keeps a prefix of the k spans)
// nor below it when every span fits in the budget.
func TestRetrieverMethods(t *testing.T) {
	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	require.NoError(t, err)
	const k, size = 3, 64
	settings := []eval.RetrieverSetting{
		{Search: retrieve.Keywords},
		{Search: retrieve.Hybrid, Fusion: retrieve.FusionConfig{K: 60, Weights: []float64{1, 1}}, Depth: 20},
	}
	methods := eval.RetrieverMethods(tok, []int{size}, k, 0, settings)
	var names []string
	for _, m := range methods {
		names = append(names, m.Name)
	}
	assert.Equal(t, []string{
		"retriever-chunks-64+keywords", "retriever-windows-64+keywords", "retriever-segments-64+keywords",
		"retriever-chunks-64+hybrid(w1:1,k60,d20)", "retriever-windows-64+hybrid(w1:1,k60,d20)", "retriever-segments-64+hybrid(w1:1,k60,d20)",
	}, names)
	c, err := eval.Load("reports")
	require.NoError(t, err)
	c = c.Subset(12)
	ev := newEvaluator(t, eval.Config{Embedder: &vectorstore.Lexical{}, K: k})
	for _, m := range methods {
		r, err := ev.Evaluate(context.Background(), c, m)
		require.NoError(t, err, m.Name)
		assert.Equal(t, k*size, r.ContextTokens)
		assert.Positive(t, r.HitAtK, m.Name)
		assert.LessOrEqual(t, r.InContext, r.HitAtK, m.Name)
	}

	// A budget of one token keeps no span: nothing is in context.
	tiny := eval.RetrieverMethods(tok, []int{size}, k, 1, settings[:1])[0]
	r, err := ev.Evaluate(context.Background(), c, tiny)
	require.NoError(t, err)
	assert.Positive(t, r.HitAtK)
	assert.Zero(t, r.InContext)
	// Chunks of 64 tokens always fit k of them in k·64: in context is hit@k.
	r, err = ev.Evaluate(context.Background(), c, methods[0])
	require.NoError(t, err)
	assert.Equal(t, r.HitAtK, r.InContext)
}
