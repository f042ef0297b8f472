package chunker

import (
	"strings"

	"github.com/ragkit/ragkit/document"

	"github.com/ragkit/ragkit/internal/markdown"
	"github.com/ragkit/ragkit/internal/space"
)

// A block is a run of text between two cuts that the block level always
// allows, trimmed of white space.
type block struct {
	start, end int
	kind       markdown.Kind // KindParagraph in plain text
	depth      uint8         // heading level, or nesting depth of a list item
	gap        rank          // rank of the cut before the block
}

// unit returns how the block's text is cut when it is too long.
func (b *block) unit() unitKind {
	switch b.kind {
	case markdown.KindCode, markdown.KindTable, markdown.KindHTML:
		return uAtomic
	case markdown.KindHeading, markdown.KindRule:
		return uWords
	}
	return uProse
}

// prose reports whether the block is prose, cut at sentences and real
// line breaks.
func (b *block) prose() bool { return b.unit() == uProse }

// lineAt returns the end of the line that starts at i (the position of its
// terminator, or s.last) and the start of the next line.
func (s *split) lineAt(i int) (end, next int) { return s.lineEnds.At(i) }

// scanText finds the paragraphs of plain text, runs of non-blank lines,
// and its headings (see document.Headings; the outline's, if the split has
// one), which are cut before as Markdown's are.
func (s *split) scanText() {
	text := s.text
	if s.outline != nil {
		s.heads = s.outline.Headings() // headingAt reslices it, never writes
	} else {
		s.heads = document.Headings(text[:s.last], document.Text)
	}
	start, end := -1, -1
	for i := s.first; i < s.last; {
		lineEnd, next := s.lineAt(i)
		if cs := space.Skip(text, i, lineEnd); cs < lineEnd {
			if start < 0 {
				start = cs
			} else if end < cs && blankLine(text, end, cs) {
				s.addTextPara(start, end)
				start = cs
			}
			end = space.Back(text, cs, lineEnd)
		}
		i = next
	}
	s.addTextPara(start, end)
}

// addTextPara adds the paragraph text[start:end], with the heading that
// opens it as a block of its own.
func (s *split) addTextPara(start, end int) {
	g := rPara
	if n := len(s.blocks); n > 0 && newlines(s.text[s.blocks[n-1].end:start]) >= 3 {
		g = rBreak
	}
	if h, ok := s.headingAt(start, end); ok {
		depth := uint8(min(h.Level, 4))
		he := space.Back(s.text, start, min(h.End, end))
		s.blocks = append(s.blocks, block{start: start, end: he, kind: markdown.KindHeading, depth: depth, gap: rH1 + rank(depth-1)})
		if start = space.Skip(s.text, he, end); start >= end {
			return
		}
		g = rAfterHead
	}
	s.blocks = append(s.blocks, block{start: start, end: end, kind: markdown.KindParagraph, gap: g})
}

// headingAt returns the heading that opens the paragraph text[start:end],
// if one does, dropping it and the headings before it from s.heads.
func (s *split) headingAt(start, end int) (document.Heading, bool) {
	for len(s.heads) > 0 {
		h := s.heads[0]
		opens := space.Skip(s.text, h.Start, end) == start
		if opens || h.Start < start {
			s.heads = s.heads[1:]
		}
		if opens || h.Start >= start {
			return h, opens
		}
	}
	return document.Heading{}, false
}

// blankLine reports whether the white space text[a:b] holds a blank line.
func blankLine(text string, a, b int) bool { return newlines(text[a:b]) >= 2 }

// newlines counts the line breaks in s: "\r\n", "\n" and a lone "\r" count
// one each.
func newlines(s string) int {
	n := strings.Count(s, "\n")
	if strings.IndexByte(s, '\r') >= 0 {
		n += strings.Count(s, "\r") - strings.Count(s, "\r\n")
	}
	return n
}
