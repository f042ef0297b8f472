package segment

import (
	"unicode"
	"unicode/utf8"
)

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

// asciiClass is the class of a word that starts with an ASCII character
// that is not punctuation nextWord looks through.
var asciiClass = func() (t [utf8.RuneSelf]int) {
	for c := range t {
		switch {
		case c >= 'A' && c <= 'Z':
			t[c] = wUpper
		case c >= 'a' && c <= 'z':
			t[c] = wLower
		case c >= '0' && c <= '9':
			t[c] = wDigit
		default:
			t[c] = wOther
		}
	}
	return t
}()

// nextWord classifies what comes at k, looking through opening quotes and
// brackets and through dashes.
func (sc *scanner) nextWord(k int) word {
	text := sc.text
	for steps := 0; k < sc.pEnd && steps < 8; steps++ {
		r, n := rune(text[k]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(text[k:])
		}
		if r >= utf8.RuneSelf || !asciiAlnum[r] { // none of these is a letter or digit
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
				k = skipSpace(text, k+n, sc.pEnd)
				continue
			case r == ',' || r == ';' || r == ':' || r == ')' || r == ']' || r == '}' || r == '%' || r == '/' ||
				r == '’' || r == '”' || r == '»' || r == '›' || r == '」' || r == '』' || r == '）':
				return word{pos: k, end: k, class: wCont}
			}
		}
		w := word{pos: k, class: wOther}
		switch {
		case r < utf8.RuneSelf:
			w.class = asciiClass[r]
			if w.class == wOther {
				return w
			}
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
			if c := text[e]; c < utf8.RuneSelf {
				if !isASCIIAlnum(c) { // no ASCII character is a mark
					break
				}
				e++
				continue
			}
			r, n := utf8.DecodeRuneInString(text[e:])
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
	return sc.punkt != nil && sc.punkt.starter(b)
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
	return sc.punkt.ortho(b)
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
