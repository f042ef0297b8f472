package vectorstore_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/stretchr/testify/require"
)

// ranked returns hits with the given IDs and scores, in that order.
func ranked(idScores ...any) []vectorstore.Hit {
	var out []vectorstore.Hit
	for i := 0; i < len(idScores); i += 2 {
		out = append(out, vectorstore.Hit{
			Record: vectorstore.Record{ID: idScores[i].(string), Text: fmt.Sprint("list text of ", idScores[i])},
			Score:  float32(idScores[i+1].(float64)),
		})
	}
	return out
}

type fusedHit struct {
	id    string
	score float64
}

func TestFuse(t *testing.T) {
	rrf := func(ranks ...float64) float64 { // the fused score of ranks in lists of weight 1, K = 60
		var s float64
		for _, r := range ranks {
			s += 1 / (60 + r)
		}
		return s
	}
	for _, tt := range []struct {
		name  string
		cfg   vectorstore.FusionConfig
		lists [][]vectorstore.Hit
		want  []fusedHit
	}{
		{
			name:  "found by both beats first in one",
			lists: [][]vectorstore.Hit{ranked("a", 0.9, "b", 0.8, "c", 0.7), ranked("d", 12.0, "c", 8.0, "b", 1.0)},
			want:  []fusedHit{{"b", rrf(2, 3)}, {"c", rrf(3, 2)}, {"a", rrf(1)}, {"d", rrf(1)}},
		},
		{
			name:  "different lengths",
			lists: [][]vectorstore.Hit{ranked("a", 0.9), ranked("b", 5.0, "c", 4.0, "d", 3.0, "a", 2.0)},
			want:  []fusedHit{{"a", rrf(1, 4)}, {"b", rrf(1)}, {"c", rrf(2)}, {"d", rrf(3)}},
		},
		{
			name:  "ties in a list share a rank",
			lists: [][]vectorstore.Hit{ranked("a", 0.9, "b", 0.5, "c", 0.5, "d", 0.1)},
			want:  []fusedHit{{"a", rrf(1)}, {"b", rrf(2)}, {"c", rrf(2)}, {"d", rrf(4)}},
		},
		{
			name:  "duplicates in a list are ignored and take no rank",
			lists: [][]vectorstore.Hit{ranked("a", 0.9, "a", 0.8, "b", 0.8, "a", 0.1, "c", 0.05)},
			want:  []fusedHit{{"a", rrf(1)}, {"b", rrf(2)}, {"c", rrf(3)}},
		},
		{
			name:  "ties in fused score by ID",
			lists: [][]vectorstore.Hit{ranked("z", 1.0), ranked("y", 1.0), nil, {}},
			want:  []fusedHit{{"y", rrf(1)}, {"z", rrf(1)}},
		},
		{
			name: "weights and K",
			cfg:  vectorstore.FusionConfig{K: 1, Weights: []float64{2, 0.5}},
			lists: [][]vectorstore.Hit{
				ranked("a", 0.9, "b", 0.8), ranked("b", 3.0, "a", 2.0, "c", 1.0),
			},
			want: []fusedHit{{"a", 2.0/2 + 0.5/3}, {"b", 2.0/3 + 0.5/2}, {"c", 0.5 / 4}},
		},
		{
			name:  "a zero weight keeps the hits, scored 0",
			cfg:   vectorstore.FusionConfig{Weights: []float64{1, 0}},
			lists: [][]vectorstore.Hit{ranked("a", 0.9), ranked("b", 3.0)},
			want:  []fusedHit{{"a", rrf(1)}, {"b", 0}},
		},
		{name: "no lists"},
		{name: "empty lists", lists: [][]vectorstore.Hit{nil, {}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := vectorstore.Fuse(tt.cfg, tt.lists...)
			require.NoError(t, err)
			require.Len(t, got, len(tt.want))
			for i, w := range tt.want {
				require.Equal(t, w.id, got[i].ID, "position %d", i)
				require.InDelta(t, w.score, got[i].Score, 1e-7, "score of %s", w.id)
				require.Equal(t, "list text of "+w.id, got[i].Text, "the record comes along")
			}
		})
	}
}

// TestFuseKeepsFirstListsRecord: a hit in several lists comes back as the
// first list has it (a vector search may return its vector, a keyword
// search not).
func TestFuseKeepsFirstListsRecord(t *testing.T) {
	a := vectorstore.Hit{Record: vectorstore.Record{ID: "x", Text: "first", Vector: []float32{1}}, Score: 0.5}
	b := vectorstore.Hit{Record: vectorstore.Record{ID: "x", Text: "second"}, Score: 9}
	got, err := vectorstore.Fuse(vectorstore.FusionConfig{}, []vectorstore.Hit{a}, []vectorstore.Hit{b})
	require.NoError(t, err)
	require.Equal(t, a.Record, got[0].Record)
	require.InDelta(t, 2.0/61, got[0].Score, 1e-7)
}

func TestFuseErrors(t *testing.T) {
	two := [][]vectorstore.Hit{ranked("a", 1.0), ranked("b", 1.0)}
	for _, tt := range []struct {
		name  string
		cfg   vectorstore.FusionConfig
		field string
	}{
		{"negative K", vectorstore.FusionConfig{K: -1}, "K"},
		{"too few weights", vectorstore.FusionConfig{Weights: []float64{1}}, "len(Weights)"},
		{"too many weights", vectorstore.FusionConfig{Weights: []float64{1, 1, 1}}, "len(Weights)"},
		{"negative weight", vectorstore.FusionConfig{Weights: []float64{1, -1}}, "Weights[1]"},
		{"NaN weight", vectorstore.FusionConfig{Weights: []float64{math.NaN(), 1}}, "Weights[0]"},
		{"infinite weight", vectorstore.FusionConfig{Weights: []float64{1, math.Inf(1)}}, "Weights[1]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := vectorstore.Fuse(tt.cfg, two...)
			require.Nil(t, got)
			require.ErrorIs(t, err, vectorstore.ErrConfig)
			require.ErrorContains(t, err, "vectorstore: invalid configuration: "+tt.field+" is ")
		})
	}
}

// vectorOnly hides every method of a Memory but those of VectorStore: a
// store without keyword search.
type vectorOnly struct{ m *vectorstore.Memory }

func (s vectorOnly) Upsert(ctx context.Context, r ...vectorstore.Record) error {
	return s.m.Upsert(ctx, r...)
}
func (s vectorOnly) Query(ctx context.Context, v []float32, k int, f vectorstore.Filter) ([]vectorstore.Hit, error) {
	return s.m.Query(ctx, v, k, f)
}
func (s vectorOnly) Range(ctx context.Context, d string, from, to int) ([]vectorstore.Record, error) {
	return s.m.Range(ctx, d, from, to)
}
func (s vectorOnly) DeleteDocument(ctx context.Context, d string) error {
	return s.m.DeleteDocument(ctx, d)
}

// lexicalStore returns a store of the v2 records' texts embedded by l.
func lexicalStore(t *testing.T, l *vectorstore.Lexical) *vectorstore.Memory {
	t.Helper()
	recs := v2Records()
	texts := make([]string, len(recs))
	for i, r := range recs {
		texts[i] = r.Text + " " + r.ID // the empty text needs a word to embed
	}
	vecs, err := l.Embed(bg, texts)
	require.NoError(t, err)
	for i := range recs {
		recs[i].Vector = vecs[i]
	}
	return newMemory(t, vectorstore.MemoryConfig{}, recs...)
}

func TestHybrid(t *testing.T) {
	l, err := vectorstore.NewLexical(vectorstore.LexicalConfig{})
	require.NoError(t, err)
	m := lexicalStore(t, l)
	query := func(t *testing.T, h *vectorstore.Hybrid, text string, k int, f vectorstore.Filter) []vectorstore.Hit {
		t.Helper()
		hits, err := h.Query(bg, text, k, f)
		require.NoError(t, err)
		for _, hit := range hits {
			require.Nil(t, hit.Vector)
		}
		return hits
	}
	t.Run("fuses both searches", func(t *testing.T) {
		h, err := vectorstore.NewHybrid(vectorstore.HybridConfig{Store: m, Embedder: l})
		require.NoError(t, err)
		require.Equal(t, vectorstore.KeywordQuerier(m), h.Config().Keywords)
		require.Equal(t, vectorstore.DefaultCandidates, h.Config().Candidates)
		text := "what did the environmental review of 24/01234 find"
		got := query(t, h, text, 3, vectorstore.Filter{})
		vec := embedOne(t, l, text)
		vhits, err := m.Query(bg, vec, 50, vectorstore.Filter{})
		require.NoError(t, err)
		khits, err := m.QueryKeywords(bg, text, 50, vectorstore.Filter{})
		require.NoError(t, err)
		want, err := vectorstore.Fuse(vectorstore.FusionConfig{}, vhits, khits)
		require.NoError(t, err)
		require.Equal(t, want[:3], got)
		require.Equal(t, "plan-1", got[0].ID)
	})
	t.Run("filter", func(t *testing.T) {
		h, err := vectorstore.NewHybrid(vectorstore.HybridConfig{Store: m, Embedder: l})
		require.NoError(t, err)
		got := query(t, h, "application 24/01234 café", 10, vectorstore.Filter{Metadata: map[string]string{"lang": "fr"}})
		require.Equal(t, []string{"travel-0"}, hitIDs(got))
	})
	t.Run("only stop words: the vector search alone", func(t *testing.T) {
		h, err := vectorstore.NewHybrid(vectorstore.HybridConfig{Store: m, Embedder: l})
		require.NoError(t, err)
		text := "the of and to"
		got := query(t, h, text, 3, vectorstore.Filter{})
		vhits, err := m.Query(bg, embedOne(t, l, text), 3, vectorstore.Filter{})
		require.NoError(t, err)
		require.Equal(t, hitIDs(vhits), hitIDs(got))
		require.InDelta(t, 1.0/61, got[0].Score, 1e-7)
	})
	t.Run("store without keyword search", func(t *testing.T) {
		h, err := vectorstore.NewHybrid(vectorstore.HybridConfig{Store: vectorOnly{m}, Embedder: l, Fusion: vectorstore.FusionConfig{Weights: []float64{2, 1}}})
		require.NoError(t, err)
		require.Nil(t, h.Config().Keywords)
		text := "ERR_CONN_RESET"
		got := query(t, h, text, 7, vectorstore.Filter{})
		vhits, err := m.Query(bg, embedOne(t, l, text), 7, vectorstore.Filter{})
		require.NoError(t, err)
		require.Equal(t, hitIDs(vhits), hitIDs(got), "the vector search's order")
		require.InDelta(t, 2.0/61, got[0].Score, 1e-7, "scored by rank, weighted")
	})
	t.Run("keyword search of another store", func(t *testing.T) {
		other := newMemory(t, vectorstore.MemoryConfig{}, vectorstore.Record{ID: "elsewhere", DocID: "x", Text: "ERR_CONN_RESET", Vector: []float32{1}})
		h, err := vectorstore.NewHybrid(vectorstore.HybridConfig{Store: vectorOnly{m}, Embedder: l, Keywords: other})
		require.NoError(t, err)
		got := query(t, h, "ERR_CONN_RESET", 10, vectorstore.Filter{})
		require.Contains(t, hitIDs(got), "elsewhere")
		require.Len(t, got, m.Len()+1)
	})
	t.Run("errors", func(t *testing.T) {
		h, err := vectorstore.NewHybrid(vectorstore.HybridConfig{Store: m, Embedder: l})
		require.NoError(t, err)
		for _, k := range []int{0, -3} {
			_, err := h.Query(bg, "café", k, vectorstore.Filter{})
			require.ErrorIs(t, err, vectorstore.ErrInvalidArgument)
		}
		for _, text := range []string{"", "  ", "\xff"} {
			_, err := h.Query(bg, text, 3, vectorstore.Filter{})
			require.ErrorIs(t, err, vectorstore.ErrInvalidArgument, "text %q", text)
		}
		ctx, cancel := context.WithCancel(bg)
		cancel()
		_, err = h.Query(ctx, "café", 3, vectorstore.Filter{})
		require.ErrorIs(t, err, context.Canceled)
		failing := errors.New("embedder down")
		broken, err := vectorstore.NewHybrid(vectorstore.HybridConfig{Store: vectorOnly{m}, Embedder: embedFunc(func([]string) ([][]float32, error) { return nil, failing }), Keywords: m})
		require.NoError(t, err)
		_, err = broken.Query(bg, "café", 3, vectorstore.Filter{})
		require.ErrorIs(t, err, failing)
		wrong, err := vectorstore.NewHybrid(vectorstore.HybridConfig{Store: m, Embedder: embedFunc(func([]string) ([][]float32, error) { return nil, nil })})
		require.NoError(t, err)
		_, err = wrong.Query(bg, "café", 3, vectorstore.Filter{})
		require.ErrorContains(t, err, "0 vectors")
	})
	t.Run("config errors", func(t *testing.T) {
		for _, tt := range []struct {
			cfg   vectorstore.HybridConfig
			field string
		}{
			{vectorstore.HybridConfig{Embedder: l}, "Store"},
			{vectorstore.HybridConfig{Store: m}, "Embedder"},
			{vectorstore.HybridConfig{Store: m, Embedder: l, Candidates: -1}, "Candidates"},
			{vectorstore.HybridConfig{Store: m, Embedder: l, Fusion: vectorstore.FusionConfig{Weights: []float64{1}}}, "len(Weights)"},
			{vectorstore.HybridConfig{Store: m, Embedder: l, Fusion: vectorstore.FusionConfig{K: -5}}, "K"},
		} {
			_, err := vectorstore.NewHybrid(tt.cfg)
			require.ErrorIs(t, err, vectorstore.ErrConfig)
			require.ErrorContains(t, err, "vectorstore: invalid configuration: "+tt.field+" is ")
		}
	})
}

type embedFunc func([]string) ([][]float32, error)

func (f embedFunc) Embed(_ context.Context, texts []string) ([][]float32, error) { return f(texts) }

// TestFuseRandomLists checks Fuse against the definition on random lists
// with ties, duplicates and different lengths.
func TestFuseRandomLists(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for range 200 {
		lists := make([][]vectorstore.Hit, r.IntN(4))
		weights := make([]float64, len(lists))
		for i := range lists {
			weights[i] = r.Float64() * 3
			score := 10.0
			for range r.IntN(15) {
				if r.IntN(3) > 0 {
					score -= float64(r.IntN(3)) // 0: a tie
				}
				lists[i] = append(lists[i], ranked(fmt.Sprintf("h%d", r.IntN(12)), score)...)
			}
		}
		k := r.IntN(100)
		got, err := vectorstore.Fuse(vectorstore.FusionConfig{K: k, Weights: weights}, lists...)
		require.NoError(t, err)
		want := map[string]float64{}
		for i, l := range lists {
			seen := map[string]bool{}
			var kept []vectorstore.Hit
			for _, h := range l {
				if !seen[h.ID] {
					seen[h.ID] = true
					kept = append(kept, h)
				}
			}
			for j, h := range kept {
				rank := j + 1
				for rank > 1 && kept[rank-2].Score == h.Score {
					rank--
				}
				kk := float64(k)
				if k == 0 {
					kk = 60
				}
				want[h.ID] += weights[i] / (kk + float64(rank))
			}
		}
		require.Len(t, got, len(want))
		for i, h := range got {
			require.InDelta(t, want[h.ID], h.Score, 1e-6)
			if i > 0 {
				require.True(t, got[i-1].Score > h.Score || got[i-1].Score == h.Score && got[i-1].ID < h.ID, "order")
			}
		}
	}
}

// wrapped is a store that embeds a Memory and is not comparable (it
// holds a map), as a caller's decorator may be; overriding QueryKeywords
// shows whether Hybrid calls the wrapper or the Memory inside it.
type wrapped struct {
	*vectorstore.Memory
	calls map[string]int
}

func (w wrapped) QueryKeywords(ctx context.Context, q string, k int, f vectorstore.Filter) ([]vectorstore.Hit, error) {
	w.calls["QueryKeywords"]++
	return w.Memory.QueryKeywords(ctx, q, k, f)
}

// TestHybridWrappedMemory: a store that embeds a Memory is searched
// through its own methods, and comparing it with its keyword search
// (the same uncomparable value) does not panic.
func TestHybridWrappedMemory(t *testing.T) {
	l, err := vectorstore.NewLexical(vectorstore.LexicalConfig{})
	require.NoError(t, err)
	w := wrapped{Memory: lexicalStore(t, l), calls: map[string]int{}}
	h, err := vectorstore.NewHybrid(vectorstore.HybridConfig{Store: w, Embedder: l})
	require.NoError(t, err)
	hits, err := h.Query(bg, "application 24/01234", 3, vectorstore.Filter{})
	require.NoError(t, err)
	require.NotEmpty(t, hits)
	require.Equal(t, 1, w.calls["QueryKeywords"])
}
