package chunker

import (
	"strings"
	"unicode/utf8"

	"github.com/ragkit/ragkit/internal/space"
	"github.com/ragkit/ragkit/segment"
)

// The cuts inside a unit, level by level: clauses, lines of code, words,
// graphemes and code points. Inside a long unit they are thinned: a cut
// closer than minGap bytes to the last one kept is dropped, so that a
// megabyte-long word or a sentence of a million commas makes one candidate
// per few dozen bytes rather than one per byte. Tokens never outnumber
// bytes, so the pieces between kept cuts stay far below a chunk, and the
// planner loses nothing it could use. Words and graphemes are found window
// by window, so the spans of a long unit are never all in memory at once.

// clip shortens a long string for an error message.
func clip(t string) string {
	if len(t) <= 40 {
		return t
	}
	n := 40
	for !utf8.RuneStart(t[n]) {
		n--
	}
	return t[:n] + "..."
}

// minGap returns the fewest bytes between two cuts kept when a unit of
// kind u and the given length is cut at the next level (see eachGap). Cuts
// between words, graphemes and code points, which are not worth a
// separate candidate each, are always thinned; clauses and lines only in a
// unit several chunks long.
func (s *split) minGap(u unitKind, length int) int {
	if u == uProse || u == uAtomic {
		if length/4 <= s.c.cfg.MaxTokens {
			return 0
		}
	}
	return s.capacity / 32
}

// eachGap calls fn, in order, for the cuts inside text[a:b] at the level
// that cuts a unit of kind u: clause punctuation in prose, lines in code
// and tables, words, graphemes, or code points. A cut closer than minGap
// bytes to the previous one passed to fn (or to a) is skipped, unless a
// piece of minGap bytes or more follows it.
func (s *split) eachGap(u unitKind, a, b, minGap int, fn func(cand) error) error {
	th := thinner{last: a, minGap: minGap, fn: fn}
	if err := s.eachCut(u, a, b, th.add); err != nil {
		return err
	}
	return th.flush(b)
}

// thinner passes on the cuts that are at least minGap bytes after the last
// one it passed on, and also a skipped cut that a long piece follows, so
// that a long piece (a huge word after a few short ones) is always parted
// from its short neighbours.
type thinner struct {
	last, minGap int
	pending      cand
	held         bool
	fn           func(cand) error
}

func (t *thinner) add(g cand) error {
	if err := t.flush(g.end); err != nil {
		return err
	}
	if g.end-t.last < t.minGap {
		t.pending, t.held = g, true
		return nil
	}
	t.last = g.start
	return t.fn(g)
}

// flush passes on the held cut if the piece after it, up to end, is long.
func (t *thinner) flush(end int) error {
	if !t.held {
		return nil
	}
	t.held = false
	if end-t.pending.start < t.minGap {
		return nil
	}
	t.last = t.pending.start
	return t.fn(t.pending)
}

// eachCut calls fn, in order, for every cut inside text[a:b] at the level
// that cuts a unit of kind u.
func (s *split) eachCut(u unitKind, a, b int, fn func(cand) error) error {
	switch u {
	case uProse:
		return eachClause(s.text, a, b, fn)
	case uAtomic:
		prev := -1
		for i := a; i < b; {
			end, next := s.lineAt(i)
			end = min(end, b)
			if cs := space.Skip(s.text, i, end); cs < end {
				if prev >= 0 {
					if err := fn(cand{end: prev, start: cs, rank: rLine}); err != nil {
						return err
					}
				}
				prev = space.Back(s.text, cs, end)
			}
			i = next
		}
		return nil
	case uWords:
		return s.eachSpanGap(u, segment.AppendWords, a, b, rWord, fn)
	case uGraphemes:
		return s.eachSpanGap(u, segment.AppendGraphemes, a, b, rGrapheme, fn)
	case uRunes:
		// A white space character goes with the code point after it (or,
		// last in the unit, before it): alone at the edge of a chunk it
		// would be trimmed away (see cutAt).
		prevSpace := false
		for i := a; i < b; {
			r, n := utf8.DecodeRuneInString(s.text[i:b])
			sp := space.Rune(r)
			if i > a && !prevSpace && (!sp || space.Skip(s.text, i, b) < b) {
				if err := fn(cand{end: i, start: i, rank: rRune}); err != nil {
					return err
				}
			}
			prevSpace = sp
			i += n
		}
	}
	return nil
}

// spanWindow is how many bytes of a unit are segmented at a time.
const spanWindow = 1 << 16

// eachSpanGap calls fn for the cuts between the consecutive spans that
// appendSpans finds in text[a:b] (words or graphemes). The unit is
// segmented in windows: each window's last span, which the window's end may
// have cut short, is segmented again as the start of the next window.
// Each kind has its own buffer, since refinement recurses from words to
// graphemes while the words of a window are being walked.
func (s *split) eachSpanGap(u unitKind, appendSpans func([]segment.Span, string) []segment.Span, a, b int, r rank, fn func(cand) error) error {
	prevEnd := -1
	for w0 := a; w0 < b; {
		w1 := min(b, w0+spanWindow)
		spans := appendSpans(s.spanBuf[u][:0], s.text[w0:w1])
		for w1 < b && len(spans) < 2 {
			w1 = min(b, w0+2*(w1-w0)) // one span fills the window: widen it
			spans = appendSpans(spans[:0], s.text[w0:w1])
		}
		s.spanBuf[u] = spans
		next := b
		if w1 < b {
			next = w0 + spans[len(spans)-1].Start
			spans = spans[:len(spans)-1]
		}
		for _, sp := range spans {
			end, start := w0+sp.End, w0+sp.Start
			if prevEnd >= 0 {
				g := cand{end: prevEnd, start: start, rank: r}
				if r == rWord && strings.IndexByte(s.text[prevEnd:start], '\n') >= 0 {
					g.rank = rWrap
				}
				if err := fn(g); err != nil {
					return err
				}
			}
			prevEnd = end
		}
		w0 = next
	}
	return nil
}

// clauseLead marks the bytes that can start the clause punctuation of
// eachClause: , ; : and the first bytes of the UTF-8 encodings of the
// dashes (E2) and of the CJK punctuation (E3, EF).
var clauseLead = [256]bool{',': true, ';': true, ':': true, 0xE2: true, 0xE3: true, 0xEF: true}

// eachClause calls fn for the cuts after clause punctuation in text[a:b]: a
// comma, semicolon or colon followed by white space, a dash, or the
// clause and sentence punctuation of scripts written without spaces.
func eachClause(text string, a, b int, fn func(cand) error) error {
	for i := a; i < b; {
		for i < b && !clauseLead[text[i]] {
			i++ // most bytes cannot start clause punctuation
		}
		if i >= b {
			break
		}
		r, n := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(text[i:b])
		}
		i += n
		cut := false
		switch r {
		case ',', ';', ':':
			if i < b {
				cut, _ = space.At(text, i)
			}
		case '—', '–', '，', '、', '；', '：', '。', '！', '？':
			cut = true
		}
		if !cut || i >= b {
			continue
		}
		start := space.Skip(text, i, b)
		if start < b {
			if err := fn(cand{end: i, start: start, rank: rClause}); err != nil {
				return err
			}
			i = start
		}
	}
	return nil
}
