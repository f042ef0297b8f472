package markdown

import (
	"strings"

	"github.com/ragkit/ragkit/internal/space"
)

// line describes one line for the scanner.
type line struct {
	start, end int // the line without its terminator
	cs         int // where its content starts, after spaces and tabs
	ind        int // the indentation, in columns (tabs stop every 4)
	tend       int // the end of its content, without trailing white space
}

// open is the block the scanner is in.
type open struct {
	Block
	active bool
	lines  int
	fence  byte // for fenced code: the fence character, 0 for indented code
	fenceN int  // and its length
}

type scanner struct {
	text    string
	lines   Lines
	out     []Block
	cur     open
	inList  bool
	indents []int // indentation of the markers of the open list items
}

func (sc *scanner) run(from int) {
	blank := false
	for i := from; i < len(sc.text); {
		end, next := sc.lines.At(i)
		l := line{start: i, end: end}
		l.cs, l.ind = indentation(sc.text, i, end)
		l.tend = space.Back(sc.text, l.cs, end)
		if space.Skip(sc.text, l.cs, end) == end {
			sc.blankLine()
			blank = true
		} else {
			sc.line(&l, blank)
			blank = false
		}
		i = next
	}
	sc.close()
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

func (sc *scanner) blankLine() {
	if sc.cur.active && sc.cur.Kind == KindCode {
		return // fenced code runs to its closing fence; indented code may resume
	}
	sc.close()
}

// close ends the open block, if any, and records it.
func (sc *scanner) close() {
	if sc.cur.active {
		sc.out = append(sc.out, sc.cur.Block)
		sc.cur.active = false
	}
}

func (sc *scanner) openBlock(kind Kind, l *line) {
	sc.close()
	start := space.Skip(sc.text, l.cs, l.tend)
	sc.cur = open{Block: Block{Start: start, End: l.tend, Kind: kind}, active: true, lines: 1}
}

func (sc *scanner) extend(l *line) {
	sc.cur.End = l.tend
	sc.cur.lines++
}

// line reads a line that is not blank: first as the open block's
// continuation, where the open block decides (code, tables, setext
// underlines of a paragraph), then as the start of a block.
func (sc *scanner) line(l *line, afterBlank bool) {
	if sc.cur.active {
		var done bool
		switch sc.cur.Kind {
		case KindCode:
			done = sc.inCode(l)
		case KindTable:
			done = sc.inTable(l)
		case KindParagraph:
			done = sc.inParagraph(l)
		case KindHTML:
			sc.extend(l) // an HTML block runs to a blank line
			done = true
		}
		if done {
			return
		}
	}
	sc.start(l, afterBlank)
}

// inCode continues a code block. It reports whether the line was taken.
func (sc *scanner) inCode(l *line) bool {
	text := sc.text
	if sc.cur.fence != 0 {
		sc.extend(l)
		if closesFence(text[l.cs:l.tend], sc.cur.fence, sc.cur.fenceN) && (l.ind < 4 || sc.inList) {
			sc.close()
		}
		return true
	}
	if l.ind >= 4 {
		sc.extend(l)
		return true
	}
	sc.close()
	return false
}

// inTable continues a table with its rows, the lines that hold a pipe.
func (sc *scanner) inTable(l *line) bool {
	if strings.IndexByte(sc.text[l.cs:l.tend], '|') >= 0 && !sc.opensBlock(l) {
		sc.extend(l)
		return true
	}
	sc.close()
	return false
}

// opensBlock reports whether l starts a fence, an ATX heading or a
// thematic break, which end a table even if they hold a pipe.
func (sc *scanner) opensBlock(l *line) bool {
	s := sc.text[l.cs:l.tend]
	shallow := l.ind < 4
	switch s[0] {
	case '`', '~':
		return (shallow || sc.inList) && fenceOpen(s, s[0]) > 0
	case '#':
		return shallow && ATXLevel(s) > 0
	case '*', '-', '_':
		return shallow && thematicBreak(s)
	}
	return false
}

// inParagraph turns a one-line paragraph with pipes into a table at its
// delimiter row, and a paragraph into a setext heading at its underline.
func (sc *scanner) inParagraph(l *line) bool {
	text := sc.text
	s := text[l.cs:l.tend]
	if l.ind < 4 && (s[0] == '=' || s[0] == '-') && setextUnderline(s) {
		sc.cur.Kind = KindHeading
		sc.cur.Depth = 1
		if s[0] == '-' {
			sc.cur.Depth = 2
		}
		sc.extend(l)
		sc.close()
		return true
	}
	if sc.cur.lines == 1 && strings.IndexByte(text[sc.cur.Start:sc.cur.End], '|') >= 0 && tableDelimiter(s) {
		sc.cur.Kind = KindTable
		sc.extend(l)
		return true
	}
	return false
}

// start reads a line that the open block did not take.
func (sc *scanner) start(l *line, afterBlank bool) {
	text := sc.text
	s := text[l.cs:l.tend]
	c := s[0]
	shallow := l.ind < 4
	switch {
	case (shallow || sc.inList) && (c == '`' || c == '~'):
		if n := fenceOpen(s, c); n > 0 {
			sc.openBlock(KindCode, l)
			sc.cur.fence, sc.cur.fenceN = c, n
			return
		}
	case shallow && c == '#':
		if d := ATXLevel(s); d > 0 {
			sc.endList()
			sc.openBlock(KindHeading, l)
			sc.cur.Depth = uint8(d)
			sc.close()
			return
		}
	case shallow && (c == '*' || c == '-' || c == '_') && thematicBreak(s):
		sc.endList()
		sc.openBlock(KindRule, l)
		sc.close()
		return
	case shallow && c == '>':
		sc.quote(l)
		return
	}
	if shallow || sc.inList {
		if n := ListMarker(s); n != 0 && (n == 1 || n == -1 || !sc.cur.active || sc.cur.Kind != KindParagraph) {
			sc.item(l)
			return
		}
	}
	if sc.cur.active {
		switch sc.cur.Kind {
		case KindParagraph, KindItem, KindItemParagraph, KindQuote:
			sc.extend(l) // a continuation line, or a lazy one (line takes an HTML block's)
			return
		}
	}
	switch {
	case sc.inList && afterBlank && l.ind >= 2:
		sc.openBlock(KindItemParagraph, l)
	case !shallow && !sc.inList:
		sc.openBlock(KindCode, l) // indented code
	case shallow && c == '<' && htmlStart(s):
		sc.endList()
		sc.openBlock(KindHTML, l)
	default:
		if afterBlank || !sc.inList {
			sc.endList()
		}
		sc.openBlock(KindParagraph, l)
	}
}

func (sc *scanner) endList() {
	sc.inList = false
	sc.indents = sc.indents[:0]
}

func (sc *scanner) quote(l *line) {
	rest := sc.text[l.cs+1 : l.tend]
	if strings.TrimLeft(rest, " \t>") == "" {
		// A line of only ">" parts the paragraphs of a quote; it stays
		// with the paragraph before it.
		if sc.cur.active && sc.cur.Kind == KindQuote {
			sc.extend(l)
			sc.close()
		} else {
			sc.endList()
			sc.openBlock(KindQuote, l)
		}
		return
	}
	if sc.cur.active && sc.cur.Kind == KindQuote {
		sc.extend(l)
		return
	}
	sc.endList()
	sc.openBlock(KindQuote, l)
}

func (sc *scanner) item(l *line) {
	if !sc.inList {
		sc.indents = sc.indents[:0]
	}
	for len(sc.indents) > 0 && sc.indents[len(sc.indents)-1] >= l.ind {
		sc.indents = sc.indents[:len(sc.indents)-1]
	}
	depth := len(sc.indents)
	sc.indents = append(sc.indents, l.ind)
	sc.inList = true
	sc.openBlock(KindItem, l)
	sc.cur.Depth = uint8(min(depth, 255))
}
