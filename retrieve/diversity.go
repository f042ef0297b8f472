package retrieve

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/ragkit/ragkit/internal/parallel"
	"github.com/ragkit/ragkit/vectorstore"
)

// Vectors says where maximal marginal relevance takes the vector of a
// passage from, to tell how alike two passages are.
type Vectors int

const (
	// StoredVectors is the mean of the stored vectors of the passage's
	// units, read with the store's Range (through the filter): no model
	// call, one Range per passage of the pool. The hits of a search carry
	// no vectors, so they are read again. A store whose Range returns no
	// vectors gives an error wrapping [ErrConfig].
	StoredVectors Vectors = iota
	// EmbeddedVectors embeds each passage's whole text with the
	// Config.Embedder, in one call per question: the vector of what a
	// window or segment says as a whole, at the cost of a model call over
	// every passage of the pool. It needs an Embedder, with [Keywords]
	// too.
	//
	// With either, a passage vector holding a NaN or an infinity gives
	// an error wrapping vectorstore.ErrInvalidArgument.
	EmbeddedVectors
)

var vectorsNames = [...]string{StoredVectors: "StoredVectors", EmbeddedVectors: "EmbeddedVectors"}

func (v Vectors) String() string {
	if v < 0 || int(v) >= len(vectorsNames) {
		return "Vectors(" + strconv.Itoa(int(v)) + ")"
	}
	return vectorsNames[v]
}

// Diversity configures how a [Retriever] spreads its passages over what
// the store holds, so that near-copies of one passage, or the many
// passages of one large document, do not crowd out a second relevant
// one. The zero value changes nothing.
type Diversity struct {
	// Lambda turns on maximal marginal relevance (Carbonell and
	// Goldstein, 1998) when it is not zero: the passages are picked one
	// at a time, each the one with the highest
	//
	//	Lambda·relevance − (1−Lambda)·(its greatest cosine similarity to a passage picked before)
	//
	// where relevance is the passage's Score rescaled over the pool to
	// [0, 1] (the best 1, the worst 0), so that it works alike for every
	// score kind. 1 is relevance alone (the ranking unchanged); smaller
	// values prefer passages unlike those already picked. It must lie in
	// [0, 1]; 0 means off.
	Lambda float64
	// PerDocument, if not zero, is the most passages of one document a
	// question returns: a passage of a document that has that many
	// already is skipped, and the next best taken. Zero means no cap.
	PerDocument int
	// Vectors says where maximal marginal relevance takes a passage's
	// vector from; the zero value is [StoredVectors]. Unused when Lambda
	// is 0.
	Vectors Vectors
}

func (d Diversity) check() error {
	switch {
	case !(d.Lambda >= 0 && d.Lambda <= 1):
		return fmt.Errorf("%w: Diversity.Lambda is %v: must be in [0, 1] (0: off)", ErrConfig, d.Lambda)
	case d.PerDocument < 0:
		return fmt.Errorf("%w: Diversity.PerDocument is %d: must be 0 (no cap) or more", ErrConfig, d.PerDocument)
	case d.Vectors < StoredVectors || d.Vectors > EmbeddedVectors:
		return fmt.Errorf("%w: Diversity.Vectors is %v: must be StoredVectors or EmbeddedVectors", ErrConfig, d.Vectors)
	}
	return nil
}

// pick returns at most n passages of ps (ranked best first): the first
// n under the per-document cap, or with Lambda set, the passages maximal
// marginal relevance picks, in the order it picks them.
func (r *Retriever) pick(ctx context.Context, ps []Passage, n int) ([]Passage, error) {
	d := r.cfg.Diversity
	if d.Lambda == 0 || d.Lambda == 1 || len(ps) <= 1 {
		return capped(ps, n, d.PerDocument), nil
	}
	vecs, err := r.passageVectors(ctx, ps)
	if err != nil {
		return nil, err
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range ps {
		lo, hi = min(lo, float64(p.Score)), max(hi, float64(p.Score))
	}
	sq := make([]float64, len(vecs)) // squared lengths, once, not once per comparison
	for i, v := range vecs {
		sq[i] = dot(v, v)
	}
	rel := make([]float64, len(ps))
	for i, p := range ps {
		rel[i] = 1
		if hi > lo {
			rel[i] = (float64(p.Score) - lo) / (hi - lo)
		}
	}
	maxSim := make([]float64, len(ps)) // greatest similarity to a picked passage
	done := make([]bool, len(ps))
	perDoc := map[string]int{}
	out := make([]Passage, 0, min(n, len(ps)))
	for len(out) < n {
		best, bestVal := -1, math.Inf(-1)
		for i := range ps {
			if done[i] || d.PerDocument > 0 && perDoc[ps[i].DocID] >= d.PerDocument {
				continue
			}
			v := d.Lambda*rel[i] - (1-d.Lambda)*maxSim[i]
			if v > bestVal { // strictly: a tie goes to the better ranked
				best, bestVal = i, v
			}
		}
		if best < 0 {
			break
		}
		done[best] = true
		perDoc[ps[best].DocID]++
		out = append(out, ps[best])
		for i := range ps {
			if !done[i] {
				maxSim[i] = max(maxSim[i], cosine(vecs[i], vecs[best], sq[i], sq[best]))
			}
		}
	}
	return out, nil
}

// capped returns the first n passages of ps with at most perDoc of one
// document (0: no cap).
func capped(ps []Passage, n, perDoc int) []Passage {
	if perDoc == 0 {
		return ps[:min(len(ps), n)]
	}
	count := map[string]int{}
	out := make([]Passage, 0, min(n, len(ps)))
	for _, p := range ps {
		if len(out) == n {
			break
		}
		if count[p.DocID] < perDoc {
			count[p.DocID]++
			out = append(out, p)
		}
	}
	return out
}

// passageVectors returns a vector for each passage, as Diversity.Vectors
// says.
func (r *Retriever) passageVectors(ctx context.Context, ps []Passage) ([][]float32, error) {
	if r.cfg.Diversity.Vectors == EmbeddedVectors {
		texts := make([]string, len(ps))
		for i, p := range ps {
			texts[i] = p.Text
		}
		vecs, err := parallel.Call(func() ([][]float32, error) { return r.cfg.Embedder.Embed(ctx, texts) })
		if err != nil {
			return nil, fmt.Errorf("retrieve: embedding passages for diversity: %w", err)
		}
		if len(vecs) != len(ps) {
			return nil, fmt.Errorf("%w: retrieve: the embedder returned %d vectors for %d passages", vectorstore.ErrInvalidArgument, len(vecs), len(ps))
		}
		return vecs, checkFinite(vecs, ps, "the embedder")
	}
	src := r.source()
	vecs := make([][]float32, len(ps))
	for i, p := range ps {
		recs, err := parallel.Call(func() ([]vectorstore.Record, error) { return src.Range(ctx, p.DocID, p.First, p.Last) })
		if err != nil {
			return nil, fmt.Errorf("retrieve: reading the vectors of passage %s: %w", passageID(p), err)
		}
		if vecs[i] = mean(recs); vecs[i] == nil {
			return nil, fmt.Errorf("%w: Diversity.Vectors is StoredVectors: the store returned no vectors for passage %s: use EmbeddedVectors", ErrConfig, passageID(p))
		}
	}
	return vecs, checkFinite(vecs, ps, "the store")
}

// checkFinite returns an error wrapping vectorstore.ErrInvalidArgument if
// a component of a passage's vector is NaN or infinite, which from names:
// a NaN makes every comparison of the picking false, so that it would stop
// at the first passage without a word.
func checkFinite(vecs [][]float32, ps []Passage, from string) error {
	for i, v := range vecs {
		for j, x := range v {
			if f := float64(x); math.IsNaN(f) || math.IsInf(f, 0) {
				return fmt.Errorf("%w: retrieve: %s gave passage %s a vector whose component %d is %v", vectorstore.ErrInvalidArgument, from, passageID(ps[i]), j, x)
			}
		}
	}
	return nil
}

// mean returns the mean of the records' unit-length vectors (nil if none
// has one): each unit counts alike, whatever its vector's length.
func mean(recs []vectorstore.Record) []float32 {
	var sum []float64
	for _, rec := range recs {
		v := rec.Vector
		if len(v) == 0 || sum != nil && len(v) != len(sum) {
			continue
		}
		if sum == nil {
			sum = make([]float64, len(v))
		}
		norm := math.Sqrt(dot(v, v))
		if norm == 0 {
			continue
		}
		for j, x := range v {
			sum[j] += float64(x) / norm
		}
	}
	if sum == nil {
		return nil
	}
	out := make([]float32, len(sum))
	for j, x := range sum {
		out[j] = float32(x)
	}
	return out
}

// cosine returns the cosine similarity of a and b, whose squared lengths
// are na and nb; 0 if either is zero or their lengths differ (vectors that
// cannot be compared are not alike).
func cosine(a, b []float32, na, nb float64) float64 {
	if len(a) != len(b) || na == 0 || nb == 0 {
		return 0
	}
	return dot(a, b) / math.Sqrt(na*nb)
}

func dot(a, b []float32) float64 {
	s := 0.0
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}
