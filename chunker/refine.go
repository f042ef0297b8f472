package chunker

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/ragkit/ragkit/internal/space"
	"github.com/ragkit/ragkit/segment"
)

// Weak boundaries (clauses, words, graphemes, and the lines of code and
// tables) are candidates only inside a unit that does not fit in a chunk
// on its own: its estimate is above the planning capacity and its exact
// count above MaxTokens-OverlapTokens (prose) or MaxTokens (code, tables
// and HTML). A unit that fits stays whole, even if it then needs a chunk
// to itself; so a code block or table that fits in MaxTokens is never
// split, though it then has no overlap. Refinement recurses: a clause
// still too long is cut at words, a word at graphemes, and a grapheme
// longer than MaxTokens is an error.

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
	n := limit + 1
	if est := lc.size(a, b); u == uAtomic || est <= limit+est/8+16 {
		n = s.tok.Count(s.text[a:b])
	}
	if n <= limit {
		return out, nil
	}
	for ; u != uNone; u = weaker(u) {
		gaps := s.gaps(u, a, b)
		if len(gaps) == 0 {
			continue
		}
		child := weaker(u)
		out[len(out)-1].unit = child
		from, fromS := a, out[len(out)-1].s
		for _, g := range gaps {
			g.e, g.s = lc.at(g.end, g.start)
			g.unit = child
			if g.e-fromS > s.capacity {
				var err error
				if out, err = s.refine(out, from, g.end, child, lc); err != nil {
					return nil, err
				}
			}
			out = append(out, g)
			from, fromS = g.start, g.s
		}
		if end, _ := lc.at(b, b); end-fromS > s.capacity {
			return s.refine(out, from, b, child, lc)
		}
		return out, nil
	}
	if n = s.tok.Count(s.text[a:b]); n <= s.c.cfg.MaxTokens {
		return out, nil // a grapheme that fits, without overlap
	}
	return nil, fmt.Errorf("%w: %q at byte %d counts %d tokens, MaxTokens is %d",
		ErrGraphemeTooLong, clip(s.text[a:b]), a, n, s.c.cfg.MaxTokens)
}

// weaker returns the kind of the pieces that a unit of kind u is cut into.
func weaker(u unitKind) unitKind {
	switch u {
	case uProse, uAtomic:
		return uWords
	case uWords:
		return uGraphemes
	}
	return uNone
}

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

// gaps returns the cuts inside text[a:b] at the level that cuts a unit of
// kind u: clause punctuation in prose, lines in code and tables, words,
// or graphemes. Each kind has its own buffer, reused by the next call,
// since refinement recurses from one kind to the next.
func (s *split) gaps(u unitKind, a, b int) []cand {
	out := s.gapBuf[u][:0]
	switch u {
	case uProse:
		out = clauseGaps(out, s.text, a, b)
	case uAtomic:
		prev := -1
		for i := a; i < b; {
			end, next := s.lineAt(i)
			end = min(end, b)
			if cs := space.Skip(s.text, i, end); cs < end {
				if prev >= 0 {
					out = append(out, cand{end: prev, start: cs, rank: rLine})
				}
				prev = space.Back(s.text, cs, end)
			}
			i = next
		}
	case uWords:
		out = spanGaps(out, s.text, a, s.spans(segment.AppendWords, a, b), rWord)
	case uGraphemes:
		out = spanGaps(out, s.text, a, s.spans(segment.AppendGraphemes, a, b), rGrapheme)
	}
	s.gapBuf[u] = out
	return out
}

// spans returns the spans that appendSpans finds in text[a:b], in a
// buffer reused by the next call.
func (s *split) spans(appendSpans func([]segment.Span, string) []segment.Span, a, b int) []segment.Span {
	s.sents = appendSpans(s.sents[:0], s.text[a:b])
	return s.sents
}

// spanGaps appends the cuts between consecutive spans, which segment
// returns relative to a.
func spanGaps(out []cand, text string, a int, spans []segment.Span, r rank) []cand {
	for i := 1; i < len(spans); i++ {
		end, start := a+spans[i-1].End, a+spans[i].Start
		if end <= start && (len(out) == 0 || out[len(out)-1].start < start) {
			g := cand{end: end, start: start, rank: r}
			if r == rWord && strings.IndexByte(text[end:start], '\n') >= 0 {
				g.rank = rWrap
			}
			out = append(out, g)
		}
	}
	return out
}

// clauseGaps appends the cuts after clause punctuation in text[a:b]: a
// comma, semicolon or colon followed by white space, a dash, or the
// clause and sentence punctuation of scripts written without spaces.
func clauseGaps(out []cand, text string, a, b int) []cand {
	for i := a; i < b; {
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
			out = append(out, cand{end: i, start: start, rank: rClause})
			i = start
		}
	}
	return out
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
	out := s.spare[:0]
	added := false
	next := 0
	for k := range s.cands {
		out = append(out, s.cands[k])
		if next >= len(units) || units[next] != k {
			continue
		}
		next++
		u := s.cands[k].unit
		if u == uAtomic || k+1 == len(s.cands) {
			continue // code and tables that fit stay whole
		}
		a, b := s.cands[k].start, s.cands[k+1].end
		for ; u != uNone; u = weaker(u) {
			gaps := s.gaps(u, a, b)
			if len(gaps) == 0 {
				continue
			}
			lc := s.localFor(a, b, s.cands[k].s)
			out[len(out)-1].unit = weaker(u)
			for _, g := range gaps {
				g.e, g.s = lc.at(g.end, g.start)
				g.unit, g.opt = weaker(u), true
				out = append(out, g)
			}
			added = true
			break
		}
	}
	if added {
		s.spare, s.cands = s.cands, out
		s.monotone()
	} else {
		s.spare = out
	}
	return added
}
