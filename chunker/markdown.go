package chunker

import (
	"strings"

	"github.com/ragkit/ragkit/internal/markdown"
)

// scanMarkdown finds the blocks of Markdown text with the scanner of
// internal/markdown (its package documentation says what it recognises)
// and ranks the cut before each block.
func (s *split) scanMarkdown() {
	from := strings.LastIndexAny(s.text[:s.first], "\r\n") + 1
	s.mdBlocks = markdown.AppendBlocks(s.mdBlocks[:0], s.text, from, s.last)
	for _, mb := range s.mdBlocks {
		b := block{start: mb.Start, end: mb.End, kind: mb.Kind, depth: mb.Depth}
		if n := len(s.blocks); n > 0 {
			b.gap = mdGap(&s.blocks[n-1], &b)
		}
		s.blocks = append(s.blocks, b)
	}
}

// mdGap returns the rank of the cut between two blocks.
func mdGap(prev, next *block) rank {
	switch {
	case next.kind == markdown.KindHeading:
		return rH1 + rank(min(next.depth, 4)-1)
	case prev.kind == markdown.KindHeading:
		return rAfterHead
	case next.kind == markdown.KindItem && (prev.kind == markdown.KindItem || prev.kind == markdown.KindItemParagraph):
		if next.depth == 0 {
			return rItem
		}
		return rPara
	case next.kind == markdown.KindItemParagraph && prev.kind != markdown.KindParagraph:
		return rPara
	case prev.kind == next.kind && (next.kind == markdown.KindParagraph || next.kind == markdown.KindQuote):
		return rPara
	}
	return rBlock
}
