package vectorstore

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// DefaultFusionK is the rank constant of reciprocal rank fusion when
// [FusionConfig.K] is zero: the value of the paper that introduced it
// (Cormack, Clarke and Büttcher, 2009) and of most search engines since.
const DefaultFusionK = 60

// FusionConfig configures [Fuse]. The zero value is reciprocal rank fusion
// with K = 60 and every list weighted alike.
type FusionConfig struct {
	// K damps the lead of the first ranks: a hit at rank r of a list gains
	// weight/(K+r). Zero means [DefaultFusionK].
	K int
	// Weights, if not nil, weights each list, in the order of the lists:
	// one weight each, finite and not negative. Nil weights every list 1.
	Weights []float64
}

// check returns what is wrong with c for fusing n lists, if anything.
func (c FusionConfig) check(n int) error {
	if c.K < 0 {
		return configError("K", c.K, "must be 0 (the default) or more")
	}
	if c.Weights == nil {
		return nil
	}
	if len(c.Weights) != n {
		return configError("len(Weights)", len(c.Weights), fmt.Sprintf("must be %d, one per list", n))
	}
	for i, w := range c.Weights {
		if !(w >= 0) || math.IsInf(w, 1) {
			return configError(fmt.Sprintf("Weights[%d]", i), w, "must be finite and 0 or more")
		}
	}
	return nil
}

// fused is a hit being fused, with its score.
type fused struct {
	hit   Hit
	score float64
}

// Fuse combines ranked lists of hits into one by reciprocal rank fusion:
// a hit's fused score is the sum, over the lists that hold it, of the
// list's weight divided by K plus its rank there (ranks from 1). The
// result holds every hit of every list once, best first, with that score
// as its Score; ties in score are ordered by ID. Fuse works on hits of any
// kind, since only ranks count: cosine scores from a vector search, BM25
// scores from a keyword search, or the hits of another store.
//
// Hits are the same when their IDs are; the fused hit is the record from
// the first list that holds it. Within a list:
//   - the rank of a hit is its position, except that a hit whose Score
//     equals the one before it shares that one's rank, so that ties a
//     list could order either way gain the same (ranks 1, 2, 2, 4);
//   - a hit whose ID appeared earlier in the same list is ignored, as if
//     absent, and does not take a rank;
//   - lists may have different lengths: a hit gains nothing from a list
//     that does not hold it, so a hit found by several lists tends to
//     beat one found high in a single list.
//
// The fused score is at most the sum of the weights over K+1; it ranks
// the hits of one fusion and means nothing on its own. Nil or empty
// lists are allowed. A negative K, or Weights of the wrong length or with
// a negative or not finite weight, gives an error wrapping [ErrConfig]. Cost: linear
// in the total number of hits, plus sorting the result.
func Fuse(cfg FusionConfig, lists ...[]Hit) ([]Hit, error) {
	if err := cfg.check(len(lists)); err != nil {
		return nil, err
	}
	k := float64(cmp.Or(cfg.K, DefaultFusionK))
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	at := make(map[string]int, n) // ID -> position in all
	all := make([]fused, 0, n)
	seen := make(map[string]bool)
	for li, list := range lists {
		w := 1.0
		if cfg.Weights != nil {
			w = cfg.Weights[li]
		}
		clear(seen)
		rank, pos, prev := 0, 0, float32(0)
		for _, h := range list {
			if seen[h.ID] {
				continue
			}
			seen[h.ID] = true
			if pos++; pos == 1 || h.Score != prev {
				rank, prev = pos, h.Score
			}
			j, ok := at[h.ID]
			if !ok {
				j = len(all)
				at[h.ID] = j
				all = append(all, fused{hit: h})
			}
			all[j].score += w / (k + float64(rank))
		}
	}
	out := make([]Hit, len(all))
	for i, f := range all {
		out[i] = f.hit
		out[i].Score = float32(f.score)
	}
	// By the float32 scores returned, so that equal scores are in order
	// of ID as documented.
	slices.SortFunc(out, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}
