package segment

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/internal/space"
)

// scanner finds the sentences of one text, paragraph by paragraph.
type scanner struct {
	text     string
	dst      []Span
	lang     *language
	abbrevs  map[string]abbrKind
	punkt    *punktModel
	newlines NewlineMode

	// The current paragraph.
	pEnd     int
	lineMode bool // every line break ends a sentence
	noStops  bool // the paragraph holds no sentence terminator
	width    int  // the width the paragraph's lines seem wrapped at

	// The current sentence.
	start     int
	lineStart int // start of the current line
	depth     int // open CJK brackets
	qdepth    int // open „…“ and «…» quotations (languages with quotes)
	markerDot int // index of the period of a list marker at the start, or -1
	listCut   int // where the next item of a list begins, or -1
}

func (sc *scanner) paragraph(p paragraph) {
	sc.pEnd = p.end
	sc.width = p.width(sc.text)
	sc.lineMode = sc.newlines == NewlineBreak
	sc.noStops = !p.terminated
	sc.lineStart = p.start
	sc.listCut = -1
	sc.begin(p.start)
	text := sc.text
	class := &sc.lang.class
	fast := !sc.lang.colon && !sc.lang.semi
	for i := p.start; i < sc.pEnd; {
		if i == sc.listCut {
			sc.cut(i, i)
			continue
		}
		limit := sc.pEnd
		if sc.listCut > i {
			limit = sc.listCut
		}
		c := text[i]
		k := class[c]
		if k == cNone {
			i++
			if fast {
				i = skipPlain(text, i, limit)
			}
			continue
		}
		switch k {
		case cDot:
			i = sc.period(i)
		case cBang:
			i = sc.bang(i, i+1)
		case cBreak:
			_, next, _ := breakAt(text, i)
			i = sc.lineBreak(i, next)
		case cColon:
			i = sc.colon(i)
		case cSemi:
			i = sc.bang(i, i+1)
		default:
			i = sc.high(i)
		}
		if sc.listCut >= 0 && i > sc.listCut {
			// A decision skipped past the start of the next list item
			// without cutting there; the item starts a sentence anyway
			// unless a cut happened after it.
			if sc.start <= sc.listCut {
				sc.cut(sc.listCut, sc.listCut)
			} else {
				sc.listCut = -1
			}
		}
	}
	sc.dst = appendTrimmed(sc.dst, text, sc.start, sc.pEnd)
}

// skipPlain returns the first index at or after i, and before end, whose
// 8-byte word may hold a byte the scanner looks at: '.', '!', '?', a control
// character (line breaks) or any byte of a multi-byte rune. It does not look
// at the last few bytes before end; the caller's loop does.
func skipPlain(text string, i, end int) int {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	for i+8 <= end {
		w := load64(text, i)
		hasByte := func(c uint64) uint64 { x := w ^ (ones * c); return (x - ones) &^ x & high }
		if w&high != 0 || (w-ones*0x0E)&^w&high != 0 || hasByte('.')|hasByte('!')|hasByte('?') != 0 {
			return i
		}
		i += 8
	}
	return i
}

// cut ends the current sentence at end and starts the next one at next.
func (sc *scanner) cut(end, next int) {
	sc.dst = appendTrimmed(sc.dst, sc.text, sc.start, end)
	sc.begin(space.Skip(sc.text, next, sc.pEnd))
}

// begin starts a sentence at p and looks for a list marker there.
func (sc *scanner) begin(p int) {
	sc.start = p
	sc.depth = 0
	sc.qdepth = 0
	sc.markerDot = -1
	if sc.listCut >= 0 && sc.listCut <= p {
		sc.listCut = -1
	}
	sc.listMarker(p)
}

// high handles a multi-byte rune that may matter.
func (sc *scanner) high(i int) int {
	r, n := utf8.DecodeRuneInString(sc.text[i:])
	switch {
	case isScriptStop(r):
		return sc.scriptStop(i, i+n)
	case r == '．': // full-width period: a decimal point between digits
		if sc.prevIsDigit(i) && sc.nextIsDigit(i+n) {
			return i + n
		}
		return sc.scriptStop(i, i+n)
	case r == '…':
		return sc.ellipsis(i, i+n)
	case r == '‼' || r == '⁇' || r == '⁈' || r == '⁉' || r == ';':
		return sc.bang(i, i+n)
	case r == '\u0085' || r == '\u2028':
		return sc.lineBreak(i, i+n)
	case r == '،' && sc.lang.comma:
		return sc.arabicComma(i, i+n)
	case isCJKOpen(r):
		if sc.closes(i+n, cjkPair(r)) {
			sc.depth++
		}
	case isCJKClose(r):
		if sc.depth > 0 {
			sc.depth--
		}
	case sc.lang.quotes && (r == '„' || r == '«'):
		if sc.closes(i+n, quotePair(r)) {
			sc.qdepth++
		}
	case sc.lang.quotes && (r == '“' || r == '»'):
		if sc.qdepth > 0 {
			sc.qdepth--
		}
	}
	return i + n
}

// maxQuote bounds how far a quotation or bracket is looked for its end.
const maxQuote = 4096

// closes reports whether close follows within the paragraph (and within
// maxQuote bytes): a quotation that is never closed must not keep a whole
// paragraph from being split.
func (sc *scanner) closes(from int, close rune) bool {
	end := min(sc.pEnd, from+maxQuote)
	return strings.ContainsRune(sc.text[from:end], close)
}

func cjkPair(open rune) rune {
	switch open {
	case '「':
		return '」'
	case '『':
		return '』'
	case '《':
		return '》'
	case '〈':
		return '〉'
	case '【':
		return '】'
	case '〔':
		return '〕'
	case '〖':
		return '〗'
	case '（':
		return '）'
	case '［':
		return '］'
	case '｛':
		return '｝'
	}
	return '｣'
}

func quotePair(open rune) rune {
	if open == '«' {
		return '»'
	}
	return '“'
}

// stop ends the sentence at e, the next one starting at k, unless a
// quotation is open.
func (sc *scanner) stop(e, k int) bool {
	if sc.qdepth > 0 {
		return false
	}
	sc.cut(e, k)
	return true
}

// arabicComma handles '،' in Arabic, where it often ends a sentence: it
// does, unless it separates the items of a list ("الدم، والقلب،").
func (sc *scanner) arabicComma(i, j int) int {
	e, k, spaced := sc.after(j)
	if e >= sc.pEnd || !spaced {
		return e
	}
	w := sc.nextWord(k)
	return sc.stopIf(!strings.HasPrefix(sc.text[w.end:], "،"), e, k)
}

// isScriptStop reports whether r ends sentences in its script, whatever
// follows: CJK and full-width stops, the Devanagari danda, the Arabic
// question mark and Urdu full stop, the Armenian, Ethiopic, Myanmar and Khmer
// full stops.
func isScriptStop(r rune) bool {
	switch r {
	case '。', '！', '？', '｡', '।', '॥', '؟', '۔', '։', '።', '፧', '፨', '။', '។', '៕':
		return true
	}
	return false
}

func isCJKOpen(r rune) bool {
	switch r {
	case '「', '『', '《', '〈', '【', '〔', '〖', '（', '［', '｛', '｢':
		return true
	}
	return false
}

func isCJKClose(r rune) bool {
	switch r {
	case '」', '』', '》', '〉', '】', '〕', '〗', '）', '］', '｝', '｣':
		return true
	}
	return false
}

// isCloser reports whether r may follow a sentence terminator and belong to
// the sentence: closing quotes and brackets.
func isCloser(r rune) bool {
	switch r {
	case '"', '\'', ')', ']', '}', '’', '”', '»', '›', '〉', '》', '」', '』', '】', '〕', '〗', '〙', '〛', '）', '］', '｝', '｣', '〞', '〟':
		return true
	}
	return false
}

// isInvisible reports whether r is a format character (bidirectional
// controls, zero-width characters, soft hyphen) that the rules look through.
func isInvisible(r rune) bool {
	return r == '\u00AD' || (r >= '\u200B' && r <= '\u200F') || (r >= '\u202A' && r <= '\u202E') ||
		(r >= '\u2060' && r <= '\u2069') || r == '\uFEFF'
}

// closers returns the index after the closing quotes and brackets (and
// invisible characters) that start at j, and after a bracketed reference
// such as "[12]" or superscript digits right after them, which belong to
// the sentence that ends there.
func (sc *scanner) closers(j int) int {
	text := sc.text
	for j < sc.pEnd {
		c := text[j]
		if c < utf8.RuneSelf {
			if c == '"' || c == '\'' || c == ')' || c == ']' || c == '}' {
				j++
				continue
			}
			if c == '[' {
				if k := reference(text, j, sc.pEnd); k > j {
					j = k
					continue
				}
			}
			return j
		}
		r, n := utf8.DecodeRuneInString(text[j:])
		switch {
		case isCJKClose(r):
			if sc.depth > 0 {
				sc.depth--
			}
		case sc.lang.quotes && (r == '“' || r == '»'):
			if sc.qdepth > 0 {
				sc.qdepth--
			}
		case isCloser(r), r == '“', r == '‘', isInvisible(r), r == '¹', r == '²', r == '³', r >= '⁰' && r <= '⁹':
		default:
			return j
		}
		j += n
	}
	return j
}

// reference returns the index after a footnote reference "[12]", "[3, 4]"
// or "[a]" at text[j], or j.
func reference(text string, j, end int) int {
	k := j + 1
	for k < end && k-j < 12 {
		c := text[k]
		switch {
		case c == ']':
			if k > j+1 {
				return k + 1
			}
			return j
		case c >= '0' && c <= '9', c == ',', c == ' ', c == '-', c >= 'a' && c <= 'z' && k == j+1:
			k++
		default:
			return j
		}
	}
	return j
}

// word describes the word after a possible boundary.
type word struct {
	pos, end int // the letters of the word: text[pos:end]
	class    int
	initial  bool // a single letter followed by a period
}

// Word classes.
const (
	wEnd    = iota // nothing follows
	wLower         // starts with a lower-case letter
	wUpper         // upper or title case
	wNoCase        // a letter of a script without case (CJK, Arabic, Devanagari)
	wDigit
	wCont  // punctuation that continues a sentence: , ; : ) and closing quotes
	wOther // any other symbol: bullets, currency, dashes followed by a symbol
)

// nextWord classifies what comes at k, looking through opening quotes and
// brackets and through dashes.
func (sc *scanner) nextWord(k int) word {
	text := sc.text
	for steps := 0; k < sc.pEnd && steps < 8; steps++ {
		r, n := rune(text[k]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(text[k:])
		}
		switch {
		case r == '"' || r == '\'' || r == '(' || r == '[' || r == '{' || r == '“' || r == '‘' || r == '«' ||
			r == '‹' || r == '¿' || r == '¡' || r == '„' || r == '‚' || r == '「' || r == '『' || r == '（' ||
			r == '《' || r == '〈' || r == '【' || isInvisible(r):
			k += n
			continue
		case (r == '’' || r == '\'') && k+n < sc.pEnd && isASCIIAlnum(text[k+n]):
			k += n // an elision: "’Tis"
			continue
		case r == '-' || r == '–' || r == '—':
			k = space.Skip(text, k+n, sc.pEnd)
			continue
		case r == ',' || r == ';' || r == ':' || r == ')' || r == ']' || r == '}' || r == '%' || r == '/' ||
			r == '’' || r == '”' || r == '»' || r == '›' || r == '」' || r == '』' || r == '）':
			return word{pos: k, end: k, class: wCont}
		}
		w := word{pos: k, class: wOther}
		switch {
		case unicode.IsUpper(r) || unicode.IsTitle(r):
			w.class = wUpper
		case unicode.IsLower(r):
			w.class = wLower
		case unicode.IsDigit(r):
			w.class = wDigit
		case unicode.IsLetter(r):
			w.class = wNoCase
		default:
			return w
		}
		e := k + n
		for e < sc.pEnd {
			r, n := rune(text[e]), 1
			if r >= utf8.RuneSelf {
				r, n = utf8.DecodeRuneInString(text[e:])
			}
			if !unicode.IsLetter(r) && !unicode.IsMark(r) && !unicode.IsDigit(r) {
				break
			}
			e += n
		}
		w.end = e
		if w.class == wUpper && e < sc.pEnd && text[e] == '.' && utf8.RuneCountInString(text[k:e]) == 1 {
			w.initial = true
		}
		return w
	}
	return word{pos: k, end: k, class: wEnd}
}

// lower writes the lower-case form of s into buf and returns it, or ""
// if it does not fit.
func lower(buf []byte, s string) []byte {
	out := buf[:0]
	for _, r := range s {
		if r < utf8.RuneSelf {
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			if len(out) == cap(out) {
				return nil
			}
			out = append(out, byte(r))
			continue
		}
		r = unicode.ToLower(r)
		if len(out)+utf8.RuneLen(r) > cap(out) {
			return nil
		}
		out = utf8.AppendRune(out, r)
	}
	return out
}

// starter reports whether w often opens a sentence.
func (sc *scanner) starter(w word) bool {
	if w.class != wUpper || w.initial {
		return false
	}
	var buf [24]byte
	b := lower(buf[:], sc.text[w.pos:w.end])
	if b == nil {
		return false
	}
	if sc.lang.starters[string(b)] {
		return true
	}
	return sc.punkt != nil && sc.punkt.starters[string(b)]
}

// ortho returns the Punkt orthographic flags of w, or 0.
func (sc *scanner) ortho(w word) uint8 {
	if sc.punkt == nil {
		return 0
	}
	var buf [32]byte
	b := lower(buf[:], sc.text[w.pos:w.end])
	if b == nil {
		return 0
	}
	return sc.punkt.ortho[string(b)]
}

// common reports whether the capitalised word w is an ordinary word that
// was capitalised because it opens a sentence: Punkt saw it in lower case.
func (sc *scanner) common(w word) bool {
	return sc.starter(w) || (w.class == wUpper && !w.initial && sc.ortho(w)&orthoLc != 0)
}

// punktStarter is Punkt's orthographic heuristic: a capitalised word that
// occurs in lower case and never capitalised inside a sentence starts one.
func (sc *scanner) punktStarter(w word) bool {
	if w.class != wUpper || w.initial {
		return false
	}
	f := sc.ortho(w)
	return f&orthoLc != 0 && f&orthoMidUc == 0
}

func (sc *scanner) prevIsDigit(i int) bool {
	if i <= sc.start {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(sc.text[sc.start:i])
	return unicode.IsDigit(r)
}

func (sc *scanner) nextIsDigit(i int) bool {
	if i >= sc.pEnd {
		return false
	}
	r, _ := utf8.DecodeRuneInString(sc.text[i:])
	return unicode.IsDigit(r)
}

// after looks at what follows a terminator cluster that ends at j: it
// returns the end of the sentence if it ends there (after closing quotes and
// brackets), the start of what follows, and whether white space separates
// them.
func (sc *scanner) after(j int) (e, k int, spaced bool) {
	e = sc.closers(j)
	if e >= sc.pEnd {
		return e, e, true
	}
	k = sc.skipSpaceTrackLines(e)
	return e, k, k > e
}

// skipSpaceTrackLines is skipSpace that notes the line breaks it passes.
func (sc *scanner) skipSpaceTrackLines(i int) int {
	k := space.Skip(sc.text, i, sc.pEnd)
	for j := i; j < k; j++ {
		if ok, next, _ := breakAt(sc.text, j); ok {
			sc.lineStart = next
			j = next - 1
		}
	}
	return k
}

// stopIf ends the sentence at e, the next one starting at k, if ok and no
// quotation is open. It returns where scanning goes on.
func (sc *scanner) stopIf(ok bool, e, k int) int {
	if ok && sc.stop(e, k) {
		return k
	}
	return e
}

// bang handles '!' and '?' (and other question and exclamation marks) at
// text[i:j]: a boundary unless a lower-case word or continuing punctuation
// follows ("Yahoo! in", "“Why?” she asked").
func (sc *scanner) bang(i, j int) int {
	j = sc.terminatorRun(j)
	e, k, spaced := sc.after(j)
	if e >= sc.pEnd {
		return e
	}
	if !spaced {
		return e
	}
	c := sc.nextWord(k).class
	return sc.stopIf(c != wLower && c != wCont, e, k)
}

// terminatorRun returns the end of a run of terminators that starts at j.
func (sc *scanner) terminatorRun(j int) int {
	text := sc.text
	for j < sc.pEnd {
		c := text[j]
		if c == '.' || c == '!' || c == '?' {
			j++
			continue
		}
		if c < utf8.RuneSelf {
			return j
		}
		r, n := utf8.DecodeRuneInString(text[j:])
		if !isScriptStop(r) && r != '…' && r != '‼' && r != '⁇' && r != '⁈' && r != '⁉' {
			return j
		}
		j += n
	}
	return j
}

// colon handles ':' in languages where it ends sentences: like '!', but
// only before white space (not "05:01").
func (sc *scanner) colon(i int) int { return sc.bang(i, i+1) }

// scriptStop handles a terminator that ends a sentence whatever follows,
// unless it is inside CJK brackets ("《摔跤吧！爸爸》").
func (sc *scanner) scriptStop(i, j int) int {
	inside := sc.depth > 0
	j = sc.terminatorRun(j)
	e, k, _ := sc.after(j)
	if inside || e >= sc.pEnd {
		return e
	}
	sc.cut(e, k)
	return k
}

// ellipsis handles "..", "...", "...." and "…" at text[i:j]: a boundary
// before a capitalised word, but never inside brackets ("[...]").
func (sc *scanner) ellipsis(i, j int) int {
	j = sc.terminatorRun(j)
	if i > sc.start && (sc.text[i-1] == '[' || sc.text[i-1] == '(') {
		return j
	}
	e, k, spaced := sc.after(j)
	if e >= sc.pEnd || !spaced {
		return e
	}
	c := sc.nextWord(k).class
	return sc.stopIf(c == wUpper || c == wNoCase, e, k)
}

// spacedEllipsis handles ". . ." and ". . . ." starting at i. Three spaced
// dots mark an omission inside a sentence. Four end one: after the last dot
// if they stand apart ("period . . . . Next"), or after the first if it is
// attached to the word before ("compounds. . . . The practice"), the other
// three opening the next sentence.
func (sc *scanner) spacedEllipsis(i int) int {
	text := sc.text
	dots, j := 1, i+1
	for j+1 < sc.pEnd && text[j] == ' ' && text[j+1] == '.' {
		dots++
		j += 2
	}
	j = sc.terminatorRun(j)
	if dots < 4 {
		return j
	}
	e, k, spaced := sc.after(j)
	if e >= sc.pEnd || !spaced {
		return e
	}
	if c := sc.nextWord(k).class; c != wUpper && c != wNoCase {
		return e
	}
	if attached := i > sc.start && !space.Byte(text[i-1]); attached {
		sc.stop(i+1, i+1)
		return e
	}
	return sc.stopIf(true, e, k)
}

// period handles a '.' at text[i].
func (sc *scanner) period(i int) int {
	text := sc.text
	j := i + 1
	if j < sc.pEnd && text[j] == '.' {
		return sc.ellipsis(i, j)
	}
	if j+1 < sc.pEnd && text[j] == ' ' && text[j+1] == '.' && (j+2 >= sc.pEnd || text[j+2] != '.') {
		return sc.spacedEllipsis(i)
	}
	if j < sc.pEnd && (text[j] == '!' || text[j] == '?') { // "Km.?"
		return sc.bang(i, j)
	}
	e, k, spaced := sc.after(j)
	if e >= sc.pEnd {
		return e
	}
	if !spaced {
		if e == j && sc.glued(i) && sc.stop(j, j) {
			return j
		}
		return e
	}
	return sc.stopIf(sc.periodEnds(i, sc.nextWord(k)), e, k)
}
