package retrieve_test

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// nearCopies is a folder in which three versions of one travel policy,
// near-copies of each other, crowd out the one document that answers
// the second half of the question (ride-hailing).
var nearCopies = []note{
	{"travel-2023.md", "Travel policy 2023", "# Travel policy\n\nBusiness travel is booked through the travel desk. Taxis on business travel are expensed with a receipt, up to 40 euros a ride.\n"},
	{"travel-2024.md", "Travel policy 2024", "# Travel policy\n\nBusiness travel is booked through the travel desk. Taxis on business travel are expensed with a receipt, up to 45 euros a ride.\n"},
	{"travel-2025.md", "Travel policy 2025", "# Travel policy\n\nBusiness travel is booked through the travel desk. Taxis on business travel are expensed with a receipt, up to 50 euros a ride.\n"},
	{"rides.md", "Ride-hailing", "# Ride-hailing\n\nUber and other ride-hailing apps may be expensed on business travel, at economy class only.\n"},
	{"office.md", "Office", "# Office\n\nThe office opens at eight. Visitors sign in at the front desk.\n"},
}

const uberQuestion = "Can I expense Uber rides or taxis during business travel?"

func TestMMROnNearCopies(t *testing.T) {
	store, emb := folder(t, 60, nearCopies...)
	base := retrieve.Config{Store: store, Embedder: emb, Search: retrieve.Vector, Passages: 3}
	plain, err := newRetriever(t, base).Retrieve(bg, uberQuestion)
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"travel-2023.md", "travel-2024.md", "travel-2025.md"}, passageDocs(plain),
		"without diversity the near-copies fill every place")

	for _, v := range []retrieve.Vectors{retrieve.StoredVectors, retrieve.EmbeddedVectors} {
		t.Run(v.String(), func(t *testing.T) {
			cfg := base
			cfg.Diversity = retrieve.Diversity{Lambda: 0.5, Vectors: v}
			ps, err := newRetriever(t, cfg).Retrieve(bg, uberQuestion)
			require.NoError(t, err)
			docs := passageDocs(ps)
			require.Equal(t, plain[0], ps[0], "the best passage is picked first")
			require.Contains(t, docs, "rides.md", "MMR skips the near-copies: %v", docs)
		})
	}
	t.Run("lambda 1 is relevance alone", func(t *testing.T) {
		cfg := base
		cfg.Diversity.Lambda = 1
		ps, err := newRetriever(t, cfg).Retrieve(bg, uberQuestion)
		require.NoError(t, err)
		require.Equal(t, plain, ps)
	})
}

func TestPerDocumentCap(t *testing.T) {
	store, emb := folder(t, 40, twelveNotes...)
	const q = "Who attends the review meeting and when?"
	plain, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Passages: 4}).Retrieve(bg, q)
	require.NoError(t, err)
	count := map[string]int{}
	for _, p := range plain {
		count[p.DocID]++
	}
	require.Greater(t, count["postmortem.md"], 1, "the uncapped passages: %v", passageDocs(plain))

	for _, cap := range []int{1, 2} {
		ps, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Passages: 4,
			Diversity: retrieve.Diversity{PerDocument: cap}}).Retrieve(bg, q)
		require.NoError(t, err)
		require.Len(t, ps, 4)
		got := map[string]int{}
		for _, p := range ps {
			got[p.DocID]++
			require.LessOrEqual(t, got[p.DocID], cap, "%v", passageDocs(ps))
		}
		require.Equal(t, plain[0], ps[0])
	}
	// With maximal marginal relevance too.
	ps, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Passages: 4,
		Diversity: retrieve.Diversity{PerDocument: 1, Lambda: 0.7}}).Retrieve(bg, q)
	require.NoError(t, err)
	seen := map[string]bool{}
	for _, p := range ps {
		require.False(t, seen[p.DocID], "%v", passageDocs(ps))
		seen[p.DocID] = true
	}
}

func TestMinScore(t *testing.T) {
	store, emb := folder(t, 40, twelveNotes...)
	for _, search := range []retrieve.Search{retrieve.Vector, retrieve.Keywords} {
		t.Run(search.String(), func(t *testing.T) {
			all, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Search: search, Passages: 16}).Retrieve(bg, reviewQuestion)
			require.NoError(t, err)
			cut := all[3].Score // keep the best four (and any tied with the fourth)
			ps, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Search: search, Passages: 16,
				MinScore: float64(cut)}).Retrieve(bg, reviewQuestion)
			require.NoError(t, err)
			want := 0
			for _, p := range all {
				if p.Score >= cut {
					want++
				}
			}
			require.Less(t, want, len(all))
			require.Equal(t, all[:want], ps)
		})
	}
	t.Run("reranked", func(t *testing.T) {
		ps, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Reranker: &wordReranker{},
			MinScore: -1.5}).Retrieve(bg, reviewQuestion)
		require.NoError(t, err)
		require.NotEmpty(t, ps)
		for _, p := range ps {
			require.GreaterOrEqual(t, p.Score, float32(-1), "the reranker's scores are cut: whole numbers, -1 and up")
		}
		require.Less(t, len(ps), retrieve.DefaultPassages)
	})
	t.Run("at zero", func(t *testing.T) {
		// A MinScore of 0 is no cut; MinScoreZero cuts at exactly zero.
		all, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Reranker: &wordReranker{}}).Retrieve(bg, reviewQuestion)
		require.NoError(t, err)
		ps, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Reranker: &wordReranker{},
			MinScoreZero: true}).Retrieve(bg, reviewQuestion)
		require.NoError(t, err)
		want := slices.DeleteFunc(slices.Clone(all), func(p retrieve.Passage) bool { return p.Score < 0 })
		require.Less(t, len(want), len(all), "some passage scores below zero")
		require.Equal(t, want, ps)
	})
}

// noVectors is a store whose Range returns records without vectors.
type noVectors struct{ *memory.Store }

func (s noVectors) Range(ctx context.Context, d string, from, to int) ([]vectorstore.Record, error) {
	recs, err := s.Store.Range(ctx, d, from, to)
	for i := range recs {
		recs[i].Vector = nil
	}
	return recs, err
}

// rangePanics is a store whose Range panics.
type rangePanics struct{ *memory.Store }

func (rangePanics) Range(context.Context, string, int, int) ([]vectorstore.Record, error) {
	panic("range bug")
}

func TestDiversityErrors(t *testing.T) {
	store, emb := folder(t, 60, nearCopies...)
	mmr := retrieve.Diversity{Lambda: 0.5}
	_, err := newRetriever(t, retrieve.Config{Store: noVectors{store}, Embedder: emb, Diversity: mmr}).Retrieve(bg, uberQuestion)
	require.ErrorIs(t, err, retrieve.ErrConfig)
	require.ErrorContains(t, err, "the store returned no vectors for passage")
	_, err = newRetriever(t, retrieve.Config{Store: rangePanics{store}, Embedder: emb, Diversity: mmr}).Retrieve(bg, uberQuestion)
	require.ErrorIs(t, err, retrieve.ErrPanic)

	// The embedder of EmbeddedVectors fails on the passages, not the question.
	calls := 0
	failing := embedFunc(func(texts []string) ([][]float32, error) {
		if calls++; calls > 1 {
			return nil, context.DeadlineExceeded
		}
		return emb.Embed(bg, texts)
	})
	_, err = newRetriever(t, retrieve.Config{Store: store, Embedder: failing,
		Diversity: retrieve.Diversity{Lambda: 0.5, Vectors: retrieve.EmbeddedVectors}}).Retrieve(bg, uberQuestion)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.ErrorContains(t, err, "embedding passages for diversity")

	// Cancelled while reading vectors.
	ctx, cancel := context.WithCancel(bg)
	cancel()
	_, err = newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Diversity: mmr}).Retrieve(ctx, uberQuestion)
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, "StoredVectors", retrieve.StoredVectors.String())
}
