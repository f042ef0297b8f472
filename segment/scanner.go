package segment

// scanner finds the sentences of one text, paragraph by paragraph.
type scanner struct {
	text     string
	dst      []Span
	lang     *language
	abbrevs  *abbrevTable
	punkt    *punktModel
	newlines NewlineMode
	breaks   breakFinder // of text

	// The current paragraph.
	pStart    int
	pEnd      int
	para      paragraph
	lowerMode int8 // lower-case text: 0 not yet known, 1 yes, -1 no
	stopMode  int8 // the paragraph holds a sentence terminator: 0 not yet known, 1 yes, -1 no
	lineMode  bool // every line break ends a sentence
	width     int  // the width the paragraph's lines seem wrapped at, or -1 if not yet known
	kindAt    int  // where the line lineKindAt last classified starts, or -1
	kind      int  // its kind

	// The current sentence.
	start     int
	lineStart int // start of the current line
	depth     int // open CJK brackets
	qdepth    int // open „…“ and «…» quotations (languages with quotes)
	markerDot int // index of the period of a list marker at the start, or -1
	listCut   int // where the next item of a list begins, or -1
}

func (sc *scanner) paragraph(p paragraph) {
	sc.pStart, sc.pEnd = p.start, p.end
	sc.para = p
	sc.lowerMode = 0
	sc.stopMode = 0
	sc.width = -1
	sc.kindAt = -1
	sc.lineMode = sc.newlines == NewlineBreak
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
			if c == 0xE2 && punctuation(text, i) && !sc.lang.quotes {
				i += 3 // the commonest: a curly quote or a dash
				continue
			}
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

// stopless reports whether no line of the current paragraph holds a
// sentence terminator. Only the rules for line breaks in NewlineAuto mode
// ask, and only where a line break is not structure, so it is worked out
// the first time they do.
func (sc *scanner) stopless() bool {
	if sc.stopMode == 0 {
		sc.stopMode = -1
		if sc.para.terminated(sc.text, sc.lang) {
			sc.stopMode = 1
		}
	}
	return sc.stopMode < 0
}

// lineWidth returns the width the lines of the current paragraph seem
// wrapped at, worked out the first time a rule asks.
func (sc *scanner) lineWidth() int {
	if sc.width < 0 {
		sc.width = sc.para.width(sc.text, sc.breaks)
	}
	return sc.width
}

// punctuation reports whether text[i:] starts with one of U+2000 to
// U+2025 (spaces, dashes, curly quotes, daggers, bullets), none of which
// high acts on outside the languages with quotation rules.
func punctuation(text string, i int) bool {
	return i+2 < len(text) && text[i+1] == 0x80 && text[i+2] >= 0x80 && text[i+2] < 0xA6
}

// skipPlain returns the first index at or after i, and before end, of a
// byte the scanner may look at: '.', '!', '?', a control character below
// 0x0E (line breaks) or any byte of a multi-byte rune. It does not look at
// the last few bytes before end, and returns the index of the first of
// them; the caller's loop does.
func skipPlain(text string, i, end int) int {
	for ; i+8 <= end; i += 8 {
		if t := plainStops(load64(text, i)); t != 0 {
			return i + firstMarked(t)
		}
	}
	return i
}

// plainStops marks the bytes of w that skipPlain stops at: below 0x0E, one
// of the three terminators (a zero byte of d, b or q) or high (at least two
// of d, b and q are then above 0x80). No other byte of d, b or q reaches
// 0x80 when one is subtracted, which is why the usual zero-byte test needs
// no "&^ d" here.
func plainStops(w uint64) uint64 {
	d, b, q := w^(lowBytes*'.'), w^(lowBytes*'!'), w^(lowBytes*'?')
	return ((w - lowBytes*0x0E) | (d - lowBytes) | (b - lowBytes) | (q - lowBytes)) & highBits
}

// cut ends the current sentence at end and starts the next one at next.
func (sc *scanner) cut(end, next int) {
	sc.dst = appendTrimmed(sc.dst, sc.text, sc.start, end)
	sc.begin(skipSpace(sc.text, next, sc.pEnd))
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

// stop ends the sentence at e, the next one starting at k, unless a
// quotation is open.
func (sc *scanner) stop(e, k int) bool {
	if sc.qdepth > 0 {
		return false
	}
	sc.cut(e, k)
	return true
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
	k := skipSpace(sc.text, i, sc.pEnd)
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
