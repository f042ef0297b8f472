package chunker

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAnchorsMatchDefinition checks appendAnchors, which hashes only the
// candidates whose hash can decide an anchor, against the definition
// computed by brute force with every key hashed: a strong candidate whose
// key is greater than that of every other strong candidate within reach,
// at least reach from either end. Repetitive texts make hashes tie.
func TestAnchorsMatchDefinition(t *testing.T) {
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 7))
		capacity := 20 + r.IntN(60)
		s := randomSplit(r, 20+r.IntN(400), capacity, 0, r.IntN(2) == 0)
		s.c.cfg.StretchChunks = 1 + r.IntN(3)
		unit := []string{"ab", "a b. ", "The cat sat. ", "x"}[r.IntN(4)]
		if r.IntN(2) == 0 {
			unit = randomText(r, 200)
		}
		m := len(s.cands) - 1
		s.text = strings.Repeat(unit, 4*m/len(unit)+2)
		s.first, s.last = 0, len(s.text)
		for i := range s.cands {
			s.cands[i].end, s.cands[i].start = 4*i, 4*i+r.IntN(2)
		}
		s.cands[m].end, s.cands[m].start = s.last, s.last
		var p planner
		require.Equal(t, bruteAnchors(s), p.appendAnchors(s, nil), "seed %d", seed)
	}
}

func randomText(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = "ab .\n"[r.IntN(5)]
	}
	return string(b)
}

func bruteAnchors(s *split) []int {
	m := len(s.cands) - 1
	reach := stretchReach(s.capacity, s.c.cfg.StretchChunks)
	out := []int{0}
	if reach == 0 || s.cands[m].e-s.cands[0].s <= 2*reach {
		return append(out, m)
	}
	strong := func(c *cand) bool { return !c.opt && c.rank <= rSentence }
	key := func(c *cand) uint64 { return rankKey(c.rank) | anchorHash(s, c) }
	for i := 1; i < m; i++ {
		c := &s.cands[i]
		if !strong(c) || c.e < s.cands[0].s+reach || c.e > s.cands[m].e-reach {
			continue
		}
		anchor := true
		for j := 1; j < m && anchor; j++ {
			d := &s.cands[j]
			if j != i && strong(d) && max(c.e-d.e, d.e-c.e) <= reach && key(d) >= key(c) {
				anchor = false
			}
		}
		if anchor {
			out = append(out, i)
		}
	}
	return append(out, m)
}
