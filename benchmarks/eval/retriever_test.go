package eval_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/benchmarks/eval"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore/lexical"
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
	ev := newEvaluator(t, eval.Config{Embedder: &lexical.Embedder{}, K: k})
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

// TestBM25Reranker: the stand-in scores by the query's words, rarer words
// more, one score per text, and a text without them 0.
func TestBM25Reranker(t *testing.T) {
	var rr retrieve.Reranker = eval.BM25Reranker{}
	got, err := rr.Rerank(context.Background(), "Uber rides on business travel?",
		[]string{"Taxis on business travel.", "Uber rides on business travel.", "The office opens at eight."})
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Greater(t, got[1], got[0])
	assert.Greater(t, got[0], 0.0)
	assert.Zero(t, got[2])
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = rr.Rerank(ctx, "q", []string{"q"})
	require.ErrorIs(t, err, context.Canceled)
}

// TestNearDuplicateCorpus: the neardup corpus loads (every answer once),
// and MMR finds more of its answers than the plain ranking.
func TestNearDuplicateCorpus(t *testing.T) {
	c, err := eval.Load("testdata/neardup")
	require.NoError(t, err)
	require.Len(t, c.Documents, 35)
	require.Len(t, c.Questions, 15)
	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	require.NoError(t, err)
	ev, err := eval.New(eval.Config{Embedder: &lexical.Embedder{}, Tokenizer: tok, K: 5})
	require.NoError(t, err)
	methods := eval.RetrieverMethods(tok, []int{64}, 5, 0, []eval.RetrieverSetting{
		{Search: retrieve.Vector}, {Search: retrieve.Vector, Diversity: retrieve.Diversity{Lambda: 0.5}}})
	res := ev.Run(context.Background(), []*eval.Corpus{c}, methods[:1:1])
	res = append(res, ev.Run(context.Background(), []*eval.Corpus{c}, methods[3:4])...)
	require.NoError(t, res[0].Err)
	require.NoError(t, res[1].Err)
	assert.Equal(t, "retriever-chunks-64+vector(mmr0.5)", res[1].Method)
	assert.Greater(t, res[1].HitAtK, res[0].HitAtK)
}
