package segment

import (
	"strconv"
	"strings"
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

// isListNumber reports whether tok can number a list item: one to three
// digits, or a roman numeral up to xxxix.
func isListNumber(tok string) bool {
	if len(tok) == 0 || len(tok) > 6 {
		return false
	}
	if tok[0] >= '0' && tok[0] <= '9' {
		if len(tok) > 3 {
			return false
		}
		for i := 0; i < len(tok); i++ {
			if tok[i] < '0' || tok[i] > '9' {
				return false
			}
		}
		return true
	}
	return romanValue(tok) > 0
}

// romans holds the roman numerals from 1 to 89, in upper case.
var romans = func() (r [90]string) {
	for n := 1; n < len(r); n++ {
		v := n
		for _, p := range []struct {
			v int
			s string
		}{{50, "L"}, {40, "XL"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"}} {
			for ; v >= p.v; v -= p.v {
				r[n] += p.s
			}
		}
	}
	return r
}()

// romanValue returns the value of a well-formed roman numeral from 1 to 89,
// written all in upper or all in lower case, or 0.
func romanValue(s string) int {
	if s == "" || len(s) > 7 {
		return 0
	}
	var buf [7]byte
	low := s[0] >= 'a'
	for i := 0; i < len(s); i++ {
		c := s[i]
		if low {
			c -= 'a' - 'A'
		}
		if c != 'I' && c != 'V' && c != 'X' && c != 'L' {
			return 0
		}
		buf[i] = c
	}
	up := buf[:len(s)]
	for n := 1; n < len(romans); n++ {
		if romans[n] == string(up) {
			return n
		}
	}
	return 0
}

// roman writes n (1 to 89) as a roman numeral into buf.
func roman(buf []byte, n int, low bool) []byte {
	if n <= 0 || n >= len(romans) {
		return buf[:0]
	}
	out := append(buf[:0], romans[n]...)
	if low {
		for i := range out {
			out[i] += 'a' - 'A'
		}
	}
	return out
}
