package retrieve

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ragkit/ragkit/vectorstore"
)

// DefaultFusionK is the rank constant of reciprocal rank fusion when
// [FusionConfig.K] is zero: the value of the paper that introduced it
// (Cormack, Clarke and Büttcher, 2009) and of most search engines since.
const DefaultFusionK = 60

// A FusionMethod says how [Fuse] scores a hit from its places in the lists.
type FusionMethod int

const (
	// Reciprocal is reciprocal rank fusion: a hit at rank r of a list
	// gains weight/(K+r). Only ranks count.
	Reciprocal FusionMethod = iota
	// Relative is relative score fusion: each list's scores are rescaled
	// to [0, 1] (its best hit 1, its worst 0; all 1 if they are equal), and
	// a hit gains weight times its rescaled score. How far apart the hits
	// of a list score counts, not only their order.
	Relative
)

var fusionMethodNames = [...]string{Reciprocal: "Reciprocal", Relative: "Relative"}

func (m FusionMethod) String() string {
	if m < 0 || int(m) >= len(fusionMethodNames) {
		return "FusionMethod(" + strconv.Itoa(int(m)) + ")"
	}
	return fusionMethodNames[m]
}

// FusionConfig configures [Fuse]. The zero value is reciprocal rank fusion
// with K = 60 and every list weighted alike.
type FusionConfig struct {
	// Method is how a hit is scored; the zero value is [Reciprocal].
	Method FusionMethod
	// K damps the lead of the first ranks: a hit at rank r of a list gains
	// weight/(K+r). Zero means [DefaultFusionK] in [Fuse], and
	// [DefaultFusion]'s K in a [Retriever].
	K int
	// Weights, if not nil, weights each list, in the order of the lists:
	// one weight each, finite and not negative, summing to at most
	// math.MaxFloat32 (a fused score is a float32). Nil weights every list 1
	// in [Fuse]; a [Retriever] reads nil as [DefaultFusion]'s weights.
	Weights []float64
}

// check returns what is wrong with c for fusing n lists, if anything.
func (c FusionConfig) check(n int) error {
	if c.K < 0 {
		return fmt.Errorf("%w: Fusion.K is %d: must be 0 or more", ErrConfig, c.K)
	}
	if c.Method < Reciprocal || c.Method > Relative {
		return fmt.Errorf("%w: Fusion.Method is %v: must be Reciprocal or Relative", ErrConfig, c.Method)
	}
	if c.Weights == nil {
		return nil
	}
	if len(c.Weights) != n {
		return fmt.Errorf("%w: Fusion.Weights has %d weights: must have one per list (%d)", ErrConfig, len(c.Weights), n)
	}
	sum := 0.0
	for i, w := range c.Weights {
		if !(w >= 0) || math.IsInf(w, 1) {
			return fmt.Errorf("%w: Fusion.Weights[%d] is %v: must be finite and 0 or more", ErrConfig, i, w)
		}
		sum += w
	}
	// A fused score is at most the sum of the weights, and becomes a
	// float32 Score: past math.MaxFloat32 it would be +Inf.
	if sum > math.MaxFloat32 {
		return fmt.Errorf("%w: Fusion.Weights sum to %v: must be at most math.MaxFloat32 (%v), the largest Score", ErrConfig, sum, math.MaxFloat32)
	}
	return nil
}

// fused is a hit being fused, with its score.
type fused struct {
	hit   vectorstore.Hit
	score float64
}

// Fuse combines ranked lists of hits into one by reciprocal rank fusion:
// a hit's fused score is the sum, over the lists that hold it, of the
// list's weight divided by K plus its rank there (ranks from 1). The
// result holds every hit of every list once, best first, with that score
// as its Score; ties in score are in document order (DocID, then Index,
// then ID). Fuse works on hits of any kind, since only ranks count:
// cosine scores from a vector search, BM25 scores from a keyword search,
// or the hits of another store.
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
// lists are allowed. A negative K, or Weights of the wrong length, with a
// negative or not finite weight or summing to more than math.MaxFloat32,
// gives an error wrapping [ErrConfig].
// Cost: linear in the total number of hits, plus sorting the result.
func Fuse(cfg FusionConfig, lists ...[]vectorstore.Hit) ([]vectorstore.Hit, error) {
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
		lo, hi := scoreRange(list)
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
			if cfg.Method == Relative {
				all[j].score += w * rescale(h.Score, lo, hi)
			} else {
				all[j].score += w / (k + float64(rank))
			}
		}
	}
	out := make([]vectorstore.Hit, len(all))
	for i, f := range all {
		out[i] = f.hit
		out[i].Score = float32(f.score)
	}
	// By the float32 scores returned, so that equal scores are in
	// document order as documented.
	slices.SortFunc(out, byScore)
	return out, nil
}

// scoreRange returns the lowest and highest finite score of a list.
func scoreRange(list []vectorstore.Hit) (lo, hi float32) {
	first := true
	for _, h := range list {
		s := h.Score
		if math.IsNaN(float64(s)) || math.IsInf(float64(s), 0) {
			continue
		}
		if first || s < lo {
			lo = s
		}
		if first || s > hi {
			hi = s
		}
		first = false
	}
	return lo, hi
}

// rescale maps s from [lo, hi] to [0, 1]: 1 when the list's scores are all
// equal, 0 for a score that is not finite.
func rescale(s, lo, hi float32) float64 {
	switch {
	case math.IsNaN(float64(s)) || math.IsInf(float64(s), 0):
		return 0
	case hi == lo:
		return 1
	}
	return min(1, max(0, float64(s-lo)/float64(hi-lo)))
}

// byScore orders hits best first, ties in document order.
func byScore(a, b vectorstore.Hit) int {
	if c := cmp.Compare(b.Score, a.Score); c != 0 {
		return c
	}
	return inDocumentOrder(a.DocID, a.Index, a.ID, b.DocID, b.Index, b.ID)
}

// inDocumentOrder compares two places by DocID, then Index, then ID.
func inDocumentOrder(docA string, idxA int, idA, docB string, idxB int, idB string) int {
	if c := strings.Compare(docA, docB); c != 0 {
		return c
	}
	if c := cmp.Compare(idxA, idxB); c != 0 {
		return c
	}
	return strings.Compare(idA, idB)
}
