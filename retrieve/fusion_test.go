package retrieve_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
)

// ranked returns hits with the given IDs and scores, in that order.
func ranked(idScores ...any) []vectorstore.Hit {
	var out []vectorstore.Hit
	for i := 0; i < len(idScores); i += 2 {
		// An ID "doc/index" places the hit; another is a document of its own.
		id := idScores[i].(string)
		doc, index, _ := strings.Cut(id, "/")
		idx, _ := strconv.Atoi(index)
		out = append(out, vectorstore.Hit{
			Record: vectorstore.Record{ID: id, DocID: doc, Index: idx, Text: fmt.Sprint("list text of ", id)},
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
		cfg   retrieve.FusionConfig
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
			name:  "ties in fused score in document order, not by ID",
			lists: [][]vectorstore.Hit{ranked("z", 1.0, "b/10", 0.5), ranked("y", 1.0, "b/9", 0.5, "a/0", 0.4), nil, {}},
			want:  []fusedHit{{"y", rrf(1)}, {"z", rrf(1)}, {"b/9", rrf(2)}, {"b/10", rrf(2)}, {"a/0", rrf(3)}},
		},
		{
			name: "weights and K",
			cfg:  retrieve.FusionConfig{K: 1, Weights: []float64{2, 0.5}},
			lists: [][]vectorstore.Hit{
				ranked("a", 0.9, "b", 0.8), ranked("b", 3.0, "a", 2.0, "c", 1.0),
			},
			want: []fusedHit{{"a", 2.0/2 + 0.5/3}, {"b", 2.0/3 + 0.5/2}, {"c", 0.5 / 4}},
		},
		{
			name:  "a zero weight keeps the hits, scored 0",
			cfg:   retrieve.FusionConfig{Weights: []float64{1, 0}},
			lists: [][]vectorstore.Hit{ranked("a", 0.9), ranked("b", 3.0)},
			want:  []fusedHit{{"a", rrf(1)}, {"b", 0}},
		},
		{
			name:  "relative scores",
			cfg:   retrieve.FusionConfig{Method: retrieve.Relative, Weights: []float64{1, 2}},
			lists: [][]vectorstore.Hit{ranked("a", 0.9, "b", 0.8, "c", 0.5), ranked("c", 12.0, "d", 3.0, "b", 2.0)},
			want:  []fusedHit{{"c", 0 + 2*1}, {"a", 1}, {"b", 0.75 + 0}, {"d", 2 * 0.1}},
		},
		{
			name:  "relative scores of a list that ties",
			cfg:   retrieve.FusionConfig{Method: retrieve.Relative},
			lists: [][]vectorstore.Hit{ranked("b/1", 0.5, "a/2", 0.5), ranked("c", 4.0)},
			want:  []fusedHit{{"a/2", 1}, {"b/1", 1}, {"c", 1}},
		},
		{name: "no lists"},
		{name: "empty lists", lists: [][]vectorstore.Hit{nil, {}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := retrieve.Fuse(tt.cfg, tt.lists...)
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
	got, err := retrieve.Fuse(retrieve.FusionConfig{}, []vectorstore.Hit{a}, []vectorstore.Hit{b})
	require.NoError(t, err)
	require.Equal(t, a.Record, got[0].Record)
	require.InDelta(t, 2.0/61, got[0].Score, 1e-7)
}

func TestFusionMethodString(t *testing.T) {
	require.Equal(t, "Reciprocal", retrieve.Reciprocal.String())
	require.Equal(t, "Relative", retrieve.Relative.String())
	require.Equal(t, "FusionMethod(5)", retrieve.FusionMethod(5).String())
}

func TestFuseErrors(t *testing.T) {
	two := [][]vectorstore.Hit{ranked("a", 1.0), ranked("b", 1.0)}
	for _, tt := range []struct {
		name  string
		cfg   retrieve.FusionConfig
		field string
	}{
		{"negative K", retrieve.FusionConfig{K: -1}, "K"},
		{"too few weights", retrieve.FusionConfig{Weights: []float64{1}}, "Weights"},
		{"too many weights", retrieve.FusionConfig{Weights: []float64{1, 1, 1}}, "Weights"},
		{"negative weight", retrieve.FusionConfig{Weights: []float64{1, -1}}, "Weights[1]"},
		{"NaN weight", retrieve.FusionConfig{Weights: []float64{math.NaN(), 1}}, "Weights[0]"},
		{"infinite weight", retrieve.FusionConfig{Weights: []float64{1, math.Inf(1)}}, "Weights[1]"},
		{"unknown method", retrieve.FusionConfig{Method: 2}, "Method"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := retrieve.Fuse(tt.cfg, two...)
			require.Nil(t, got)
			require.ErrorIs(t, err, retrieve.ErrConfig)
			require.ErrorContains(t, err, "retrieve: invalid configuration: Fusion."+tt.field+" ")
		})
	}
}

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
		got, err := retrieve.Fuse(retrieve.FusionConfig{K: k, Weights: weights}, lists...)
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
				p := got[i-1]
				require.True(t, p.Score > h.Score || p.Score == h.Score && (p.DocID < h.DocID || p.DocID == h.DocID && p.Index <= h.Index), "order")
			}
		}
	}
}
