package segment

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/internal/space"
)

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
	if c == wLower && e == j && sc.lowerCase() {
		return sc.stopIf(true, e, k) // "what? no way", but "“why?” she asked"
	}
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
