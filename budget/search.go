package budget

// guidedProbes is how many probes follow the estimates before a search
// falls back to plain bisection, which bounds the number of exact counts
// by O(log n) even when the estimates are far off.
const guidedProbes = 4

// guided searches (lo, hi) for the largest index that fits, given that lo
// fits and hi does not. est estimates an index's size, non-decreasing in
// the index; size measures it exactly and says whether it fits under
// limit. corr is the current correction from estimate to exact size; each
// probe renews it. guided returns the index found, which fits and whose
// successor does not, both by exact measure, and the correction.
//
// Each probe goes where the corrected estimate says the boundary is, so
// that with good estimates two exact counts settle it: the guess, which
// fits, and its successor, which does not. The estimate is scanned
// upwards from lo, so a section's items are counted only as far as its
// budget can reach.
func guided(lo, hi, limit, corr int, est func(int) int, size func(int) (int, bool)) (int, int) {
	for probes := 0; hi-lo > 1; probes++ {
		p := lo + 1
		if probes < guidedProbes {
			for p+1 < hi && est(p+1)+corr <= limit {
				p++
			}
		} else {
			p = lo + (hi-lo)/2
		}
		n, ok := size(p)
		if probes < guidedProbes {
			corr = n - est(p)
		}
		if ok {
			lo = p
		} else {
			hi = p
		}
	}
	return lo, corr
}

// search returns the largest state between p's floor, which must fit,
// and top, which does not (top.k may be len(p.units)+1: nothing above the
// full section), that fits by size. It first finds how many whole units
// fit, then, if the strategy allows, how much of the next unit. Every
// state it returns was measured to fit, and the next larger state it
// could have chosen was measured not to.
func (p *plan) search(top state, limit, corr int, size func(state) (int, bool)) state {
	hi := top.k
	if top.cut >= 0 {
		hi++ // (top.k+1, -1) holds more than top
	}
	whole := func(k int) state { return state{k, -1} }
	k, corr := guided(p.floor, hi, limit, corr,
		func(k int) int { return p.est(whole(k)) },
		func(k int) (int, bool) { return size(whole(k)) })
	if !p.cuttable(k) {
		return whole(k)
	}
	hiCut := p.cutsFor(k).n()
	if k == top.k && top.cut >= 0 {
		hiCut = top.cut
	}
	cut := func(j int) state { return state{k, j} }
	j, _ := guided(-1, hiCut, limit, corr,
		func(j int) int { return p.est(cut(j)) },
		func(j int) (int, bool) { return size(cut(j)) })
	return cut(j)
}
