package segment

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/internal/space"
)

// isBullet reports whether r marks a list item.
func isBullet(r rune) bool {
	switch r {
	case '•', '◦', '▪', '▫', '‣', '⁃', '●', '○', '■', '□', '►', '▸', '▹', '➢', '➤', '✓', '✔', '☐', '☑', '◆', '◇':
		return true
	}
	return false
}

// isASCIIBullet reports whether c marks a list item at the start of a line
// ("- item", "* item", "+ item").
func isASCIIBullet(c byte) bool { return c == '-' || c == '*' || c == '+' }

// listMarker looks for a list marker at p, the start of a sentence: an
// optional bullet, then a number, letter or roman numeral followed by ".",
// ".)" or ")" and a space ("1. ", "• 9. ", "a) ", "iv. "). The period of the
// marker does not end a sentence. If the next marker of the same list
// ("2. ", "• 10. ", "b) ", "v. ") follows in the paragraph, a sentence ends
// before it even without a terminator ("1. The first item 2. The second
// item"). A bullet alone ("• apples • pears") works the same way.
func (sc *scanner) listMarker(p int) {
	text := sc.text
	if p >= sc.pEnd {
		return
	}
	i := p
	var bullet string
	if c := text[i]; c >= utf8.RuneSelf || isASCIIBullet(c) {
		r, n := utf8.DecodeRuneInString(text[i:])
		if isBullet(r) || (c < utf8.RuneSelf && i+1 < sc.pEnd && (text[i+1] == ' ' || text[i+1] >= '0' && text[i+1] <= '9')) {
			bullet = text[i : i+n]
			i = space.Skip(text, i+n, sc.pEnd)
		}
	}
	j := i
	for j < sc.pEnd && j-i < 6 && isASCIIAlnum(text[j]) {
		j++
	}
	tok := text[i:j]
	style := ""
	switch {
	case tok == "" || j >= sc.pEnd:
	case strings.HasPrefix(text[j:], ".)"):
		style = ".)"
	case text[j] == '.':
		style = "."
	case text[j] == ')':
		style = ")"
	}
	end := j + len(style)
	if style == "" || end >= sc.pEnd || !space.Byte(text[end]) {
		if bullet != "" && bullet[0] >= utf8.RuneSelf {
			sc.findItem(end, "", "", bullet)
		}
		return
	}
	// The next marker of the list, or two when the marker may be a letter
	// or a roman numeral ("i" is followed by "j" or "ii").
	var buf0, buf1 [8]byte
	var next [2][]byte
	switch {
	case tok[0] >= '0' && tok[0] <= '9':
		if !isListNumber(tok) {
			return
		}
		next[0] = strconv.AppendInt(buf0[:0], int64(atoi(tok)+1), 10)
	case len(tok) == 1:
		next[0] = append(buf0[:0], tok[0]+1)
		if v := romanValue(tok); v > 0 {
			next[1] = roman(buf1[:], v+1, tok[0] >= 'a')
		}
	default:
		v := romanValue(tok)
		if v == 0 {
			return
		}
		next[0] = roman(buf0[:], v+1, tok[0] >= 'a')
	}
	if style[0] == '.' {
		sc.markerDot = j
	}
	for _, n := range next {
		if len(n) > 0 {
			sc.findItem(end, string(n), style, bullet)
		}
	}
}

// maxItem bounds how far ahead the next list item is looked for, which
// keeps the scanner linear on long paragraphs of unfinished lists.
const maxItem = 4096

// findItem looks in the paragraph after from for a list item that starts
// with bullet (if any) and then marker+style followed by a space, preceded
// by white space, and sets listCut to the earliest such item. Without a
// marker it looks for the bullet alone.
func (sc *scanner) findItem(from int, marker, style, bullet string) {
	text := sc.text[:min(sc.pEnd, from+maxItem)]
	pat := marker
	if pat == "" {
		pat = bullet
	}
	for k := from; k < len(text); {
		m := strings.Index(text[k:], pat)
		if m < 0 {
			return
		}
		m += k
		k = m + len(pat)
		if !strings.HasPrefix(text[k:], style) {
			continue
		}
		if e := k + len(style); e < len(text) && !space.Byte(text[e]) {
			continue
		}
		at := m
		if marker != "" && bullet != "" {
			b := m
			for b > from && space.Byte(text[b-1]) {
				b--
			}
			if !strings.HasSuffix(text[:b], bullet) {
				continue
			}
			at = b - len(bullet)
		}
		if at <= from || !space.Byte(text[at-1]) {
			continue
		}
		if sc.listCut < 0 || at < sc.listCut {
			sc.listCut = at
		}
		return
	}
}

func isASCIIAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// lineBreak handles a single line break inside a paragraph, from i to next.
func (sc *scanner) lineBreak(i, next int) int {
	ls := sc.lineStart
	sc.lineStart = next
	if sc.newlines == NewlineSpace {
		return next
	}
	k := space.Skip(sc.text, next, sc.pEnd)
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
	s, e := space.Trim(text, ls, i)
	if s >= e || k >= sc.pEnd {
		return false
	}
	switch k1, k2 := sc.lineKind(s), sc.lineKind(k); {
	case k2 == lineQuote:
		return k1 != lineQuote // a quote goes on over its lines
	case k2 != lineText, k1 == lineQuote, k1 == lineHeading, k1 == lineTable, k1 == lineFence, k1 == lineRule:
		return true
	case k1 == lineItem:
		return sc.nextWord(k).class != wLower // an item ends, unless it goes on in lower case
	}
	if sc.noStops {
		// Without terminators, the lines are items of their own (a list,
		// an address, code) unless they are wrapped prose: a wrapped line
		// is long, and the next word did not fit on it.
		w := sc.nextWord(k)
		return e-s < shortLine || (e-s)+1+(w.end-w.pos) <= sc.width
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
	if fw := sc.nextWord(s); fw.end-fw.pos > 1 && text[fw.pos:fw.end] == text[w.pos:w.end] && fits <= sc.width {
		return true // parallel lines: "Chapter IV. ...", "Chapter V. ..."
	}
	return fits <= sc.width*4/5
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

// lineKind classifies the line whose text starts at k.
func (sc *scanner) lineKind(k int) int {
	text := sc.text
	c := text[k]
	next := byte(' ')
	if k+1 < sc.pEnd {
		next = text[k+1]
	}
	switch {
	case (c == '-' || c == '*' || c == '_' || c == '=') && sc.ruleLine(k):
		return lineRule
	case isASCIIBullet(c):
		if space.Byte(next) {
			return lineItem
		}
		return lineText
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
	case c >= utf8.RuneSelf:
		if r, _ := utf8.DecodeRuneInString(text[k:]); isBullet(r) {
			return lineItem
		}
		return lineText
	}
	j := k
	for j < sc.pEnd && j-k < 6 && isASCIIAlnum(text[j]) {
		j++
	}
	if j == k || j+1 >= sc.pEnd || !space.Byte(text[j+1]) {
		return lineText
	}
	tok := text[k:j]
	switch {
	case text[j] == ')' && (isListNumber(tok) || len(tok) == 1), text[j] == '.' && isListNumber(tok):
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
			i++
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
		j := i + n
		for j < e {
			r, n := utf8.DecodeRuneInString(text[j:e])
			if r != '.' && r != '!' && r != '?' && !isCloser(r) && !isInvisible(r) {
				break
			}
			j += n
		}
		if j < e && (text[j] == ' ' || text[j] == '\t') {
			return true
		}
		i = j
	}
	return false
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
