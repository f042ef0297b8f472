package memory

import (
	"cmp"
	"context"
	"slices"

	"github.com/ragkit/ragkit/vectorstore/internal/kernel"
)

// ivfScratch is a query's working memory for the index.
type ivfScratch struct {
	dots   []int32
	scores []float32
	order  []int32
	bits   []uint64
}

// useIndex reports whether a query whose filter left the given subset
// (nil for a scan of the whole store, perhaps tested against a bit set)
// of total slots is answered from the index. A small set is scanned
// exactly, its re-rank making it exact; so is a subset no larger than the
// records an unfiltered query of the index scores, which the metadata
// index has already found and which a scan then reads for no more than
// the index would, at full recall. The caller holds the read lock.
func (m *Store) useIndex(subset []int32, total int) bool {
	ix := m.ivf
	if ix == nil || !ix.active() || total <= rerankAll {
		return false
	}
	if subset != nil {
		return total > m.probeCount(ix.lists())*len(m.st.recs)/ix.lists()
	}
	return true
}

// searchIndex is [Store.search] through the index: the lists of the
// centroids nearest to the query, nearest first, are scanned until Probes
// lists are done and enough records that pass the filter are found (a
// filter widens the search rather than returning fewer hits), keeping the
// best candidates, which a compact store then re-ranks against its
// refined vectors.
func (m *Store) searchIndex(ctx context.Context, sc *scratch, k int, subset []int32, allowed []uint64, total int) ([]kernel.Candidate, error) {
	ix := m.ivf
	sc.qc = slices.Grow(sc.qc[:0], m.dim)[:m.dim]
	kernel.QuantizeQuery(sc.q, sc.qc)
	sc.iq.Set(sc.qc)
	if subset != nil {
		sc.ivf.bits = grow(sc.ivf.bits, (len(m.st.recs)+63)/64)
		clear(sc.ivf.bits)
		for _, s := range subset {
			sc.ivf.bits[s/64] |= 1 << (s % 64)
		}
		allowed = sc.ivf.bits
	}
	order := ix.rank(&sc.ivf, &sc.iq)
	keep := k
	if m.compact {
		keep = min(k+k/2+8, total)
	}
	sc.work = slices.Grow(sc.work[:0], 1)[:1]
	top := &sc.work[0].top
	top.Reset(keep)
	top.Before = m.idBefore
	probes := m.probeCount(len(order))
	// need is how many records that pass the filter the scan must score
	// before it stops: as many as it keeps and, for a filter, as many as
	// an unfiltered scan of Probes lists would score (all that pass, if
	// fewer). A filter that keeps a share s of the records has its top k
	// among the unfiltered top k/s, further out: scanning more lists, at
	// the cost of a bit test for each record that fails, gives the
	// filtered query the recall of an unfiltered one for the same number
	// of dot products, rather than fewer hits or a lower recall.
	need := keep
	if allowed != nil {
		need = max(keep, min(total, probes*len(m.st.recs)/len(order)))
	}
	found := 0
	done := ctx.Done()
	codes, scales := &m.st.codes, m.st.scales
	for i, l := range order {
		if i >= probes && found >= need {
			break
		}
		if done != nil {
			select {
			case <-done:
				return nil, ctx.Err()
			default:
			}
		}
		for _, slot := range ix.members[l] {
			if allowed != nil && allowed[slot/64]&(1<<(slot%64)) == 0 {
				continue
			}
			found++
			var score float32
			if m.compact {
				score = float32(kernel.DotInt8(sc.qc, codes.row(int(slot)))) * scales[slot]
			} else {
				score = clampScore(kernel.Dot(sc.q, m.st.vecs.row(int(slot))))
			}
			if top.Accepts(score) {
				top.Push(score, slot)
			}
		}
	}
	return m.merge(sc, k), nil
}

// rank returns the lists ordered by their centroid's similarity to the
// query, nearest first.
func (ix *ivf) rank(sc *ivfScratch, iq *kernel.Int8Query) []int32 {
	nl := ix.lists()
	sc.dots = slices.Grow(sc.dots[:0], nl)[:nl]
	sc.scores = slices.Grow(sc.scores[:0], nl)[:nl]
	sc.order = slices.Grow(sc.order[:0], nl)[:nl]
	kernel.DotInt8Many(iq, ix.cents, sc.dots)
	for j, d := range sc.dots {
		sc.scores[j] = float32(d) * ix.cscale[j]
		sc.order[j] = int32(j)
	}
	slices.SortFunc(sc.order, func(a, b int32) int {
		if c := cmp.Compare(sc.scores[b], sc.scores[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return sc.order
}
