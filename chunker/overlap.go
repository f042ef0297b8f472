package chunker

import (
	"slices"
	"sort"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
)

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
	w := &s.list
	prevStart, end := chunks[len(chunks)-1].Start, s.endAt(a)
	opts := s.opts[:0]
	for c := a - 1; c > 0 && w.at(c).start > prevStart; c-- {
		if w.at(a).e-w.at(c).s > limit {
			break
		}
		if r := w.at(c).rank; r <= rSentence || r == rAfterHead {
			opts = append(opts, s.startAt(c))
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
	lo := prevStart + 1
	if limit < (end-lo)/6 {
		lo = max(lo, end-6*limit-8)
	}
	for lo < end && !utf8.RuneStart(s.text[lo]) {
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
			opts = append(opts, clusterStart(s.text, lo+w.Start))
		}
	}
	return opts
}
