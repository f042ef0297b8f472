// Package listmark recognises the markers of list items in plain text: a
// bullet ("- ", "• "), or a number, letter or roman numeral followed by
// ".", ".)" or ")" ("1. ", "b) ", "iv. "). The segment package reads them
// at the start of sentences and lines, and the chunker at the start of the
// lines of plain text; Markdown's own, stricter list markers are
// internal/markdown's.
package listmark

import (
	"strings"
	"unicode/utf8"

	"github.com/ragkit/ragkit/internal/space"
)

// IsBullet reports whether r marks a list item.
func IsBullet(r rune) bool {
	switch r {
	case '•', '◦', '▪', '▫', '‣', '⁃', '●', '○', '■', '□', '►', '▸', '▹', '➢', '➤', '✓', '✔', '☐', '☑', '◆', '◇':
		return true
	}
	return false
}

// IsASCIIBullet reports whether c marks a list item at the start of a line
// ("- item", "* item", "+ item").
func IsASCIIBullet(c byte) bool { return c == '-' || c == '*' || c == '+' }

// A Marker is a list marker at the start of a text.
type Marker struct {
	Bullet string // the bullet, if any ("•", "-")
	Token  string // the number, letter or roman numeral, if any ("9", "b", "iv")
	Style  string // what follows the token: ".", ".)" or ")"
	End    int    // the end of the marker in the text
}

// Parse returns the list marker that s starts with: an optional bullet,
// then a number of one to three digits, a letter or a roman numeral up to
// 89, followed by ".", ".)" or ")" and white space. A Unicode bullet alone
// ("• apples") is a marker too, with no Token. An ASCII bullet counts only
// before a space or a digit.
func Parse(s string) (Marker, bool) {
	var m Marker
	i := 0
	if len(s) > 0 && (s[0] >= utf8.RuneSelf || IsASCIIBullet(s[0])) {
		r, n := utf8.DecodeRuneInString(s)
		if IsBullet(r) || (s[0] < utf8.RuneSelf && len(s) > 1 && (s[1] == ' ' || s[1] >= '0' && s[1] <= '9')) {
			m.Bullet = s[:n]
			i = space.Skip(s, n, len(s))
		}
	}
	j := i
	for j < len(s) && j-i < 6 && isASCIIAlnum(s[j]) {
		j++
	}
	tok := s[i:j]
	switch {
	case tok == "" || j >= len(s):
	case strings.HasPrefix(s[j:], ".)"):
		m.Style = ".)"
	case s[j] == '.':
		m.Style = "."
	case s[j] == ')':
		m.Style = ")"
	}
	end := j + len(m.Style)
	if m.Style == "" || end >= len(s) || !space.Byte(s[end]) || !validToken(tok) {
		if m.Bullet != "" && m.Bullet[0] >= utf8.RuneSelf {
			return Marker{Bullet: m.Bullet, End: end}, true
		}
		return Marker{}, false
	}
	m.Token, m.End = tok, end
	return m, true
}

// validToken reports whether tok can number a list item: a number, one
// letter, or a roman numeral.
func validToken(tok string) bool {
	if tok[0] >= '0' && tok[0] <= '9' {
		return IsNumber(tok)
	}
	return len(tok) == 1 || RomanValue(tok) > 0
}

// Item reports whether a line whose content starts s is a list item: an
// ASCII bullet before white space, a Unicode bullet, a number, letter or
// roman numeral followed by ")", or a number or roman numeral followed by
// "." (a single letter and a period are more often an initial), each then
// followed by white space.
func Item(s string) bool {
	if s == "" {
		return false
	}
	switch c := s[0]; {
	case IsASCIIBullet(c):
		return len(s) == 1 || space.Byte(s[1])
	case c >= utf8.RuneSelf:
		r, _ := utf8.DecodeRuneInString(s)
		return IsBullet(r)
	}
	j := 0
	for j < len(s) && j < 6 && isASCIIAlnum(s[j]) {
		j++
	}
	if j == 0 || j+1 >= len(s) || !space.Byte(s[j+1]) {
		return false
	}
	tok := s[:j]
	return s[j] == ')' && (IsNumber(tok) || len(tok) == 1) || s[j] == '.' && IsNumber(tok)
}

// IsNumber reports whether tok can number a list item: one to three
// digits, or a roman numeral up to xxxix.
func IsNumber(tok string) bool {
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
	return RomanValue(tok) > 0
}

func isASCIIAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
