package budget

import (
	"slices"

	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
)

// cutPoints are the places where one item's text may be cut, ordered by
// the length they keep, shortest first. Sentence boundaries come first in
// preference: word boundaries are offered only inside the sentence that is
// kept last (the first sentence for a cut at the end, the last one for a
// cut at the start), for when not even that sentence fits. Boundaries come
// from package segment, so a cut never splits a grapheme or a UTF-8
// sequence.
type cutPoints struct {
	tok  tokencount.Tokenizer
	text string
	side Cut
	pos  []int // byte offsets: keep text[:pos] (CutEnd) or text[pos:] (CutStart)
	// tokens is the count of the whole text.
	tokens int
	// words is how many of pos, the first ones, are word boundaries
	// inside a sentence rather than sentence boundaries.
	words int
	ends  []int // token ends of text, computed on first use
	// keep, for an item with protected spans (Item.Keep), replaces pos:
	// its cuts keep those spans longest.
	keep *keepCuts
}

func newCutPoints(tok tokencount.Tokenizer, text string, tokens int, side Cut, keep []segment.Span) *cutPoints {
	c := &cutPoints{tok: tok, text: text, tokens: tokens, side: side}
	sents := segment.Sentences(text)
	if len(sents) == 0 {
		return c
	}
	if len(keep) > 0 {
		c.keep = newKeepCuts(text, sents, keep)
		c.words = len(c.keep.words)
		return c
	}
	if side == CutStart {
		c.pos, c.words = startPoints(text, sents)
	} else {
		c.pos, c.words = endPoints(text, sents)
	}
	return c
}

// endPoints lists where text[:pos] may end, shortest first: the word ends
// inside the first sentence, then the ends of all sentences but the last.
func endPoints(text string, sents []segment.Span) (pos []int, words int) {
	first := sents[0]
	add := func(p int) {
		if p > 0 && (len(pos) == 0 || p > pos[len(pos)-1]) && p < sents[len(sents)-1].End {
			pos = append(pos, p)
		}
	}
	for _, w := range segment.Words(text[first.Start:first.End]) {
		if e := first.Start + w.End; e < first.End {
			add(e)
		}
	}
	words = len(pos)
	for _, s := range sents {
		add(s.End)
	}
	return pos, words
}

// startPoints lists where text[pos:] may start, shortest first: the word
// starts inside the last sentence, then the starts of all sentences but
// the first.
func startPoints(text string, sents []segment.Span) (pos []int, words int) {
	lastS := sents[len(sents)-1]
	add := func(p int) {
		if p < len(text) && (len(pos) == 0 || p < pos[len(pos)-1]) && p > sents[0].Start {
			pos = append(pos, p)
		}
	}
	ws := segment.Words(text[lastS.Start:lastS.End])
	for i := len(ws) - 1; i >= 0; i-- {
		if s := lastS.Start + ws[i].Start; s > lastS.Start {
			add(s)
		}
	}
	words = len(pos)
	for i := len(sents) - 1; i >= 0; i-- {
		add(sents[i].Start)
	}
	return pos, words
}

// n returns the number of cuts.
func (c *cutPoints) n() int {
	if c.keep != nil {
		return c.keep.n()
	}
	return len(c.pos)
}

// est estimates the tokens of the text kept by cut j, with its markers,
// each taken to cost markTok, from the token ends of the whole text: one
// pass of the tokenizer per cut item, however many cuts are tried.
func (c *cutPoints) est(j, markTok int) int {
	if c.keep != nil {
		return c.keep.est(j, markTok, c.tokenEnds(), c.tokens)
	}
	return c.estPos(j) + markTok
}

// tokenEnds returns the token ends of the whole text, or nil when the
// tokenizer counts more tokens than bytes (see share).
func (c *cutPoints) tokenEnds() []int {
	if c.tokens > len(c.text) {
		return nil
	}
	if c.ends == nil {
		c.ends = tokencount.AppendTokenEnds(c.tok, make([]int, 0, len(c.text)/3+1), c.text)
	}
	return c.ends
}

func (c *cutPoints) estPos(j int) int {
	if c.tokenEnds() == nil {
		return c.share(j)
	}
	p := c.pos[j]
	i, _ := slices.BinarySearch(c.ends, p+1) // tokens ending at or before p
	if c.side == CutStart {
		return len(c.ends) - i
	}
	if i == 0 || c.ends[i-1] != p {
		i++ // a token straddles the cut
	}
	return i
}

// share estimates the tokens kept by cut j as their share of the whole
// text's count by bytes. It stands in for token ends when a tokenizer
// counts more tokens than bytes, as no real one does: token ends spread
// from such counts would take memory in proportion to the count.
func (c *cutPoints) share(j int) int {
	kept := c.pos[j]
	if c.side == CutStart {
		kept = len(c.text) - kept
	}
	return int(float64(c.tokens) * float64(kept) / float64(len(c.text)))
}

// kept returns the text kept by cut j, marked.
func (c *cutPoints) kept(j int, marker string) string {
	if c.keep != nil {
		return c.keep.kept(j, marker)
	}
	p := c.pos[j]
	if c.side == CutStart {
		return marker + " " + c.text[p:]
	}
	return c.text[:p] + " " + marker
}
