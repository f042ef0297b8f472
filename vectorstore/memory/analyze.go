package memory

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/internal/stem"
	"github.com/ragkit/ragkit/segment"
)

// analyzer turns a text into the terms of the keyword index, the same way
// for the records' texts and for queries; its buffers are reused from one
// text to the next, so it is not safe for concurrent use.
//
// The words are those of [segment.Words] (Unicode word boundaries)
// that hold a letter or a digit, case-folded rune by rune, with the
// apostrophes inside them dropped ("Don’t" and "don't" are both "dont",
// as in the lexical embedder) and, unless keepStops, without the English stop words
// that the lexical embedder leaves out of its unigrams; then, unless noStem, English
// words are reduced to their Porter2 stems ("expects" and "expected" are
// both "expect"), as PostgreSQL's english configuration reduces them. Scripts written without
// spaces (Han, Hiragana, Thai, Lao, Khmer, Myanmar), whose characters the
// word rules leave one by one, give overlapping pairs of adjacent
// characters instead ("東京都" gives "東京" and "京都"), a lone character
// giving itself, as search engines index CJK text without a dictionary.
type analyzer struct {
	keepStops bool
	noStem    bool
	spans     []segment.Span
	buf       []byte // the terms, back to back
	ends      []int  // where each term ends in buf
}

// analyze splits text into terms, available through len(a.ends) and
// a.term.
func (a *analyzer) analyze(text string) {
	a.buf, a.ends = a.buf[:0], a.ends[:0]
	a.add(text)
}

// analyzeRecord finds the terms of a record's text and of its
// Notes.Keywords, as one text.
func (a *analyzer) analyzeRecord(r *unit) {
	a.analyze(r.Text)
	if kw := r.keywords(); kw != "" {
		a.add(kw)
	}
}

// add appends the terms of text to those found so far.
func (a *analyzer) add(text string) {
	a.spans = segment.AppendWords(a.spans[:0], text)
	for i := 0; i < len(a.spans); i++ {
		word := a.spans[i].Text(text)
		if !unspaced(word) {
			a.word(word)
			continue
		}
		j := i + 1
		for j < len(a.spans) && a.spans[j].Start == a.spans[j-1].End && unspaced(a.spans[j].Text(text)) {
			j++
		}
		if j == i+1 {
			a.fold(word)
			a.end()
		}
		for p := i; p+1 < j; p++ {
			a.fold(a.spans[p].Text(text))
			a.fold(a.spans[p+1].Text(text))
			a.end()
		}
		i = j - 1
	}
}

// term returns the i'th term found by analyze.
func (a *analyzer) term(i int) []byte {
	start := 0
	if i > 0 {
		start = a.ends[i-1]
	}
	return a.buf[start:a.ends[i]]
}

// word adds the terms of one word of a spaced script. The word rules
// join letters and digits across a narrow no-break space (U+202F, which
// they count as a connector like "_"), but a query typed with a plain
// space could never match such a term: the word is cut there.
func (a *analyzer) word(w string) {
	if !hasWideSpace(w) {
		a.part(w)
		return
	}
	for _, p := range strings.FieldsFunc(w, unicode.IsSpace) {
		a.part(p)
	}
}

// hasWideSpace reports whether w holds white space outside ASCII (which
// the word rules never put inside a word).
func hasWideSpace(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			return strings.ContainsFunc(w[i:], unicode.IsSpace)
		}
	}
	return false
}

// part adds the term of a word, or a piece of one, if it is one: one of
// punctuation or symbols, or a stop word, is not.
func (a *analyzer) part(w string) {
	start := len(a.buf)
	w = trimMarks(w)
	if !hasAlnum(w) {
		return
	}
	a.fold(w)
	if !a.keepStops && stem.IsStop(a.buf[start:]) {
		a.buf = a.buf[:start]
		return
	}
	if !a.noStem {
		a.buf = append(a.buf[:start], stem.Bytes(a.buf[start:])...)
	}
	a.end()
}

// trimMarks drops the combining marks at the start of w. A mark belongs
// to the character before it, and the word rules attach it to a space
// or a connector before a word, but not at the start of a text: without
// them the word is the same wherever it stands, "ܑA" after a space and
// at the start of a query alike.
func trimMarks(w string) string {
	for len(w) > 0 && w[0] >= utf8.RuneSelf {
		r, n := utf8.DecodeRuneInString(w)
		if !unicode.Is(unicode.M, r) {
			break
		}
		w = w[n:]
	}
	return w
}

// end ends the term being written into buf.
func (a *analyzer) end() { a.ends = append(a.ends, len(a.buf)) }

// fold appends w to buf case-folded, without apostrophes and without
// the invisible format characters that the word rules let into a word
// (a soft hyphen, a left-to-right mark, a zero-width joiner), so that
// "co\u00adoperate" is "cooperate". ASCII, the common case, takes a fast
// path.
func (a *analyzer) fold(w string) {
	for i := 0; i < len(w); {
		c := w[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != '\'' {
				a.buf = append(a.buf, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(w[i:])
		i += n
		if r != '’' && !unicode.Is(unicode.Cf, r) {
			a.buf = utf8.AppendRune(a.buf, foldRune(r))
		}
	}
}

// foldRune maps the cases of a letter to one: lower case of the upper
// case, so that "ς" and "σ" (both "Σ") and "ſ" and "s" (both "S") meet.
// It is Unicode's simple case folding for all but a few letters
// (Cherokee folds to its capitals, here to its small letters; the Turkish
// dotless ı folds to i), which fold consistently all the same.
func foldRune(r rune) rune { return unicode.ToLower(unicode.ToUpper(r)) }

// hasAlnum reports whether w holds a letter or a number.
func hasAlnum(w string) bool {
	for _, r := range w {
		if r < utf8.RuneSelf {
			if 'a' <= r|0x20 && r|0x20 <= 'z' || '0' <= r && r <= '9' {
				return true
			}
			continue
		}
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			return true
		}
	}
	return false
}

// unspacedScripts are the scripts written without spaces between words,
// whose characters the Unicode word rules leave one by one. (Katakana
// runs stay whole words, and Hangul is written with spaces.)
var unspacedScripts = []*unicode.RangeTable{unicode.Han, unicode.Hiragana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar}

// unspaced reports whether the word w is a character of a script written
// without spaces (not a mark alone).
func unspaced(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return r >= 0x0E00 && unicode.In(r, unspacedScripts...) && hasAlnum(w) // Thai is the first of them
}
