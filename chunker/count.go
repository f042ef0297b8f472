package chunker

import (
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
// own, by a token or two, which is why every chunk is counted exactly
// (from these counts and its edges where that is exact; see exact.go).

const window = 1 << 18

// counter walks the token ends of text[from:to] window by window. Calls to
// at must come with non-decreasing positions.
type counter struct {
	tok    tokencount.Tokenizer
	text   string
	to     int
	ends   []int // token ends of the current window, relative to w0
	w0, w1 int
	base   int   // tokens in the windows before w0
	i      int   // ends[:i] are at or before the last position asked for
	seams  []int // the starts of the windows after the first
}

func (c *counter) reset(tok tokencount.Tokenizer, text string, from, to int, buf, seams []int) {
	// English runs at about four bytes a token; room for three saves
	// most regrowing of the window's buffer.
	if n := min(to-from, window+window/2) / 3; cap(buf) < n {
		buf = make([]int, 0, n)
	}
	*c = counter{tok: tok, text: text, to: to, ends: buf[:0], w0: from, w1: from, seams: seams[:0]}
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
	if len(c.ends) > 0 {
		c.seams = append(c.seams, c.w1)
	}
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
// It works in place; the rare refined candidates wait in s.extra, in runs
// (see insertRuns), and are inserted at the end.
func (s *split) countCands() error {
	var c counter
	c.reset(s.tok, s.text, s.first, s.last, s.ends, s.seams)
	s.joints.reset()
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
		s.setJointBefore(&cd, &c)
		if cd.opt {
			cd.s, _ = c.at(cd.start)
			s.setJointAfter(&cd, &c)
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
		s.setJointAfter(&cd, &c)
		out = append(out, cd)
		last = len(out) - 1
	}
	s.ends, s.extra, s.seams = c.ends, extra, c.seams
	s.cands = out
	s.insertRuns(0, extra)
	return nil
}
