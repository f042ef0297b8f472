package chunker

import (
	"math"
	"strings"
	"sync"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/internal/markdown"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
)

// A cand is a place where the planner may cut: the chunk before it ends
// at end and the chunk after it starts at start; text[end:start] is white
// space (or empty, for a cut inside a run of non-space characters).
type cand struct {
	end, start int
	e, s       int // prefix token counts at end and start; see countCands
	rank       rank
	unit       unitKind // how the text after it, up to the next cand, is cut further
	opt        bool     // optional: for balancing only, not for the count of chunks
	joints     joints   // where exact counts meet the prefix counts; see exact.go
}

// split holds the working state of one call to Split. Its buffers are
// pooled so that repeated calls allocate little.
type split struct {
	c           *Chunker
	tok         tokencount.Tokenizer
	text        string
	first, last int
	lineEnds    markdown.Lines // the lines of text[:last]
	capacity    int            // the planning size of a chunk, without overlap and margin
	exact       bool           // counts add up at anchors (see exact.go)

	blocks   []block
	cands    []cand
	spare    []cand
	extra    []cand // refined candidates waiting to be merged
	lines    []lineInfo
	sents    []segment.Span
	breaks   []cand
	spanBuf  [uNone][]segment.Span // words or graphemes of a window, by the kind they cut
	ends     []int
	seams    []int // where the sizing pass started its windows after the first
	local    []int // token ends of one unit, tokenized alone
	mdBlocks []markdown.Block
	heads    []document.Heading // plain text's headings, in order
	format   document.Format    // how text reads: Config.Format, or the document's
	outline  *document.Outline  // the document's outline, if SplitDocument has it
	plan     planner
	list     candList // the candidates while finish repairs chunks
	pieces   []cand   // the pieces of a unit that finish cuts
	opts     []int
	joints   jointMemo // see setJointAfter
}

var splitPool = sync.Pool{New: func() any { return new(split) }}

func newSplit(c *Chunker, text string, first, last int) *split {
	s := splitPool.Get().(*split)
	s.c, s.tok, s.text, s.first, s.last = c, c.cfg.Tokenizer, text, first, last
	s.lineEnds = markdown.NewLines(text[:last], strings.IndexByte(text[first:last], '\r') >= 0)
	body := c.cfg.MaxTokens - c.cfg.OverlapTokens
	s.capacity = max(1, body-min(c.margin, body/16))
	_, s.exact = c.cfg.Tokenizer.(*tokencount.BPE)
	s.blocks, s.cands = s.blocks[:0], s.cands[:0]
	return s
}

// maxPooled bounds the buffers a split keeps for the next call, in
// candidates: room for a text of several megabytes (addCands reserves one
// candidate per 32 bytes), so that Split allocates about as much per byte
// of a long text as of a short one, while the buffers of a larger one-off
// text (10 MiB of candidates and more) are dropped rather than pinned. The
// pool itself lets go of what no call reuses within two garbage
// collections.
const maxPooled = 1 << 18

func (s *split) release() {
	s.c, s.tok, s.text, s.lineEnds = nil, nil, "", markdown.Lines{}
	s.heads, s.outline = nil, nil // their titles are substrings of the text
	if cap(s.cands) > maxPooled || cap(s.spare) > maxPooled || cap(s.extra) > maxPooled ||
		cap(s.ends) > window || cap(s.local) > window || cap(s.plan.arg) > 4*maxPooled {
		*s = split{}
	}
	splitPool.Put(s)
}

// run is Split, step by step, each in its own file: the structure of the
// text (blocks.go, markdown.go), the candidate cuts (candidates.go), their
// prefix token counts (count.go), with the units too long for a chunk cut
// further (refine.go, cuts.go), the plan (plan.go), and the chunks,
// counted exactly and repaired (finish.go, overlap.go).
func (s *split) run() ([]Chunk, error) {
	if s.format == document.Markdown {
		s.scanMarkdown()
	} else {
		s.scanText()
	}
	s.addCands()
	if err := s.countCands(); err != nil {
		return nil, err
	}
	s.monotone()
	if m := len(s.cands) - 1; s.last-s.first > oneChunkBytes(s.c.cfg.MaxTokens) && s.size(0, m)-s.c.margin <= s.c.cfg.MaxTokens {
		// It may all fit in one chunk, which needs no room for overlap;
		// the exact count that proves it is the chunk's count. (Split
		// has counted a text of oneChunkBytes or less already.)
		n, err := s.countChunk(&s.cands[0], &s.cands[m], s.first, s.last)
		if err != nil {
			return nil, err
		}
		if n <= s.c.cfg.MaxTokens {
			return []Chunk{s.chunk(0, rStart, s.first, s.last, n)}, nil
		}
	}
	if s.c.cfg.Strategy == Greedy {
		return s.finish(s.plan.greedy(s))
	}
	cuts := s.plan.balanced(s)
	for round := 0; round < 4 && s.refineShort(cuts); round++ {
		cuts = s.plan.balanced(s)
	}
	return s.finish(cuts)
}

// monotone makes the prefix counts non-decreasing, which the estimates of
// units tokenized on their own may not quite be.
func (s *split) monotone() {
	e, st := 0, 0
	for i := range s.cands {
		c := &s.cands[i]
		if c.e < e || c.s < st {
			c.joints = joints{} // they were relative to the counts
		}
		e = max(e, c.e)
		st = max(st, c.s)
		c.e, c.s = e, st
	}
}

// satAdd returns a+b for non-negative a and b, or math.MaxInt where the sum
// would overflow: MaxTokens may be as large as an int goes.
func satAdd(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

// size returns the estimated tokens of the chunk from cand i to cand j.
func (s *split) size(i, j int) int { return s.cands[j].e - s.cands[i].s }
