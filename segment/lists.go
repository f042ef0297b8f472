package segment

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ragkit/ragkit/internal/listmark"
	"github.com/ragkit/ragkit/internal/space"
)

// listMarker looks for a list marker at p, the start of a sentence: an
// optional bullet, then a number, letter or roman numeral followed by ".",
// ".)" or ")" and a space ("1. ", "• 9. ", "a) ", "iv. "). The period of the
// marker does not end a sentence. If the next marker of the same list
// ("2. ", "• 10. ", "b) ", "v. ") follows in the paragraph, a sentence ends
// before it even without a terminator ("1. The first item 2. The second
// item"). A bullet alone ("• apples • pears") works the same way.
func (sc *scanner) listMarker(p int) {
	if p >= sc.pEnd {
		return
	}
	switch c := sc.text[p]; {
	case c >= utf8.RuneSelf:
		if c != 0xE2 { // every Unicode bullet starts with 0xE2
			return
		}
	case isASCIIAlnum(c):
		if !alnumMarker(sc.text, p, sc.pEnd) {
			return
		}
	case !listmark.IsASCIIBullet(c):
		return
	}
	m, ok := listmark.Parse(sc.text[p:sc.pEnd])
	if !ok {
		return
	}
	if m.Token == "" { // a bullet alone
		sc.findItem(p+m.End, "", "", m.Bullet)
		return
	}
	tok, style, end := m.Token, m.Style, p+m.End
	// The next marker of the list, or two when the marker may be a letter
	// or a roman numeral ("i" is followed by "j" or "ii").
	var buf0, buf1 [8]byte
	var next [2][]byte
	switch {
	case tok[0] >= '0' && tok[0] <= '9':
		next[0] = strconv.AppendInt(buf0[:0], int64(atoi(tok)+1), 10)
	case len(tok) == 1:
		next[0] = append(buf0[:0], tok[0]+1)
		if v := listmark.RomanValue(tok); v > 0 {
			next[1] = listmark.Roman(buf1[:], v+1, tok[0] >= 'a')
		}
	default:
		next[0] = listmark.Roman(buf0[:], listmark.RomanValue(tok)+1, tok[0] >= 'a')
	}
	if style[0] == '.' {
		sc.markerDot = end - len(style)
	}
	for _, n := range next {
		if len(n) > 0 {
			sc.findItem(end, string(n), style, m.Bullet)
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

// alnumMarker reports whether text[k:end], which starts with an ASCII
// letter or digit, may start a numbered list marker: one to six letters
// and digits, then '.' or ')'. listmark.Parse and listmark.Item refuse
// anything else, and most sentences and lines start with a word, which
// this tells at a glance.
func alnumMarker(text string, k, end int) bool {
	j := k
	for j < end && j-k < 6 && isASCIIAlnum(text[j]) {
		j++
	}
	return j < end && (text[j] == '.' || text[j] == ')')
}

func isASCIIAlnum(c byte) bool { return asciiAlnum[c] }

var asciiAlnum = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	return t
}()

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}
