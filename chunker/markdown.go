package chunker

import (
	"strings"

	"github.com/ragkit/ragkit/internal/space"
)

// The Markdown scanner is line based, like the first phase of a CommonMark
// parser, and recognises only what decides where a chunk may be cut:
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
// opened inside a block quote is read as quote text.

// mdLine describes one line for the scanner.
type mdLine struct {
	start, end int // the line without its terminator
	cs         int // where its content starts, after spaces and tabs
	ind        int // the indentation, in columns (tabs stop every 4)
	tend       int // the end of its content, without trailing white space
}

// open is the block the scanner is in.
type open struct {
	block
	active bool
	lines  int
	fence  byte // for fenced code: the fence character, 0 for indented code
	fenceN int  // and its length
}

type mdScanner struct {
	s       *split
	cur     open
	inList  bool
	indents []int // indentation of the markers of the open list items
}

func (s *split) scanMarkdown() {
	m := mdScanner{s: s, indents: s.indents[:0]}
	text := s.text
	i := strings.LastIndexAny(text[:s.first], "\r\n") + 1
	blank := false
	for i < s.last {
		end, next := s.lineAt(i)
		l := mdLine{start: i, end: end}
		l.cs, l.ind = indentation(text, i, end)
		l.tend = space.Back(text, l.cs, end)
		if space.Skip(text, l.cs, end) == end {
			m.blankLine()
			blank = true
		} else {
			m.line(&l, blank)
			blank = false
		}
		i = next
	}
	m.close()
	s.indents = m.indents
}

// indentation returns where the content of text[i:end] starts and its
// indentation in columns.
func indentation(text string, i, end int) (int, int) {
	col := 0
	for ; i < end; i++ {
		switch text[i] {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
		default:
			return i, col
		}
	}
	return i, col
}

func (m *mdScanner) blankLine() {
	if m.cur.active && m.cur.kind == kCode {
		return // fenced code runs to its closing fence; indented code may resume
	}
	m.close()
}

// close ends the open block, if any, and records it.
func (m *mdScanner) close() {
	if m.cur.active {
		m.emit(m.cur.block)
		m.cur.active = false
	}
}

// emit records a finished block with the rank of the cut before it.
func (m *mdScanner) emit(b block) {
	blocks := m.s.blocks
	if n := len(blocks); n > 0 {
		b.gap = mdGap(&blocks[n-1], &b)
	}
	m.s.blocks = append(blocks, b)
}

func (m *mdScanner) openBlock(kind blockKind, l *mdLine) {
	m.close()
	start := space.Skip(m.s.text, l.cs, l.tend)
	m.cur = open{block: block{start: start, end: l.tend, kind: kind}, active: true, lines: 1}
}

func (m *mdScanner) extend(l *mdLine) {
	m.cur.end = l.tend
	m.cur.lines++
}

// mdGap returns the rank of the cut between two blocks.
func mdGap(prev, next *block) rank {
	switch {
	case next.kind == kHeading:
		return rH1 + rank(min(next.depth, 4)-1)
	case prev.kind == kHeading:
		return rAfterHead
	case next.kind == kItem && (prev.kind == kItem || prev.kind == kItemPara):
		if next.depth == 0 {
			return rItem
		}
		return rPara
	case next.kind == kItemPara && prev.kind != kPara:
		return rPara
	case prev.kind == next.kind && (next.kind == kPara || next.kind == kQuote):
		return rPara
	}
	return rBlock
}

func (m *mdScanner) line(l *mdLine, afterBlank bool) {
	text := m.s.text
	if m.cur.active && m.cur.kind == kCode {
		if m.cur.fence != 0 {
			if closesFence(text[l.cs:l.tend], m.cur.fence, m.cur.fenceN) && (l.ind < 4 || m.inList) {
				m.extend(l)
				m.close()
			} else if l.tend > l.cs {
				m.extend(l)
			}
			return
		}
		if l.ind >= 4 {
			m.extend(l)
			return
		}
		m.close()
	}
	c := text[l.cs]
	shallow := l.ind < 4
	switch {
	case (shallow || m.inList) && (c == '`' || c == '~'):
		if n := fenceOpen(text[l.cs:l.tend], c); n > 0 {
			m.openBlock(kCode, l)
			m.cur.fence, m.cur.fenceN = c, n
			return
		}
	case shallow && c == '#':
		if d := atxLevel(text[l.cs:l.tend]); d > 0 {
			m.endList()
			m.openBlock(kHeading, l)
			m.cur.depth = uint8(d)
			m.close()
			return
		}
	}
	if shallow && (c == '=' || c == '-') && m.cur.active && m.cur.kind == kPara && setextUnderline(text[l.cs:l.tend]) {
		m.cur.kind = kHeading
		m.cur.depth = 1
		if c == '-' {
			m.cur.depth = 2
		}
		m.extend(l)
		m.close()
		return
	}
	if shallow && (c == '*' || c == '-' || c == '_') && thematicBreak(text[l.cs:l.tend]) {
		m.endList()
		m.openBlock(kRule, l)
		m.close()
		return
	}
	if m.cur.active && m.cur.kind == kTable {
		if strings.IndexByte(text[l.cs:l.tend], '|') >= 0 {
			m.extend(l)
			return
		}
		m.close()
	}
	if m.cur.active && m.cur.kind == kPara && m.cur.lines == 1 &&
		strings.IndexByte(text[m.cur.start:m.cur.end], '|') >= 0 && tableDelimiter(text[l.cs:l.tend]) {
		m.cur.kind = kTable
		m.extend(l)
		return
	}
	if shallow && c == '>' {
		m.quote(l)
		return
	}
	if shallow || m.inList {
		if n := listMarker(text[l.cs:l.tend]); n != 0 && (n == 1 || n == -1 || !m.cur.active || m.cur.kind != kPara) {
			m.item(l)
			return
		}
	}
	if m.cur.active {
		switch m.cur.kind {
		case kPara, kItem, kItemPara, kQuote, kHTML:
			m.extend(l) // a continuation line, or a lazy one
			return
		}
	}
	switch {
	case m.inList && afterBlank && l.ind >= 2:
		m.openBlock(kItemPara, l)
	case !shallow && !m.inList:
		m.openBlock(kCode, l) // indented code
	case shallow && c == '<' && htmlStart(text[l.cs:l.tend]):
		m.endList()
		m.openBlock(kHTML, l)
	default:
		if afterBlank || !m.inList {
			m.endList()
		}
		m.openBlock(kPara, l)
	}
}

func (m *mdScanner) endList() {
	m.inList = false
	m.indents = m.indents[:0]
}

func (m *mdScanner) quote(l *mdLine) {
	text := m.s.text
	rest := text[l.cs+1 : l.tend]
	if strings.TrimLeft(rest, " \t>") == "" {
		// A line of only ">" parts the paragraphs of a quote; it stays
		// with the paragraph before it.
		if m.cur.active && m.cur.kind == kQuote {
			m.extend(l)
			m.close()
		} else {
			m.endList()
			m.openBlock(kQuote, l)
		}
		return
	}
	if m.cur.active && m.cur.kind == kQuote {
		m.extend(l)
		return
	}
	m.endList()
	m.openBlock(kQuote, l)
}

func (m *mdScanner) item(l *mdLine) {
	if !m.inList {
		m.indents = m.indents[:0]
	}
	for len(m.indents) > 0 && m.indents[len(m.indents)-1] >= l.ind {
		m.indents = m.indents[:len(m.indents)-1]
	}
	depth := len(m.indents)
	m.indents = append(m.indents, l.ind)
	m.inList = true
	m.openBlock(kItem, l)
	m.cur.depth = uint8(min(depth, 255))
}

// fenceOpen returns the length of the code fence that s opens, or 0.
func fenceOpen(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	if n < 3 || (c == '`' && strings.IndexByte(s[n:], '`') >= 0) {
		return 0
	}
	return n
}

// closesFence reports whether s closes a fence of n characters c.
func closesFence(s string, c byte, n int) bool {
	k := 0
	for k < len(s) && s[k] == c {
		k++
	}
	return k >= n && strings.TrimSpace(s[k:]) == ""
}

// atxLevel returns the level of the ATX heading s, or 0.
func atxLevel(s string) int {
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(s) && s[n] != ' ' && s[n] != '\t') {
		return 0
	}
	return n
}

// setextUnderline reports whether s is a run of = or of - alone.
func setextUnderline(s string) bool {
	for i := 1; i < len(s); i++ {
		if s[i] != s[0] {
			return false
		}
	}
	return len(s) > 0
}

// thematicBreak reports whether s is three or more *, - or _ (one kind),
// with only spaces and tabs between.
func thematicBreak(s string) bool {
	c, n := s[0], 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// tableDelimiter reports whether s is a table's delimiter row, such as
// "|---|:--:|" or "--- | ---".
func tableDelimiter(s string) bool {
	dash, pipe := false, false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '-':
			dash = true
		case '|':
			pipe = true
		case ':', ' ', '\t':
		default:
			return false
		}
	}
	return dash && pipe
}

// listMarker reports whether s starts with a list marker followed by
// white space or nothing: 1 for a bullet, -1 for an ordered marker
// numbered 1, 2 for any other ordered marker, 0 for none.
func listMarker(s string) int {
	if len(s) == 0 {
		return 0
	}
	switch s[0] {
	case '-', '+', '*':
		if len(s) == 1 || s[1] == ' ' || s[1] == '\t' {
			return 1
		}
		return 0
	}
	n := 0
	for n < len(s) && n < 10 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 0 || n > 9 || n >= len(s) || (s[n] != '.' && s[n] != ')') {
		return 0
	}
	if n+1 < len(s) && s[n+1] != ' ' && s[n+1] != '\t' {
		return 0
	}
	if s[:n] == "1" {
		return -1
	}
	return 2
}

// markerLen returns the length of the list marker that s starts with.
func markerLen(s string) int {
	if listMarker(s) == 0 {
		return 0
	}
	n := 1
	for n < len(s) && s[n-1] >= '0' && s[n-1] <= '9' {
		n++
	}
	return n
}

// htmlStart reports whether s starts like an HTML block: a tag, a closing
// tag, a comment or a processing instruction.
func htmlStart(s string) bool {
	if len(s) < 2 {
		return false
	}
	c := s[1]
	return c == '/' || c == '!' || c == '?' || (c|0x20 >= 'a' && c|0x20 <= 'z')
}
