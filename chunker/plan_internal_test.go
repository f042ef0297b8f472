package chunker

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/internal/space"
	"github.com/ragkit/ragkit/internal/testcorpus"
	"github.com/ragkit/ragkit/tokencount"
)

// randomSplit returns a split with m+1 random candidates, as countCands
// leaves them: prefix counts non-decreasing, the first and last at the
// ends of the text, some of them optional if optional is set.
func randomSplit(r *rand.Rand, m, capacity, minTokens int, optional bool) *split {
	s := &split{c: &Chunker{cfg: Config{MaxTokens: capacity, MinTokens: minTokens}}, capacity: capacity}
	ranks := []rank{rPara, rLine, rSentence, rSentence, rClause, rBlock, rH2}
	pos := 0
	for i := 0; i <= m; i++ {
		c := cand{e: pos, s: pos, rank: ranks[r.IntN(len(ranks))]}
		switch {
		case i == 0 || i == m:
			c.rank = rStart
		case optional && r.IntN(5) == 0:
			c.rank, c.opt = rClause, true
		}
		s.cands = append(s.cands, c)
		// Mostly small units, now and then one near or over capacity.
		if r.IntN(12) == 0 {
			pos += capacity/2 + r.IntN(capacity)
		} else {
			pos += 1 + r.IntN(capacity/3)
		}
	}
	return s
}

// bruteForce returns the least total cost of a plan with exactly K chunks
// over every candidate, by the plain O(K m²) dynamic program; with
// feasible set, over the plans that keep capacity and the floor only.
func bruteForce(s *split, cf *costFunc, K int, feasible bool) float64 {
	m := len(s.cands) - 1
	prev := make([]float64, m+1)
	for j := range prev {
		prev[j] = math.Inf(1)
	}
	prev[0] = 0
	for k := 1; k <= K; k++ {
		cur := make([]float64, m+1)
		for j := range cur {
			cur[j] = math.Inf(1)
			for i := 0; i < j; i++ {
				size := s.size(i, j)
				if feasible && ((size > s.capacity && j > i+1) || size < cf.min) {
					continue
				}
				if v := prev[i] + cf.cost(i, j); v < cur[j] {
					cur[j] = v
				}
			}
		}
		prev = cur
	}
	return prev[m]
}

func planCost(cf *costFunc, cuts []int) float64 {
	total := 0.0
	for k := 1; k < len(cuts); k++ {
		total += cf.cost(cuts[k-1], cuts[k])
	}
	return total
}

// TestBalancedIsOptimal checks the divide-and-conquer planner against a
// brute-force dynamic program on small random inputs: with no optional
// candidates its bands hold every plan of K chunks, so it must find the
// same least cost whenever some plan keeps the limits; with optional candidates it may miss a plan that uses
// one far from every band, but never does better than the optimum.
func TestBalancedIsOptimal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	feasible := 0
	for iter := range 3000 {
		optional := iter%2 == 1
		capacity := 8 + r.IntN(60)
		minTokens := 0
		if r.IntN(4) == 0 {
			minTokens = r.IntN(capacity / 2)
		}
		s := randomSplit(r, 2+r.IntN(40), capacity, minTokens, optional)
		var p planner
		cuts := p.balanced(s)
		K := len(cuts) - 1
		m := len(s.cands) - 1
		require.Equal(t, 0, cuts[0])
		require.Equal(t, m, cuts[K])
		cf := costFunc{s: s, t: float64(s.size(0, m)) / float64(K), min: s.minTokens()}
		got, best := planCost(&cf, cuts), bruteForce(s, &cf, K, false)
		if K <= 1 {
			continue
		}
		require.GreaterOrEqual(t, got, best-1e-9, "iteration %d", iter)
		if fbest := bruteForce(s, &cf, K, true); !optional && !math.IsInf(fbest, 1) {
			feasible++
			require.InDelta(t, fbest, got, 1e-9*max(1, fbest), "iteration %d: cuts %v", iter, cuts)
		}
	}
	require.Greater(t, feasible, 1000, "too few comparable cases")
}

// TestHugeConfigurationsPlan plans texts with configurations at the edges
// of int. Split counts such a text whole and returns it as one chunk
// before any planning (TestHugeConfigurations), so this calls run, which
// then plans it at MaxTokens-OverlapTokens: the planner's arithmetic
// (capacity, margin, stretch reach, floor) must survive that without
// overflowing, and its chunks still span the text.
func TestHugeConfigurationsPlan(t *testing.T) {
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(t, err)
	text := testcorpus.Must(t, "room_with_a_view.txt")[:20000]
	for _, cfg := range []Config{
		{Tokenizer: tok, MaxTokens: math.MaxInt, OverlapTokens: math.MaxInt - 1},
		{Tokenizer: tok, MaxTokens: math.MaxInt},
		{Tokenizer: tok, MaxTokens: math.MaxInt, MinTokens: math.MaxInt / 4},
		{Tokenizer: tok, MaxTokens: math.MaxInt, MinTokens: math.MaxInt / 2},
		{Tokenizer: tok, MaxTokens: math.MaxInt / 2, OverlapTokens: math.MaxInt / 4, Format: document.Markdown},
		{Tokenizer: tok, MaxTokens: math.MaxInt, StretchChunks: math.MaxInt},
		{Tokenizer: tok, MaxTokens: math.MaxInt, StretchChunks: 1},
	} {
		c, err := New(cfg)
		require.NoError(t, err)
		first, last := space.Trim(text, 0, len(text))
		s := newSplit(c, text, first, last)
		chunks, err := s.run()
		s.release()
		require.NoError(t, err, "%+v", cfg)
		require.NotEmpty(t, chunks, "%+v", cfg)
		require.Equal(t, first, chunks[0].Start, "%+v", cfg)
		require.Equal(t, last, chunks[len(chunks)-1].End, "%+v", cfg)
	}
}
