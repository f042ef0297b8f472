package retrieve_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
)

// separate searches: a store with keyword search but not both in one call
// (no HybridQuerier), so that the Retriever runs and times each.
type separate struct {
	vectorOnly
}

func (s separate) QueryKeywords(ctx context.Context, q string, k int, f vectorstore.Filter) ([]vectorstore.Hit, error) {
	return s.m.QueryKeywords(ctx, q, k, f)
}

// slowEmbedder takes at least delay per call, so that the embedding
// stage has a known least duration.
type slowEmbedder struct {
	vectorstore.Embedder
	delay time.Duration
}

func (e slowEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	time.Sleep(e.delay)
	return e.Embedder.Embed(ctx, texts)
}

type slowReranker struct{ delay time.Duration }

func (r slowReranker) Rerank(_ context.Context, _ string, texts []string) ([]float64, error) {
	time.Sleep(r.delay)
	scores := make([]float64, len(texts))
	for i := range scores {
		scores[i] = float64(len(texts) - i)
	}
	return scores, nil
}

func TestRetrieveQueryStats(t *testing.T) {
	const delay = 3 * time.Millisecond
	store, emb := folder(t, 40, twelveNotes...)
	for _, tt := range []struct {
		name          string
		store         vectorstore.VectorStore
		keywordsTimed bool // a search of its own, timed apart
	}{
		{"hybrid querier", store, false},
		{"separate searches", separate{vectorOnly{store}}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRetriever(t, retrieve.Config{Store: tt.store, Embedder: slowEmbedder{emb, delay}, Reranker: slowReranker{delay}})
			res, err := r.RetrieveQuery(bg, retrieve.Query{Question: reviewQuestion})
			require.NoError(t, err)
			want, err := r.Retrieve(bg, reviewQuestion)
			require.NoError(t, err)
			assert.Equal(t, want, res.Passages, "the same passages as Retrieve")
			assert.Equal(t, []string{reviewQuestion}, res.Questions)
			st := res.Stats
			assert.Zero(t, st.Rewrite, "no Rewriter")
			assert.GreaterOrEqual(t, st.Embed, delay)
			assert.GreaterOrEqual(t, st.Rerank, delay)
			assert.Positive(t, st.VectorSearch)
			assert.Positive(t, st.Fusion)
			assert.Positive(t, st.Widen)
			assert.Positive(t, st.Diversity)
			if tt.keywordsTimed {
				assert.Positive(t, st.KeywordSearch)
			} else {
				assert.Zero(t, st.KeywordSearch, "one call of both searches is VectorSearch")
			}
			sequential := st.Embed + max(st.VectorSearch, st.KeywordSearch) + st.Fusion + st.Widen + st.Rerank + st.Diversity
			assert.GreaterOrEqual(t, st.Total, sequential)
		})
	}
}

func TestRetrieveQueryKeywordsStats(t *testing.T) {
	store, _ := folder(t, 40, twelveNotes...)
	r := newRetriever(t, retrieve.Config{Store: store, Search: retrieve.Keywords})
	res, err := r.RetrieveQuery(bg, retrieve.Query{Question: reviewQuestion})
	require.NoError(t, err)
	require.NotEmpty(t, res.Passages)
	assert.Zero(t, res.Stats.Embed)
	assert.Zero(t, res.Stats.VectorSearch)
	assert.Positive(t, res.Stats.KeywordSearch)
	assert.Zero(t, res.Stats.Rerank)
}

// TestRetrieveQueryAllocs: the timings allocate nothing; RetrieveQuery
// allocates what Retrieve does.
func TestRetrieveQueryAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts mean nothing under -race")
	}
	store, emb := folder(t, 40, twelveNotes...)
	r := newRetriever(t, retrieve.Config{Store: store, Embedder: emb})
	off := testing.AllocsPerRun(20, func() { _, _ = r.Retrieve(bg, reviewQuestion) })
	on := testing.AllocsPerRun(20, func() { _, _ = r.RetrieveQuery(bg, retrieve.Query{Question: reviewQuestion}) })
	assert.Equal(t, off, on)
}
