package segment

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/internal/listmark"
	"github.com/ragkit/ragkit/internal/space"
)

// lineBreak handles a single line break inside a paragraph, from i to next.
func (sc *scanner) lineBreak(i, next int) int {
	ls := sc.lineStart
	sc.lineStart = next
	if sc.newlines == NewlineSpace {
		return next
	}
	k := skipSpace(sc.text, next, sc.pEnd)
	if sc.lineMode || sc.hardBreak(ls, i, k) {
		sc.cut(i, k)
		sc.lineStart = k
	}
	return k
}

// shortLine is the length in bytes under which a line is never the product
// of wrapping prose (text is wrapped at 60 to 80 characters).
const shortLine = 40

// hardBreak decides whether the line break between the line that starts at
// ls and ends at i and the line whose text starts at k ends a sentence.
func (sc *scanner) hardBreak(ls, i, k int) bool {
	text := sc.text
	s, e := trim(text, ls, i)
	if s >= e || k >= sc.pEnd {
		return false
	}
	switch k1, k2 := sc.lineKindAt(s), sc.lineKindAt(k); {
	case k2 == lineQuote:
		return k1 != lineQuote // a quote goes on over its lines
	case k2 != lineText, k1 == lineQuote, k1 == lineHeading, k1 == lineTable, k1 == lineFence, k1 == lineRule:
		return true
	case k1 == lineItem:
		return sc.nextWord(k).class != wLower // an item ends, unless it goes on in lower case
	}
	if sc.stopless() {
		// Without terminators, the lines are items of their own (a list,
		// an address, code) unless they are wrapped prose: a wrapped line
		// is long, and the next word did not fit on it.
		w := sc.nextWord(k)
		return e-s < shortLine || (e-s)+1+(w.end-w.pos) <= sc.lineWidth()
	}
	// A short line that looks like a heading: capitalised, no punctuation
	// at its end, and followed by a capitalised line, while the next word
	// would have fitted on it had the text been wrapped.
	le := e
	last, n := utf8.DecodeLastRuneInString(text[s:le])
	for le > s && (isCloser(last) || isInvisible(last)) { // "the Letter “S”"
		le -= n
		last, n = utf8.DecodeLastRuneInString(text[s:le])
	}
	first, _ := utf8.DecodeRuneInString(text[s:e])
	if !(unicode.IsLetter(last) || unicode.IsDigit(last)) || !(unicode.IsUpper(first) || unicode.IsDigit(first)) {
		return false
	}
	w := sc.nextWord(k)
	if w.class != wUpper && w.class != wDigit {
		return false
	}
	fits := (e - s) + 1 + (w.end - w.pos)
	if fw := sc.nextWord(s); fw.end-fw.pos > 1 && text[fw.pos:fw.end] == text[w.pos:w.end] && fits <= sc.lineWidth() {
		return true // parallel lines: "Chapter IV. ...", "Chapter V. ..."
	}
	return fits <= sc.lineWidth()*4/5
}

// Kinds of line, by how they start.
const (
	lineText    = iota
	lineItem    // "- item", "* item", "• item", "1. item", "2) item", "iv. item"
	lineHeading // "# Heading"
	lineQuote   // "> quoted"
	lineTable   // "| cell |"
	lineFence   // "```go", "~~~"
	lineRule    // "---", "***", "===" (a thematic break or setext underline)
)

// lineKindAt is lineKind, remembering the last answer: the line after
// one break is the line before the next.
func (sc *scanner) lineKindAt(k int) int {
	if k != sc.kindAt {
		sc.kindAt, sc.kind = k, sc.lineKind(k)
	}
	return sc.kind
}

// lineKind classifies the line whose text starts at k.
func (sc *scanner) lineKind(k int) int {
	text := sc.text
	c := text[k]
	if isASCIIAlnum(c) && !alnumMarker(text, k, sc.pEnd) {
		return lineText // a word: no list marker, and none of the cases below
	}
	next := byte(' ')
	if k+1 < sc.pEnd {
		next = text[k+1]
	}
	switch {
	case (c == '-' || c == '*' || c == '_' || c == '=') && sc.ruleLine(k):
		return lineRule
	case c == '#':
		if next == '#' || space.Byte(next) {
			return lineHeading
		}
		return lineText
	case c == '>':
		return lineQuote
	case c == '|':
		return lineTable
	case c == '`' || c == '~':
		if strings.HasPrefix(text[k:sc.pEnd], "```") || strings.HasPrefix(text[k:sc.pEnd], "~~~") {
			return lineFence
		}
		return lineText
	}
	if listmark.Item(text[k:sc.pEnd]) {
		return lineItem
	}
	return lineText
}

// ruleLine reports whether the line at k holds only three or more of one
// of the characters - * _ = (and spaces).
func (sc *scanner) ruleLine(k int) bool {
	text := sc.text
	c, n := text[k], 0
	for j := k; j < sc.pEnd; j++ {
		switch text[j] {
		case c:
			n++
		case ' ', '\t':
		case '\n', '\r', '\v', '\f':
			return n >= 3
		default:
			return false
		}
	}
	return n >= 3
}

// hasStop reports whether the trimmed line text[s:e] holds a sentence
// terminator followed by white space or by the end of the line, looking
// through closing quotes and brackets.
func (l *language) hasStop(text string, s, e int) bool {
	if l.lineEnds(text, s, e) {
		return true
	}
	for i := s; i < e; {
		c := text[i]
		if c != '.' && c != '!' && c != '?' && c < utf8.RuneSelf {
			i = skipPlain(text, i+1, e)
			continue
		}
		r, n := rune(c), 1
		if c >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(text[i:e])
			if isScriptStop(r) {
				return true
			}
			if r != '…' {
				i += n
				continue
			}
		}
		j := stopRun(text, i+n, e)
		if j < e && (text[j] == ' ' || text[j] == '\t') {
			return true
		}
		i = j
	}
	return false
}

// stopRun returns the end of the run of terminators, closing quotes and
// brackets and invisible characters that starts at j, before e.
func stopRun(text string, j, e int) int {
	for j < e {
		r, n := utf8.DecodeRuneInString(text[j:e])
		if r != '.' && r != '!' && r != '?' && !isCloser(r) && !isInvisible(r) {
			break
		}
		j += n
	}
	return j
}

// lineEnds reports whether the trimmed line text[s:e] ends with a sentence
// terminator, looking through closing quotes and brackets.
func (l *language) lineEnds(text string, s, e int) bool {
	for e > s {
		r, n := utf8.DecodeLastRuneInString(text[s:e])
		switch {
		case r == '.' || r == '!' || r == '?' || r == '…' || r == '‼' || isScriptStop(r):
			return true
		case r == ':' && l.colon, r == '،' && l.comma, r == ';' && l.semi:
			return true
		case isCloser(r) || isInvisible(r):
			e -= n
		default:
			return false
		}
	}
	return false
}
