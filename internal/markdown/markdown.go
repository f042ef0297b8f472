// Package markdown is a line-based scanner of the block structure of
// CommonMark and GitHub-flavoured Markdown, like the first phase of a
// CommonMark parser. It finds what decides where a chunk of Markdown may
// be cut and what section a byte offset belongs to:
//
//   - ATX headings ("# Title", levels 1 to 6) and setext headings (a
//     paragraph underlined with === or ---);
//   - fenced code (``` or ~~~, closed by a fence of the same character at
//     least as long, or by the end of the text) and indented code (four
//     spaces after a blank line, outside lists);
//   - GitHub tables (a header row with pipes, then a delimiter row such as
//     |---|:--:|, then the rows that contain a pipe);
//   - list items (-, + or * and 1. or 1) markers, nested by indentation),
//     with their continuation lines and later indented paragraphs;
//   - block quotes (lines starting with >), whose paragraphs are separated
//     by lines holding only >;
//   - HTML blocks (a line starting with a tag, up to a blank line) and
//     thematic breaks (***, ---, ___).
//
// Everything else is paragraph text. Inline syntax is not parsed; link
// reference definitions and front matter read as paragraphs, and a fence
// opened inside a block quote is read as quote text. Offsets are bytes;
// "\r\n", "\n" and a lone "\r" end lines.
package markdown

import (
	"strings"

	"github.com/ragkit/ragkit/internal/space"
)

// Kind is the kind of a block.
type Kind uint8

const (
	KindParagraph     Kind = iota // a paragraph of prose
	KindHeading                   // an ATX or setext heading
	KindCode                      // fenced or indented code
	KindTable                     // a GitHub-flavoured table
	KindHTML                      // an HTML block
	KindItem                      // a list item, from its marker to its first blank line
	KindItemParagraph             // a later paragraph of a list item
	KindQuote                     // a paragraph of a block quote
	KindRule                      // a thematic break
)

// A Block is a run of text of one kind, trimmed of white space.
type Block struct {
	Start, End int
	Kind       Kind
	Depth      uint8 // the level of a heading, the nesting depth of a list item
}

// A Heading is a heading of the text.
type Heading struct {
	Level      int // 1 to 6; a setext heading is 1 (===) or 2 (---)
	Start, End int // the whole heading, a setext heading's underline included
	// TitleStart and TitleEnd delimit the heading's text, without its
	// markers (the #s and a closing sequence of #s, the underline) and
	// trimmed of white space.
	TitleStart, TitleEnd int
}

// AppendBlocks appends the blocks of text[from:to] to dst and returns the
// extended slice. from must be the start of a line.
func AppendBlocks(dst []Block, text string, from, to int) []Block {
	text = text[:to]
	sc := scanner{text: text, out: dst, lines: NewLines(text, strings.IndexByte(text[from:], '\r') >= 0)}
	sc.run(from)
	return sc.out
}

// AppendHeadings appends the headings of text to dst, in order, and
// returns the extended slice. Lines that look like headings inside fenced
// or indented code and HTML blocks are not headings.
func AppendHeadings(dst []Heading, text string) []Heading {
	sc := scanner{text: text, lines: NewLines(text, strings.IndexByte(text, '\r') >= 0)}
	sc.run(0)
	for _, b := range sc.out {
		if b.Kind == KindHeading {
			dst = append(dst, sc.heading(b))
		}
	}
	return dst
}

// heading describes the heading block b.
func (sc *scanner) heading(b Block) Heading {
	h := Heading{Level: int(b.Depth), Start: b.Start, End: b.End}
	text := sc.text
	// An ATX heading is one line; a setext heading is at least two, and
	// its first may start with a '#' that opens no ATX heading ("#5\n--").
	if text[b.Start] == '#' && strings.IndexAny(text[b.Start:b.End], "\n\r") < 0 {
		s := b.Start + int(b.Depth)
		e := b.End
		// A closing sequence of #s, after white space, is not text.
		k := e
		for k > s && text[k-1] == '#' {
			k--
		}
		if k == s || text[k-1] == ' ' || text[k-1] == '\t' {
			e = k
		}
		h.TitleStart, h.TitleEnd = space.Trim(text, s, e)
		return h
	}
	// Setext: the lines before the underline.
	u := strings.LastIndexAny(text[b.Start:b.End], "\n\r")
	h.TitleStart, h.TitleEnd = space.Trim(text, b.Start, b.Start+max(u, 0))
	return h
}

// Lines finds the lines of a text. It remembers where the next line feed
// and the next carriage return lie, so that a walk over the lines in order
// reads the text once whatever its line endings: searching for the next
// '\n' from every line of a text whose lines end in a bare '\r' would read
// the rest of the text each time. Its zero value is not usable; make one
// with NewLines.
type Lines struct {
	text   string
	hasCR  bool
	lf, cr nextByte
}

// NewLines returns the Lines of text. If hasCR is false the text must hold
// no '\r' (a caller that knows saves the search for it).
func NewLines(text string, hasCR bool) Lines {
	return Lines{text: text, hasCR: hasCR, lf: nextByte{c: '\n', at: -1}, cr: nextByte{c: '\r', at: -1}}
}

// At returns the end of the line that starts at i (the position of its
// terminator, or len(text)) and the start of the next line. "\r\n",
// "\n" and a lone "\r" end lines; the "\r" of "\r\n" is white space at
// the end of its line. Calls in increasing order of i cost O(len(text)) in
// all; a call before the last one costs the distance back.
func (l *Lines) At(i int) (end, next int) {
	end = l.lf.find(l.text, i)
	next = min(end+1, len(l.text))
	if l.hasCR {
		// A lone carriage return also ends a line; the one before a
		// line feed is trailing white space.
		if k := l.cr.find(l.text, i); k+1 < end {
			return k, k + 1
		}
	}
	return end, next
}

// nextByte finds the next c in a text: text[from:at] holds no c, and at is
// len(text) or the position of a c.
type nextByte struct {
	c        byte
	from, at int
	searched int // bytes searched in all, which tests bound
}

// find returns the position of the first c at or after i, or len(text).
func (n *nextByte) find(text string, i int) int {
	switch {
	case n.at < 0 || i > n.at:
		n.from, n.at = i, len(text)
		if j := strings.IndexByte(text[i:], n.c); j >= 0 {
			n.at = i + j
		}
		n.searched += n.at - i
	case i < n.from:
		if j := strings.IndexByte(text[i:n.from], n.c); j >= 0 {
			n.at = i + j
		}
		n.searched += n.from - i
		n.from = i
	}
	return n.at
}
