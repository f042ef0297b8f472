package chunker

import (
	"fmt"
	"sort"

	"github.com/ragkit/ragkit/tokencount"
)

// Weak boundaries (clauses, words, graphemes, and the lines of code and
// tables) are candidates only inside a unit that does not fit in a chunk
// on its own: its estimate is above the planning capacity and its exact
// count above MaxTokens-OverlapTokens (prose) or MaxTokens (code, tables
// and HTML). A unit that fits stays whole, even if it then needs a chunk
// to itself; so a code block or table that fits in MaxTokens is never
// split, though it then has no overlap. Refinement recurses: a clause
// still too long is cut at words, a word at graphemes, and a grapheme
// longer than MaxTokens at its code points (or, with
// Config.KeepGraphemes, is an error).

// refine appends to out the candidates that cut text[a:b], a unit of kind
// u, if it does not fit (see above); the candidate before the unit is the
// last of out, and takes the kind of the pieces. Pieces still too long
// are cut further.
func (s *split) refine(out []cand, a, b int, u unitKind, lc *localCounts) ([]cand, error) {
	limit := s.c.cfg.MaxTokens - s.c.cfg.OverlapTokens
	if u == uAtomic {
		limit = s.c.cfg.MaxTokens
	}
	// Count exactly unless the estimate is far over: a prose unit cut
	// that would just have fit costs a weak cut, not a broken contract.
	n := -1 // over limit unless counted
	if est := lc.size(a, b); u == uAtomic || est-est/8-16 <= limit {
		var err error
		if n, err = s.count(a, b); err != nil {
			return nil, err
		}
	}
	if n >= 0 && n <= limit {
		return out, nil
	}
	for ; u != uNone; u = s.weaker(u) {
		n0 := len(out)
		before := out[n0-1].unit
		p := pieces{s: s, out: out, from: a, fromS: out[n0-1].s, child: s.weaker(u), lc: lc}
		p.out[n0-1].unit = p.child
		if err := s.eachGap(u, a, b, s.minGap(u, b-a), p.add); err != nil {
			return nil, err
		}
		out = p.out
		if len(out) == n0 {
			out[n0-1].unit = before // no gap at this level
			continue
		}
		if end, _ := lc.at(b, b); end-p.fromS > s.capacity {
			return s.refine(out, p.from, b, p.child, lc)
		}
		return out, nil
	}
	if n < 0 { // not counted above: the estimate was far over
		var err error
		if n, err = s.count(a, b); err != nil {
			return nil, err
		}
	}
	if n <= s.c.cfg.MaxTokens {
		return out, nil // a grapheme that fits, without overlap
	}
	return nil, fmt.Errorf("%w: %q at byte %d counts %d tokens, MaxTokens is %d",
		ErrGraphemeTooLong, clip(s.text[a:b]), a, n, s.c.cfg.MaxTokens)
}

// pieces collects the gaps of one unit as candidates, cutting further the
// pieces between them that are still too long.
type pieces struct {
	s           *split
	out         []cand
	from, fromS int // the start of the current piece and its prefix count
	child       unitKind
	lc          *localCounts
}

func (p *pieces) add(g cand) error {
	g.e, g.s = p.lc.at(g.end, g.start)
	g.unit = p.child
	if g.e-p.fromS > p.s.capacity {
		var err error
		if p.out, err = p.s.refine(p.out, p.from, g.end, p.child, p.lc); err != nil {
			return err
		}
	}
	p.out = append(p.out, g)
	p.from, p.fromS = g.start, g.s
	return nil
}

// weaker returns the kind of the pieces that a unit of kind u is cut into.
func (s *split) weaker(u unitKind) unitKind {
	switch u {
	case uProse, uAtomic:
		return uWords
	case uWords:
		return uGraphemes
	case uGraphemes:
		if !s.c.cfg.KeepGraphemes {
			return uRunes
		}
	}
	return uNone
}

// refineUnit refines the unit from the last candidate of out to end,
// appending the new candidates to extra. They go before index len(out).
func (s *split) refineUnit(extra []cand, out []cand, end int, c *counter) ([]cand, error) {
	from := &out[len(out)-1]
	lc := localCounts{base: c.base, off: c.w0, ends: c.ends}
	if from.start < c.w0 {
		lc = s.localFor(from.start, end, from.s) // the unit straddles windows
	}
	n := len(extra)
	extra = append(extra, *from)
	extra, err := s.refine(extra, from.start, end, from.unit, &lc)
	if err != nil {
		return nil, err
	}
	from.unit = extra[n].unit
	// The copy of from marks where the new candidates go.
	extra[n] = marker(len(out))
	if len(extra) == n+1 {
		extra = extra[:n]
	}
	return extra, nil
}

// localCounts holds the token ends of one unit of text, tokenized alone,
// for sizing the finer candidates inside it.
type localCounts struct {
	base int   // the prefix count of the unit's start
	off  int   // the unit's start in the text
	ends []int // relative to off
}

func (s *split) localFor(start, end, base int) localCounts {
	s.local = tokencount.AppendTokenEnds(s.tok, s.local[:0], s.text[start:end])
	return localCounts{base: base, off: start, ends: s.local}
}

// size returns the estimated tokens of text[a:b].
func (l *localCounts) size(a, b int) int {
	e, _ := l.at(b, b)
	_, s := l.at(a, a)
	return e - s
}

// at returns the prefix counts e and s of a cut from end to start inside
// the unit (see countCands).
func (l *localCounts) at(end, start int) (int, int) {
	p := end - l.off
	i := sort.SearchInts(l.ends, p+1)
	e := i
	if p > 0 && i < len(l.ends) && (i == 0 || l.ends[i-1] < p) {
		e++
	}
	return l.base + e, l.base + sort.SearchInts(l.ends, start-l.off+1)
}

// refineShort finds the chunks of a plan that are under the planner's
// floor and cuts the units on either side of them at the next weaker
// level, so that a new plan can move those cuts into the units; a prose
// unit that would otherwise stay whole is cut too. The new candidates are
// optional: they serve the balance, not the count of chunks. Code, tables
// and HTML blocks that fit are not cut. It reports whether it added any
// candidate.
func (s *split) refineShort(cuts []int) bool {
	floor := s.minTokens()
	var units []int
	for k := 0; k+1 < len(cuts); k++ {
		if s.size(cuts[k], cuts[k+1]) >= floor {
			continue
		}
		if k > 0 && (len(units) == 0 || units[len(units)-1] < cuts[k]-1) {
			units = append(units, cuts[k]-1)
		}
		if k+2 < len(cuts) {
			units = append(units, cuts[k+1])
		}
	}
	if len(units) == 0 {
		return false
	}
	extra := s.extra[:0]
	added := false
	for _, k := range units {
		u := s.cands[k].unit
		if u == uAtomic || k+1 == len(s.cands) {
			continue // code and tables that fit stay whole
		}
		a, b := s.cands[k].start, s.cands[k+1].end
		lc := s.localFor(a, b, s.cands[k].s)
		for ; u != uNone; u = s.weaker(u) {
			n := len(extra)
			child := s.weaker(u)
			extra = append(extra, marker(k+1))
			_ = s.eachGap(u, a, b, s.minGap(u, b-a), func(g cand) error {
				g.e, g.s = lc.at(g.end, g.start)
				g.unit, g.opt = child, true
				extra = append(extra, g)
				return nil
			})
			if len(extra) > n+1 {
				s.cands[k].unit = child
				added = true
				break
			}
			extra = extra[:n]
		}
	}
	s.extra = extra
	if added {
		s.insertRuns(0, extra)
		s.monotone()
	}
	return added
}
