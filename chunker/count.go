package chunker

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/ragkit/ragkit/tokencount"
)

// The planner sizes chunks by arithmetic on token ends. The text is
// tokenized once, in windows of about a quarter of a megabyte so that memory stays
// bounded on any input; each candidate cut gets two prefix counts:
//
//	e: the tokens that start before the cut's end (the chunk before it
//	   ends there), and
//	s: the tokens that end at or before the cut's start (the chunk after
//	   it starts there).
//
// The estimated size of the chunk from candidate i to candidate j is then
// e[j] - s[i]: the tokens that overlap it. It differs from the exact count
// of the chunk only where the chunk's edges tokenize differently on their
// own, by a token or two, which is why every chunk is verified.

const window = 1 << 18

// counter walks the token ends of text[from:to] window by window. Calls to
// at must come with non-decreasing positions.
type counter struct {
	tok    tokencount.Tokenizer
	text   string
	to     int
	ends   []int // token ends of the current window, relative to w0
	w0, w1 int
	base   int // tokens in the windows before w0
	i      int // ends[:i] are at or before the last position asked for
}

func (c *counter) reset(tok tokencount.Tokenizer, text string, from, to int, buf []int) {
	// English runs at about four bytes a token; room for three saves
	// most regrowing of the window's buffer.
	if n := min(to-from, window+window/2) / 3; cap(buf) < n {
		buf = make([]int, 0, n)
	}
	*c = counter{tok: tok, text: text, to: to, ends: buf[:0], w0: from, w1: from}
}

// at returns the number of tokens that end at or before pos, and whether
// a token starts before pos and ends after it.
func (c *counter) at(pos int) (int, bool) {
	for pos > c.w1 && c.w1 < c.to {
		c.advance()
	}
	p := pos - c.w0
	for c.i < len(c.ends) && c.ends[c.i] <= p {
		c.i++
	}
	straddle := p > 0 && c.i < len(c.ends) && (c.i == 0 || c.ends[c.i-1] < p)
	return c.base + c.i, straddle
}

func (c *counter) advance() {
	c.base += len(c.ends)
	c.w0 = c.w1
	c.w1 = windowEnd(c.text, c.w0, c.to)
	c.ends = tokencount.AppendTokenEnds(c.tok, c.ends[:0], c.text[c.w0:c.w1])
	c.i = 0
}

// windowEnd picks the end of the window that starts at w0: about a
// megabyte on, after a line break if one is near, else at a space, else
// at a character boundary. Token counts are only estimates at the seams.
func windowEnd(text string, w0, to int) int {
	if to-w0 <= window+window/2 {
		return to
	}
	t := w0 + window
	if j := strings.IndexByte(text[t:t+window/4], '\n'); j >= 0 {
		return t + j + 1
	}
	if j := strings.IndexByte(text[t:t+window/4], ' '); j >= 0 {
		return t + j + 1
	}
	for !utf8.RuneStart(text[t]) {
		t++
	}
	return t
}

// countCands fills in the prefix counts of s.cands in one walk. On the
// way it drops the optional candidates inside units too long for a chunk
// (such a unit is cut by refinement or kept whole, and the planners take
// a chunk of one unit as always allowed), and it refines those units,
// with the token ends of the current window when the unit lies in it.
// It works in place; the rare refined candidates wait in s.extra, each
// with the index it goes before, and are merged in at the end.
func (s *split) countCands() error {
	var c counter
	c.reset(s.tok, s.text, s.first, s.last, s.ends)
	out := s.cands[:0]
	extra := s.extra[:0]
	last := -1 // the index in out of the last candidate that is not optional
	for k := range s.cands {
		cd := s.cands[k]
		n, straddle := c.at(cd.end)
		if straddle {
			n++
		}
		cd.e = n
		if cd.opt {
			cd.s, _ = c.at(cd.start)
			out = append(out, cd)
			continue
		}
		if last >= 0 && cd.e-out[last].s > s.capacity {
			if len(out)-1 > last {
				out = out[:last+1]
				out[last].unit = uProse // optional cuts are clause cuts of prose
			}
			if len(out)-1 == last { // the unit is alone between two candidates
				var err error
				if extra, err = s.refineUnit(extra, out, cd.end, &c); err != nil {
					return err
				}
			}
		}
		cd.s, _ = c.at(cd.start) // after refining: it may move the window on
		out = append(out, cd)
		last = len(out) - 1
	}
	s.ends, s.extra = c.ends, extra
	s.cands = out
	if len(extra) > 0 {
		s.cands, s.spare = s.mergeExtra(out, extra), out
	}
	return nil
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
	extra[n] = cand{end: len(out), rank: numRanks}
	if len(extra) == n+1 {
		extra = extra[:n]
	}
	return extra, nil
}

// mergeExtra returns cands with the refined candidates of extra inserted:
// extra is a series of runs, each led by a marker (rank numRanks) whose
// end field holds the index in cands the run goes before.
func (s *split) mergeExtra(cands, extra []cand) []cand {
	out := make([]cand, 0, len(cands)+len(extra))
	i := 0
	for _, x := range extra {
		if x.rank == numRanks {
			out = append(out, cands[i:x.end]...)
			i = x.end
			continue
		}
		out = append(out, x)
	}
	return append(out, cands[i:]...)
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
