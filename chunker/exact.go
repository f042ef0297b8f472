package chunker

import "sort"

// Exact counts without counting every chunk again.
//
// A tiktoken encoding ([tokencount.BPE]) counts a text as the sum of the
// counts of its pieces, which a pre-tokenizer cuts; the pre-tokenizer
// decides each piece from the text at and after its start, never before.
// Where a printable ASCII character is followed by a space, or a letter or
// digit by a line break or tab, every tiktoken encoding ends a piece (no
// piece carries on from such a character into that white space), and the
// pieces before cannot change as long as what follows is that white space
// or the end of the text. Call such a position, the white space's offset,
// a joint. So for any string holding the
// joints x <= y, each with the character before it:
//
//	Count(t[a:b]) = Count(t[a:x]) + Count(t[x:y]) + Count(t[y:b])
//
// and Count(t[x:y]) is the number of tokens of any longer string, here a
// window of the sizing pass, that end between x and y. The sizing pass
// records, for each candidate cut, the first joint after its start and the
// last before its end, with the window's count of the tokens up to them;
// a chunk is then counted exactly by tokenizing its two short edges alone.
// A chunk without such joints (text without spaces, edges in two windows,
// a cut made later by refinement) is counted whole.

// maxJointScan bounds how far from a cut a joint is looked for, and so
// what a chunk's edges cost to count; offsets and token counts up to it
// (and one more token) fit in the bytes of joints.
const maxJointScan = 200

// joints locates the joints of a cut compactly, relative to the cut and
// its prefix counts: the first joint after its start is afterOff bytes
// after it, with afterTok tokens of the window between them; the last
// joint before its end is beforeOff bytes before it, beforeTok tokens
// before the cut's e. An offset of 0 is no joint.
type joints struct {
	afterOff, afterTok, beforeOff, beforeTok uint8
}

// jointAt reports whether i is a joint: a space after a printable ASCII
// character, or a line break or tab after an ASCII letter or digit. (After
// punctuation a line break can belong to the punctuation's piece.)
func jointAt(text string, i int) bool {
	if i <= 0 || i >= len(text) {
		return false
	}
	switch c := text[i-1]; text[i] {
	case ' ':
		return c > ' ' && c < 0x7f
	case '\n', '\r', '\t':
		return alnum[c]
	}
	return false
}

// alnum marks the ASCII letters and digits.
var alnum = func() (t [256]bool) {
	for c := '0'; c <= 'z'; c++ {
		t[c] = c <= '9' || c >= 'a' || (c >= 'A' && c <= 'Z')
	}
	return t
}()

// jointAfter returns the first joint x with from < x < to and x <=
// from+maxJointScan, or -1.
func jointAfter(text string, from, to int) int {
	for i := from + 1; i < min(to, from+maxJointScan+1); i++ {
		if jointAt(text, i) {
			return i
		}
	}
	return -1
}

// jointBefore returns the last joint y with from < y < to and y >=
// to-maxJointScan, or -1.
func jointBefore(text string, from, to int) int {
	for i := to - 1; i > max(from, to-maxJointScan-1); i-- {
		if jointAt(text, i) {
			return i
		}
	}
	return -1
}

// tokensTo returns the number of tokens that end at or before pos in the
// counter's window, and false if pos is not strictly inside the window
// (a seam's count belongs to two windows).
func (c *counter) tokensTo(pos int) (int, bool) {
	if pos <= c.w0 || pos >= c.w1 {
		return 0, false
	}
	q, i := pos-c.w0, c.i
	for i > 0 && c.ends[i-1] > q {
		i--
	}
	for i < len(c.ends) && c.ends[i] <= q {
		i++
	}
	return c.base + i, true
}

// jointMemo remembers the last joints that setJointBefore and
// setJointAfter found, so that a walk over the cuts in order reads each
// byte of the text about once, rather than up to maxJointScan bytes again
// for every cut (text with few joints, such as code, has cuts every few
// lines).
type jointMemo struct {
	from, x int // jointAfter(text, from, last) = x, if from >= 0
	to, y   int // jointBefore(text, first, to) = y, if to >= 0
}

func (m *jointMemo) reset() { *m = jointMemo{from: -1, to: -1} }

// after returns jointAfter(text, from, to), reading only what the last
// call did not.
func (m *jointMemo) after(text string, from, to int) int {
	x := -1
	switch {
	case m.from < 0 || from < m.from || (m.x >= 0 && m.x <= from):
		x = jointAfter(text, from, to)
	case m.x > from:
		// The first joint after m.from is the first after from too,
		// and it lies within maxJointScan of m.from < from.
		x = m.x
	default:
		// None within maxJointScan of m.from: read on from there.
		if j := jointAfter(text, max(from, m.from+maxJointScan), min(to, from+maxJointScan+1)); j >= 0 {
			x = j
		}
	}
	m.from, m.x = from, x
	return x
}

// before returns jointBefore(text, from, to), reading only what the last
// call did not.
func (m *jointMemo) before(text string, from, to int) int {
	if m.to < 0 || to < m.to {
		m.to, m.y = to, jointBefore(text, from, to)
		return m.y
	}
	lo := max(from, to-maxJointScan-1) // joints lie after lo
	y := jointBefore(text, max(lo, m.to-1), to)
	if y < 0 && m.y > lo {
		// No joint from m.to on: the last before m.to is the last.
		y = m.y
	}
	m.to, m.y = to, y
	return y
}

// setJointBefore records in cd the joint before its end, whose e the
// counter has just found.
func (s *split) setJointBefore(cd *cand, c *counter) {
	if !s.exact {
		return
	}
	if y := s.joints.before(s.text, s.first, cd.end); y >= 0 {
		if n, ok := c.tokensTo(y); ok {
			cd.joints.beforeOff, cd.joints.beforeTok = uint8(cd.end-y), uint8(cd.e-n)
		}
	}
}

// setJointAfter records in cd the joint after its start, whose s the
// counter has just found.
func (s *split) setJointAfter(cd *cand, c *counter) {
	if !s.exact {
		return
	}
	if x := s.joints.after(s.text, cd.start, s.last); x >= 0 {
		if n, ok := c.tokensTo(x); ok {
			cd.joints.afterOff, cd.joints.afterTok = uint8(x-cd.start), uint8(n-cd.s)
		}
	}
}

// countChunk returns the exact count of text[start:end], a chunk that
// starts at candidate ca (or, with overlap, before it) and ends at cb:
// from their joints where they allow, else by counting it whole.
func (s *split) countChunk(ca, cb *cand, start, end int) (int, error) {
	ja, jb := ca.joints, cb.joints
	if ja.afterOff == 0 || jb.beforeOff == 0 {
		return s.count(start, end)
	}
	x, y := ca.start+int(ja.afterOff), cb.end-int(jb.beforeOff)
	if x <= start || y >= end || x > y || s.seamBetween(x, y) {
		return s.count(start, end)
	}
	head, err := s.count(start, x)
	if err != nil {
		return 0, err
	}
	tail, err := s.count(y, end)
	if err != nil {
		return 0, err
	}
	inner := (cb.e - int(jb.beforeTok)) - (ca.s + int(ja.afterTok))
	return head + inner + tail, nil
}

// seamBetween reports whether the sizing pass started a new window
// between x and y, so that their counts come from two windows.
func (s *split) seamBetween(x, y int) bool {
	i := sort.SearchInts(s.seams, x)
	return i < len(s.seams) && s.seams[i] <= y
}
