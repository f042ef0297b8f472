package chunker

import (
	"fmt"
	"slices"
	"sort"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
)

// finish turns the planned cuts into chunks. Each chunk is counted
// exactly with the Tokenizer; if the count is over MaxTokens (an estimate
// let it through), the chunk is repaired before it is returned: first its
// overlap shrinks, then its end moves back to an earlier candidate (the
// next chunk starts there instead), and a single unit that is too long
// is cut at the next weaker level. The last chunk, if it must shrink,
// leaves its tail to a new chunk. A chunk under MinTokens by exact count
// (its estimate was not) takes in the next unit while it stays within
// MaxTokens.
func (s *split) finish(cuts []int) ([]Chunk, error) {
	cfg := &s.c.cfg
	chunks := make([]Chunk, 0, len(cuts)-1)
	for k := 0; k+1 < len(cuts); k++ {
		a := cuts[k]
		opts := s.overlapOptions(chunks, a)
		for {
			b := cuts[k+1]
			start, end := s.cands[a].start, s.cands[b].end
			if len(opts) > 0 {
				start = opts[0]
			}
			n := s.tok.Count(s.text[start:end])
			if n < cfg.MinTokens && k+2 < len(cuts) && b+1 < cuts[k+2] {
				// Short by exact count, where the estimate said not: take
				// in the next unit if the chunk stays within MaxTokens.
				if s.tok.Count(s.text[start:s.cands[b+1].end]) <= cfg.MaxTokens {
					cuts[k+1] = b + 1
					continue
				}
			}
			if n <= cfg.MaxTokens {
				chunks = append(chunks, s.chunk(k, a, start, end, n))
				break
			}
			switch {
			case len(opts) > 0:
				opts = opts[1:]
			case b > a+1:
				b = s.stepBack(a, b, n-cfg.MaxTokens)
				if k+2 == len(cuts) {
					cuts = append(cuts, cuts[k+1])
				}
				cuts[k+1] = b
			default:
				added, err := s.splitUnit(a)
				if err != nil {
					return nil, err
				}
				if added == 0 {
					// The same text counted within MaxTokens a moment ago.
					return nil, fmt.Errorf("%w: %d tokens for %q", ErrTokenizer, n, clip(s.text[start:end]))
				}
				for i := k + 1; i < len(cuts); i++ {
					cuts[i] += added
				}
			}
		}
	}
	return chunks, nil
}

// chunk makes chunk k, text[start:end] of n tokens, which opens at
// candidate a.
func (s *split) chunk(k, a, start, end, n int) Chunk {
	return Chunk{
		Index: k, Start: start, End: end, Text: s.text[start:end], Tokens: n,
		Boundary: rankBoundary[s.cands[a].rank],
	}
}

// stepBack returns the candidate to end a chunk from a at instead of b,
// whose chunk is excess tokens too long: the last one whose estimate is
// at least excess tokens shorter, or at least the one before b.
func (s *split) stepBack(a, b, excess int) int {
	limit := s.cands[b].e - excess
	j := a + 1 + sort.Search(b-a-1, func(i int) bool { return s.cands[a+1+i].e > limit }) - 1
	return max(a+1, min(j, b-1))
}

// splitUnit cuts the unit after candidate a, which is too long by exact
// count although its estimate fit, at the next weaker level, and returns
// how many candidates it inserted.
func (s *split) splitUnit(a int) (int, error) {
	c := s.cands[a]
	lo, hi := c.start, s.cands[a+1].end
	lc := s.localFor(lo, hi, c.s)
	out := append(s.spare[:0], c)
	out, err := s.refine(out, lo, hi, c.unit, &lc)
	if err != nil {
		return 0, err
	}
	if len(out) == 1 {
		// The unit fits after all: the count that failed included more.
		return 0, nil
	}
	s.cands = slices.Insert(s.cands, a+1, out[1:]...)
	s.cands[a].unit = out[0].unit
	s.spare = out
	return len(out) - 1, nil
}

// overlapOptions returns the places where the chunk that starts at
// candidate a may begin so as to repeat the end of the previous chunk,
// from the longest overlap to the shortest: the starts of whole sentences
// (or stronger units), or, if not even one sentence fits, the starts of
// words. The first one counts at most OverlapTokens exactly; the others
// are there for when the chunk with that overlap would be too long. It
// returns nil without overlap.
func (s *split) overlapOptions(chunks []Chunk, a int) []int {
	limit := s.c.cfg.OverlapTokens
	if limit == 0 || len(chunks) == 0 {
		return nil
	}
	prevStart, end := chunks[len(chunks)-1].Start, s.cands[a].end
	opts := s.opts[:0]
	for c := a - 1; c > 0 && s.cands[c].start > prevStart; c-- {
		if s.cands[a].e-s.cands[c].s > limit {
			break
		}
		if r := s.cands[c].rank; r <= rSentence || r == rAfterHead {
			opts = append(opts, s.cands[c].start)
		}
	}
	slices.Reverse(opts)
	opts = s.fitOverlap(opts, end, limit)
	if len(opts) == 0 {
		opts = s.fitOverlap(s.wordOptions(opts, prevStart, end, limit), end, limit)
	}
	s.opts = opts
	return opts
}

// fitOverlap drops the longest options while their overlap is over limit
// by exact count. (Counts are not monotone: ". Romeo" can count fewer
// tokens than "Romeo", whose space no longer joins the word.)
func (s *split) fitOverlap(opts []int, end, limit int) []int {
	for len(opts) > 0 && s.tok.Count(s.text[opts[0]:end]) > limit {
		opts = opts[1:]
	}
	return opts
}

// wordOptions appends the starts of the words at the end of the previous
// chunk whose overlap is at most limit tokens by estimate, longest first.
func (s *split) wordOptions(opts []int, prevStart, end, limit int) []int {
	// Look at a few bytes per token allowed, no further back than the
	// start of the previous chunk.
	lo := max(prevStart+1, end-6*limit-8)
	for lo < end && !isRuneStart(s.text, lo) {
		lo++
	}
	tail := s.text[lo:end]
	ends := tokencount.AppendTokenEnds(s.tok, s.ends[:0], tail)
	s.ends = ends
	words := segment.Words(tail)
	if len(words) > 0 {
		words = words[1:] // it may be the tail of a word
	}
	for _, w := range words {
		// The tokens that end after the word's start.
		if len(ends)-sort.SearchInts(ends, w.Start+1) > limit {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(tail[w.Start:]); unicode.IsLetter(r) || unicode.IsNumber(r) {
			opts = append(opts, lo+w.Start)
		}
	}
	return opts
}

func isRuneStart(text string, i int) bool { return text[i]&0xC0 != 0x80 }
