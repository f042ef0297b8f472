package chunker

import (
	"fmt"
	"sort"
)

// finish turns the planned cuts into chunks. Each chunk is counted
// exactly with the Tokenizer; if the count is over MaxTokens (an estimate
// let it through), the chunk is repaired before it is returned: first its
// overlap shrinks, then its end moves back to an earlier candidate (the
// next chunk starts there instead), and a single unit that is too long
// is cut at the next weaker level. A chunk under MinTokens by exact count
// (its estimate was not) takes in the next unit while it stays within
// MaxTokens.
//
// A chunk whose end moved back leaves its tail to the next one. Where the
// next planned chunk cannot take the tail within capacity by estimate, it
// ends at the farthest candidate that fits instead of at its planned cut
// (and leaves its own tail to the next): otherwise, when estimates fall short chunk after chunk (as
// they do at a very small MaxTokens), the tails would pile up and every
// chunk would count a growing stretch of text.
func (s *split) finish(cuts []int) ([]Chunk, error) {
	cfg := &s.c.cfg
	s.list = candList{head: s.cands, tail: s.spare[:0]}
	defer func() { s.cands, s.spare = s.list.head, s.list.tail }()
	w := &s.list
	m := w.len() - 1
	shift := 0 // candidates inserted so far, all before the cuts still ahead
	chunks := make([]Chunk, 0, len(cuts)-1)
	for a, p := 0, 1; a < m; p++ {
		// The chunk aims at the next planned cut; a tail left by the
		// previous chunk joins it.
		p = min(p, len(cuts)-1)
		for cuts[p]+shift <= a {
			p++
		}
		b := cuts[p] + shift
		if b > a+1 && w.size(a, b) > s.capacity {
			b = s.fit(a, b)
		}
		k := len(chunks)
		opts := s.overlapOptions(chunks, a)
		known := -1 // the count of the chunk to try, where it is known
		for {
			start, end := s.startAt(a), s.endAt(b)
			if start >= end {
				// Cuts moved to the edges of one grapheme cluster
				// left nothing between them (see cutAt).
				if b < m {
					b++
					continue
				}
				return chunks, nil
			}
			if len(opts) > 0 {
				start = opts[0]
			}
			n, err := known, error(nil)
			if n < 0 {
				n, err = s.countChunk(w.at(a), w.at(b), start, end)
			}
			known = -1
			if err != nil {
				return nil, err
			}
			if n < cfg.MinTokens && p+1 < len(cuts) && b+1 < cuts[p+1]+shift {
				// Short by exact count, where the estimate said not: take
				// in the next unit if the chunk stays within MaxTokens.
				if n2, err := s.countChunk(w.at(a), w.at(b+1), start, s.endAt(b+1)); err == nil && n2 <= cfg.MaxTokens {
					b, known = b+1, n2
					continue
				}
			}
			if n <= cfg.MaxTokens {
				chunks = append(chunks, s.chunk(k, w.at(a).rank, start, end, n))
				break
			}
			switch {
			case len(opts) > 0:
				opts = opts[1:]
			case b > a+1:
				b = s.stepBack(a, b, n-cfg.MaxTokens)
			default:
				added, err := s.splitUnit(a)
				if err != nil {
					return nil, err
				}
				if added == 0 {
					// The same text counted within MaxTokens a moment ago.
					return nil, fmt.Errorf("%w: %d tokens for %q", ErrTokenizer, n, clip(s.text[start:end]))
				}
				shift += added
				m += added
				b = s.fit(a, a+1+added)
			}
		}
		a = b
	}
	return chunks, nil
}

// startAt and endAt return where a chunk that starts at candidate a, or
// ends at candidate b, starts or ends: at grapheme boundaries (see cutAt).
func (s *split) startAt(a int) int {
	c := s.list.at(a)
	_, start := cutAt(s.text, c.end, c.start)
	return start
}

func (s *split) endAt(b int) int {
	c := s.list.at(b)
	end, _ := cutAt(s.text, c.end, c.start)
	return end
}

// count returns the Tokenizer's count of text[a:b] (see count).
func (s *split) count(a, b int) (int, error) { return count(s.tok, s.text[a:b]) }

// fit returns the farthest candidate after a and before b at which a
// chunk from a fits in capacity by estimate, or a+1 if none does.
func (s *split) fit(a, b int) int {
	w := &s.list
	limit := satAdd(w.at(a).s, s.capacity)
	j := a + 1 + sort.Search(b-a-1, func(i int) bool { return w.at(a+1+i).e > limit })
	return max(a+1, j-1)
}

// chunk makes chunk k, text[start:end] of n tokens, which opens at a
// cut of rank r.
func (s *split) chunk(k int, r rank, start, end, n int) Chunk {
	return Chunk{Index: k, Start: start, End: end, Text: s.text[start:end], Tokens: n, Boundary: rankBoundary[r]}
}

// stepBack returns the candidate to end a chunk from a at instead of b,
// whose chunk is excess tokens too long: the last one whose estimate is
// at least excess tokens shorter, or at least the one before b.
func (s *split) stepBack(a, b, excess int) int {
	w := &s.list
	limit := w.at(b).e - excess
	j := a + 1 + sort.Search(b-a-1, func(i int) bool { return w.at(a+1+i).e > limit }) - 1
	return max(a+1, min(j, b-1))
}

// splitUnit cuts the unit after candidate a, which is too long by exact
// count although its estimate fit, at the next weaker level, and returns
// how many candidates it inserted.
func (s *split) splitUnit(a int) (int, error) {
	w := &s.list
	c := *w.at(a)
	lo, hi := s.startAt(a), s.endAt(a+1)
	lc := s.localFor(lo, hi, c.s)
	out := append(s.pieces[:0], c)
	out, err := s.refine(out, lo, hi, c.unit, &lc)
	if err != nil {
		return 0, err
	}
	if len(out) == 1 {
		// The unit fits after all: the count that failed included more.
		return 0, nil
	}
	w.at(a).unit = out[0].unit
	w.insertAfter(a, out[1:])
	s.pieces = out
	return len(out) - 1, nil
}

// candList holds the candidates while finish repairs chunks, which may
// insert candidates right after the start of the current chunk. The
// candidates are head followed by tail in reverse, and an insertion first
// moves the boundary between the two to the insertion point. Chunk starts
// only move forward, so the moves cost O(n) in all, where inserting into
// one slice would cost O(n) each time.
type candList struct {
	head, tail []cand
}

func (l *candList) len() int { return len(l.head) + len(l.tail) }

func (l *candList) at(i int) *cand {
	if i < len(l.head) {
		return &l.head[i]
	}
	return &l.tail[len(l.tail)-1-(i-len(l.head))]
}

// size returns the estimated tokens of the chunk from candidate i to j.
func (l *candList) size(i, j int) int { return l.at(j).e - l.at(i).s }

// insertAfter inserts cs after candidate i.
func (l *candList) insertAfter(i int, cs []cand) {
	for len(l.head) > i+1 {
		l.tail = append(l.tail, l.head[len(l.head)-1])
		l.head = l.head[:len(l.head)-1]
	}
	for len(l.head) < i+1 {
		l.head = append(l.head, l.tail[len(l.tail)-1])
		l.tail = l.tail[:len(l.tail)-1]
	}
	l.head = append(l.head, cs...)
}
