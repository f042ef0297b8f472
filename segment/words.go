package segment

import (
	"unicode/utf8"

	"github.com/ragkit/ragkit/internal/space"
	"github.com/rivo/uniseg"
)

// Words returns the words of text by the Unicode word boundary rules (UAX
// #29, as implemented by github.com/rivo/uniseg), leaving out the segments
// that are only white space. Punctuation between words comes back as spans
// of its own ("Hello, world!" gives "Hello", ",", "world", "!"); contractions,
// decimal numbers and words joined by "." or ":" stay whole ("can't", "3.14",
// "e.g").
func Words(text string) []Span { return AppendWords(nil, text) }

// AppendWords appends the spans [Words] would return to dst and returns the
// extended slice.
func AppendWords(dst []Span, text string) []Span {
	for pos := 0; pos < len(text); {
		if space.Byte(text[pos]) {
			pos++
			continue
		}
		// A token runs to the next ASCII white space, which is a word
		// boundary on both sides. Pure ASCII tokens take a fast path.
		end, ascii := pos, true
		for end < len(text) && !space.Byte(text[end]) {
			if text[end] >= utf8.RuneSelf {
				ascii = false
			}
			end++
		}
		if ascii {
			dst = appendASCIIWords(dst, text, pos, end)
		} else {
			from := pos
			if from > 0 {
				from-- // marks after a space attach to it (rule WB4)
			}
			dst = appendUnisegWords(dst, text, from, end)
		}
		pos = end
	}
	return dst
}

func appendUnisegWords(dst []Span, text string, from, end int) []Span {
	state := -1
	for pos := from; pos < end; {
		w, _, st := uniseg.FirstWordInString(text[pos:end], state)
		if len(w) == 0 { // cannot happen for non-empty input; never loop forever
			w = text[pos : pos+1]
		}
		state = st
		dst = appendTrimmed(dst, text, pos, pos+len(w))
		pos += len(w)
	}
	return dst
}

// ASCII classes of the Unicode word boundary rules.
const (
	wbOther   = iota
	wbLetter  // ALetter
	wbDigit   // Numeric
	wbUnder   // ExtendNumLet: '_'
	wbMidLet  // MidLetter: ':'
	wbMidNum  // MidNum: ',' ';'
	wbMidBoth // MidNumLet and Single_Quote: '.' '\''
)

var wbClass = func() (t [128]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = wbLetter, wbLetter
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = wbDigit
	}
	t['_'], t[':'], t[','], t[';'], t['.'], t['\''] = wbUnder, wbMidLet, wbMidNum, wbMidNum, wbMidBoth, wbMidBoth
	return t
}()

// appendASCIIWords applies the word boundary rules of UAX #29 to the ASCII
// token text[s:e], which holds no white space: letters, digits and '_' join
// (WB5, WB8-WB10, WB13a-b); ':', '.' and '\” join letters (WB6-7); ',', ';',
// '.' and '\” join digits (WB11-12); anything else stands alone.
func appendASCIIWords(dst []Span, text string, s, e int) []Span {
	for i := s; i < e; {
		c := wbClass[text[i]]
		if c != wbLetter && c != wbDigit && c != wbUnder {
			dst = append(dst, Span{i, i + 1})
			i++
			continue
		}
		j := i + 1
		for j < e {
			cj := wbClass[text[j]]
			if cj == wbLetter || cj == wbDigit || cj == wbUnder {
				j++
				continue
			}
			if j+1 < e {
				prev, next := wbClass[text[j-1]], wbClass[text[j+1]]
				if prev == wbLetter && next == wbLetter && (cj == wbMidLet || cj == wbMidBoth) ||
					prev == wbDigit && next == wbDigit && (cj == wbMidNum || cj == wbMidBoth) {
					j += 2
					continue
				}
			}
			break
		}
		dst = append(dst, Span{i, j})
		i = j
	}
	return dst
}

// Graphemes returns the user-perceived characters of text (extended grapheme
// clusters, UAX #29), leaving out white space. A cluster that starts with a
// space followed by combining marks comes back without the space.
func Graphemes(text string) []Span { return AppendGraphemes(nil, text) }

// AppendGraphemes appends the spans [Graphemes] would return to dst and
// returns the extended slice.
func AppendGraphemes(dst []Span, text string) []Span {
	state := -1
	for pos := 0; pos < len(text); {
		c := text[pos]
		// Between two ASCII characters there is always a boundary, except
		// inside "\r\n": all the characters that extend a cluster are
		// outside ASCII. This fast path skips uniseg for plain ASCII.
		if c < utf8.RuneSelf && c != '\r' && (pos+1 == len(text) || text[pos+1] < utf8.RuneSelf) {
			if !space.Byte(c) {
				dst = append(dst, Span{pos, pos + 1})
			}
			pos++
			state = -1
			continue
		}
		g, _, _, st := uniseg.FirstGraphemeClusterInString(text[pos:], state)
		if len(g) == 0 {
			g = text[pos : pos+1]
		}
		state = st
		dst = appendTrimmed(dst, text, pos, pos+len(g))
		pos += len(g)
	}
	return dst
}
