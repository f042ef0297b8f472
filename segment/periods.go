package segment

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/internal/listmark"
	"github.com/ragkit/ragkit/internal/space"
)

// token is the white-space delimited token before a period at i, without
// opening quotes and brackets and without invisible characters at its end.
func (sc *scanner) token(i int) (ws int, tok string) {
	text := sc.text
	ws = i
	for ws > sc.start {
		if i-ws > maxToken {
			return ws, "" // longer than any token the rules care about
		}
		c := text[ws-1]
		if c < utf8.RuneSelf {
			if space.Byte(c) {
				break
			}
			ws--
			continue
		}
		r, n := utf8.DecodeLastRuneInString(text[sc.start:ws])
		if space.Rune(r) || r == '—' || r == '–' {
			break // "Hosmer—Mr. Angel"
		}
		ws -= n
	}
	s, e := ws, i
	for s < e && !isASCIIAlnum(text[s]) { // most tokens start with a letter
		r, n := utf8.DecodeRuneInString(text[s:e])
		if r != '(' && r != '[' && r != '"' && r != '\'' && r != '“' && r != '‘' && r != '«' && r != '„' && r != '¿' && r != '¡' && !isInvisible(r) {
			break
		}
		s += n
	}
	for e > s && text[e-1] >= utf8.RuneSelf { // no ASCII character is invisible
		r, n := utf8.DecodeLastRuneInString(text[s:e])
		if !isInvisible(r) {
			break
		}
		e -= n
	}
	return ws, text[s:e]
}

// isNumber reports whether tok is a number, with its currency, sign and
// unit symbols: "100.00", "$1,000", "553", "4°", "12%".
func isNumber(tok string) bool {
	digits := false
	for _, r := range tok {
		if r < utf8.RuneSelf { // the ASCII cases below, without the table searches
			switch {
			case r >= '0' && r <= '9':
				digits = true
			case r == '.' || r == ',' || r == ':' || r == '/' || r == '-' || r == '+' || r == '\'' || r == '#' || r == '%' || r == '$':
			default:
				return false
			}
			continue
		}
		switch {
		case r >= '0' && r <= '9' || unicode.IsDigit(r):
			digits = true
		case r == '.' || r == ',' || r == ':' || r == '/' || r == '-' || r == '+' || r == '\'' || r == '#' ||
			r == '%' || r == '°' || r == '‰' || r == '№' || unicode.Is(unicode.Sc, r):
		default:
			return false
		}
	}
	return digits
}

// isMultiPeriod reports whether tok looks like "U.S", "e.g", "Ph.D" or
// "a.m": letter groups of one to three letters joined by periods.
func isMultiPeriod(tok string) bool {
	if strings.IndexByte(tok, '.') < 0 {
		return false // no group ends: most tokens
	}
	groups, n := 0, 0
	for _, r := range tok {
		switch {
		case r == '.':
			if n == 0 {
				return false
			}
			groups++
			n = 0
		case unicode.IsLetter(r):
			n++
			if n > 3 {
				return false
			}
		default:
			return false
		}
	}
	return groups > 0 && n > 0
}

// singleLetter reports whether tok is exactly one letter.
func singleLetter(tok string) bool {
	r, n := utf8.DecodeRuneInString(tok)
	return n == len(tok) && n > 0 && unicode.IsLetter(r)
}

// maxToken bounds how far back the rules look for the start of a token,
// which keeps the scanner linear on text without spaces.
const maxToken = 64

// wordsBefore reports whether the current sentence holds at least n words
// before index ws. It looks back only as far as it must.
func (sc *scanner) wordsBefore(ws, n int) bool {
	in := false
	for i := ws - 1; i >= sc.start; i-- {
		sp := space.Byte(sc.text[i])
		if !sp && !in {
			if n--; n == 0 {
				return true
			}
		}
		in = !sp
	}
	return false
}

// prevToken returns the token before index ws (the start of a token).
func (sc *scanner) prevToken(ws int) string {
	text := sc.text
	e := ws
	for e > sc.start && space.Byte(text[e-1]) {
		e--
	}
	s := e
	for s > sc.start && !space.Byte(text[s-1]) && e-s < maxToken {
		s--
	}
	return text[s:e]
}

// capitalised reports whether tok starts with an upper-case letter.
func capitalised(tok string) bool {
	tok = strings.TrimLeft(tok, "(\"'“‘")
	r, _ := utf8.DecodeRuneInString(tok)
	return unicode.IsUpper(r) || unicode.IsTitle(r)
}

// periodEnds decides whether the period at text[i], followed by white space
// and then by w, ends a sentence.
func (sc *scanner) periodEnds(i int, w word) bool {
	switch {
	case w.class == wCont:
		return false // "U.S., and"
	case w.class == wLower && !sc.lowerCase():
		return false // "co. at noon"
	}
	if i == sc.markerDot {
		return false // "1. The first item"
	}
	ws, tok := sc.token(i)
	if tok == "" {
		return w.class != wDigit
	}
	if isNumber(tok) {
		if sc.lang.months != nil && (w.class == wUpper || w.class == wLower) {
			var buf [24]byte
			if m := lower(buf[:], sc.text[w.pos:w.end]); m != nil && sc.lang.months[string(m)] {
				return false // an ordinal date: "am 12. Juni"
			}
		}
		return true // "$100.00. It is", "in 1990. 25 years later"
	}
	if singleLetter(tok) {
		return sc.initialEnds(ws, tok, w)
	}
	if sc.lang.ordinals && listmark.RomanValue(tok) > 0 {
		return false // "XII. Pluku"
	}
	kind := sc.abbrev(tok)
	if kind == abbrNone && isMultiPeriod(tok) {
		kind = abbrPlain
	}
	if w.class == wLower { // in lower-case text
		return sc.lowerAbbrevEnds(kind, ws, w)
	}
	switch kind {
	case abbrTitle:
		return sc.functionWord(w) // "Dr. Watson", but "Main St. The house"
	case abbrNumber:
		return w.class != wDigit // "No. 5", but "I said no. Then"
	case abbrInner:
		return false
	case abbrFinal:
		return w.class != wDigit && sc.wordsBefore(ws, 3) // "at 6 P.M. Mr. Smith", but "At 5 a.m. Mr. Smith went"
	case abbrPlain:
		return (sc.starter(w) || sc.punktStarter(w)) && sc.wordsBefore(ws, 3) // "the U.S. How", but "the U.S. Government"
	}
	return true
}

// abbrev returns the kind of abbreviation tok is, looking also at the part
// after an elided article ("l'Avv").
func (sc *scanner) abbrev(tok string) abbrKind {
	k, ascii := sc.abbrevs.lookup(tok)
	if k != abbrNone {
		return k
	}
	if i := strings.LastIndexByte(tok, '\''); i >= 0 && i+1 < len(tok) {
		return sc.abbrev(tok[i+1:])
	}
	if ascii {
		return abbrNone
	}
	if i := strings.LastIndex(tok, "’"); i >= 0 && i+len("’") < len(tok) {
		return sc.abbrev(tok[i+len("’"):])
	}
	return abbrNone
}

// functionWords never follow a title such as "Dr." or "St." inside a
// sentence.
var functionWords = wordSet("the a an this that these those he she it they we i you there his her its our their my your")

// functionWord reports whether w is an English determiner or pronoun, or a
// sentence starter of a language other than English.
func (sc *scanner) functionWord(w word) bool {
	if sc.punkt == nil {
		return sc.starter(w)
	}
	if w.class != wUpper || w.initial {
		return false
	}
	var buf [8]byte
	b := lower(buf[:], sc.text[w.pos:w.end])
	return b != nil && functionWords[string(b)]
}

// initialEnds decides for a single letter before a period: mostly an initial
// ("Jonas E. Smith", "p. 55"), but "I" is also a pronoun ("you and I. Did").
func (sc *scanner) initialEnds(ws int, tok string, w word) bool {
	if w.class == wDigit || w.initial {
		return false // "p. 55", "J. R. R. Tolkien"
	}
	if ws == sc.start {
		return false // a list item "a. The first item" or an initial
	}
	if w.class == wLower { // in lower-case text: "plan b. the", but "j. smith"
		return sc.lowerFunctionWord(w)
	}
	if w.class != wUpper {
		return false // "د. ديفيد": in scripts without case, an abbreviation
	}
	prev := sc.prevToken(ws)
	if tok == "I" && !capitalised(prev) {
		return sc.common(w) // "you and I. Did you", but "by I. Newton"
	}
	return sc.starter(w) // "Plan B. The", but "Albert I. Jones"
}

// glued decides whether a period with no space after it ends a sentence:
// "Hello world.Today is Tuesday." A lower-case word or a number must come
// before it, a word that often opens a sentence after it, and the token
// must not be a URL, e-mail address, file or identifier.
func (sc *scanner) glued(i int) bool {
	text := sc.text
	if i+1 >= sc.pEnd || i == sc.start {
		return false
	}
	if c := text[i+1]; c < 'A' || c > 'Z' {
		return false
	}
	if c := text[i-1]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
		return false
	}
	_, tok := sc.token(i)
	if len(tok) < 2 {
		return false
	}
	letters := 0
	for j := 0; j < len(tok); j++ {
		c := tok[j]
		switch {
		case c >= 'a' && c <= 'z':
			letters++
		case c >= '0' && c <= '9' || c == ',':
		case c >= 'A' && c <= 'Z' && j == 0:
		default:
			return false // "Jane.Doe", "example.50", "file_v1", "a/b.C"
		}
	}
	if letters > 0 && letters < 2 {
		return false
	}
	// The word after it runs to white space or to a final punctuation mark.
	w := sc.nextWord(i + 1)
	if w.class != wUpper || w.end-w.pos < 2 {
		return false
	}
	e := w.end
	if e < sc.pEnd {
		switch c := text[e]; {
		case space.Byte(c), c == ',', c == ';', c == ':', c == '!', c == '?':
		case c == '.':
			if e+1 < sc.pEnd && !space.Byte(text[e+1]) {
				return false // "Tuesday.Mr. Smith" is fine, "os.File.Close" is not
			}
		default:
			return false // "strings.Builder{", "fmt.Println("
		}
	}
	if sc.starter(w) {
		return true
	}
	return sc.abbrev(text[w.pos:w.end]) == abbrTitle
}

// lowerAbbrevEnds is periodEnds' decision on a token of the given kind
// followed by the lower-case word w, in lower-case text. Without a capital
// to go by, an abbreviation ends a sentence only before a determiner or
// pronoun ("main st. the house", "in the u.s. we", but "dr. smith", "the
// u.s. government", "at 5 p.m. on monday"), after three words unless it is
// a title; any other word ends one always.
func (sc *scanner) lowerAbbrevEnds(kind abbrKind, ws int, w word) bool {
	switch kind {
	case abbrTitle:
		return sc.lowerFunctionWord(w)
	case abbrNumber:
		return true // "the vote was no. the", but "no. 5" has a digit
	case abbrInner:
		return false
	case abbrFinal, abbrPlain:
		return sc.lowerFunctionWord(w) && sc.wordsBefore(ws, 3)
	}
	return true
}
