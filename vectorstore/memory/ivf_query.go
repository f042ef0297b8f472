package memory

import (
	"cmp"
	"context"
	"slices"

	"github.com/ragkit/ragkit/vectorstore/internal/kernel"
)

// wideScanShare is the inverse of the share of the store beyond which an
// unfiltered scan of the index is slower than the exact scan: the list
// scan reads each record's codes at its own place, one dot product at a
// time, where the exact scan streams through contiguous blocks: on
// 100,000 vectors of 384 (2 cores, annbench), a compact store's lists
// were scored at about 145 ns a record, the exact compact scan at 30.
const wideScanShare = 5

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
// exactly, its re-rank making it exact; so is the set of a filter whose
// scan of the index would score more than half the records it keeps: the
// metadata index has already found them, and an exact scan of them is
// then about as cheap, and exact. The caller holds the read lock.
func (m *Store) useIndex(subset []int32, total int) bool {
	ix := m.ivf
	if ix == nil || !ix.active() || total <= rerankAll {
		return false
	}
	if total == len(m.st.recs) {
		return true
	}
	// A filter: the index when the records it must score are well under
	// those the filter keeps.
	return 2*ix.filterNeed(m.probeCount(ix.lists()), len(m.st.recs), total) < total
}

// filterNeed returns how many records that pass a filter keeping total of
// n records a scan of the index must score before it stops: as many as an
// unfiltered scan of probes lists scores. A filter that keeps a share s of
// the records has its top k among the unfiltered top k/s, in lists
// further out; scoring as many of them as an unfiltered query scores
// records (at up to 1/s times the lists, a bit test for each record that
// fails) keeps the recall of the unfiltered query, where the square root
// of that, tried first, lost a tenth of it (TestIndexFilter).
func (ix *ivf) filterNeed(probes, n, total int) int {
	return min(total, probes*n/ix.lists())
}

// searchIndex is [Store.search] through the index: the lists of the
// centroids nearest to the query, nearest first, are scanned until Probes
// lists are done and enough records that pass the filter are found (a
// filter widens the search rather than returning fewer hits), keeping the
// best candidates, which a compact store then re-ranks against its
// refined vectors. It reports false, having searched nothing, when the
// lists to scan without a filter hold more than 1/wideScanShare of the
// store (at a width below every list), which the exact scan reads faster.
func (m *Store) searchIndex(ctx context.Context, sc *scratch, k int, subset []int32, allowed []uint64, total int) ([]kernel.Candidate, bool, error) {
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
	probes := m.probeCount(len(order))
	sc.scan = scan{keep: keep} // merge cuts the workers' candidates to keep
	if allowed == nil {
		lists := order[:probes]
		size := 0
		for _, l := range lists {
			size += len(ix.members[l])
		}
		if probes < len(order) && wideScanShare*size > len(m.st.recs) {
			return nil, false, nil
		}
		if err := m.scanLists(ctx, sc, lists, size); err != nil {
			return nil, true, err
		}
		return m.merge(sc, k), true, nil
	}
	sc.work = slices.Grow(sc.work[:0], 1)[:1]
	top := &sc.work[0].top
	top.Reset(keep)
	top.Before = m.idBefore
	// need is how many records that pass the filter the scan must score
	// before it stops: as many as it keeps and what filterNeed says, so
	// that a filter makes the scan go on to further lists rather than
	// return fewer hits or lose recall.
	need := max(keep, ix.filterNeed(probes, len(m.st.recs), total))
	found := 0
	done := ctx.Done()
	for i, l := range order {
		if i >= probes && found >= need {
			break
		}
		if done != nil {
			select {
			case <-done:
				return nil, true, ctx.Err()
			default:
			}
		}
		found += m.scoreList(sc, top, ix.members[l], allowed)
	}
	return m.merge(sc, k), true, nil
}

// scanLists scores every record of the given lists into the workers'
// heaps of sc, sharing the lists among as many goroutines as the work
// keeps busy (list i to worker i mod workers, so that the large lists
// near the query spread out). Each worker keeps its best sc.scan.keep,
// so the best overall are among them however the lists were shared.
func (m *Store) scanLists(ctx context.Context, sc *scratch, lists []int32, size int) error {
	ix := m.ivf
	workers := min(len(lists), m.workersFor(size))
	sc.work = slices.Grow(sc.work[:0], workers)[:workers]
	for w := range sc.work {
		sc.work[w].top.Reset(sc.scan.keep)
		sc.work[w].top.Before = m.idBefore
		sc.work[w].err = nil
	}
	part := func(w int) error {
		done := ctx.Done()
		for i := w; i < len(lists); i += workers {
			if done != nil {
				select {
				case <-done:
					return ctx.Err()
				default:
				}
			}
			m.scoreList(sc, &sc.work[w].top, ix.members[lists[i]], nil)
		}
		return nil
	}
	if workers == 1 {
		return part(0)
	}
	sc.wg.Add(workers)
	for w := range workers {
		go func() {
			defer sc.wg.Done()
			sc.work[w].err = part(w)
		}()
	}
	sc.wg.Wait()
	for w := range sc.work {
		if err := sc.work[w].err; err != nil {
			return err
		}
	}
	return nil
}

// scoreList scores the members of one list that allowed (nil for all)
// lets through into top, and returns how many it scored.
func (m *Store) scoreList(sc *scratch, top *kernel.TopK, members []int32, allowed []uint64) int {
	scored := 0
	codes, scales := &m.st.codes, m.st.scales
	for _, slot := range members {
		if allowed != nil && allowed[slot/64]&(1<<(slot%64)) == 0 {
			continue
		}
		scored++
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
	return scored
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
