package markdown

import "strings"

// The recognisers of single lines; each takes the line's content, from
// its first non-space character to its last.

// fenceOpen returns the length of the code fence that s opens, or 0.
func fenceOpen(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	if n < 3 || (c == '`' && strings.IndexByte(s[n:], '`') >= 0) {
		return 0
	}
	return n
}

// closesFence reports whether s closes a fence of n characters c.
func closesFence(s string, c byte, n int) bool {
	k := 0
	for k < len(s) && s[k] == c {
		k++
	}
	return k >= n && strings.TrimSpace(s[k:]) == ""
}

// ATXLevel returns the level of the ATX heading s (a line without its
// indentation), or 0.
func ATXLevel(s string) int {
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(s) && s[n] != ' ' && s[n] != '\t') {
		return 0
	}
	return n
}

// setextUnderline reports whether s is a run of = or of - alone.
func setextUnderline(s string) bool {
	for i := 1; i < len(s); i++ {
		if s[i] != s[0] {
			return false
		}
	}
	return len(s) > 0
}

// thematicBreak reports whether s is three or more *, - or _ (one kind),
// with only spaces and tabs between.
func thematicBreak(s string) bool {
	c, n := s[0], 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// tableDelimiter reports whether s is a table's delimiter row, such as
// "|---|:--:|" or "--- | ---".
func tableDelimiter(s string) bool {
	dash, pipe := false, false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '-':
			dash = true
		case '|':
			pipe = true
		case ':', ' ', '\t':
		default:
			return false
		}
	}
	return dash && pipe
}

// ListMarker reports whether s starts with a list marker followed by
// white space or nothing: 1 for a bullet, -1 for an ordered marker
// numbered 1, 2 for any other ordered marker, 0 for none.
func ListMarker(s string) int {
	if len(s) == 0 {
		return 0
	}
	switch s[0] {
	case '-', '+', '*':
		if len(s) == 1 || s[1] == ' ' || s[1] == '\t' {
			return 1
		}
		return 0
	}
	n := 0
	for n < len(s) && n < 10 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 0 || n > 9 || n >= len(s) || (s[n] != '.' && s[n] != ')') {
		return 0
	}
	if n+1 < len(s) && s[n+1] != ' ' && s[n+1] != '\t' {
		return 0
	}
	if s[:n] == "1" {
		return -1
	}
	return 2
}

// MarkerLen returns the length of the list marker that s starts with.
func MarkerLen(s string) int {
	if ListMarker(s) == 0 {
		return 0
	}
	n := 1
	for n < len(s) && s[n-1] >= '0' && s[n-1] <= '9' {
		n++
	}
	return n
}

// htmlStart reports whether s starts like an HTML block: a tag, a closing
// tag, a comment or a processing instruction.
func htmlStart(s string) bool {
	if len(s) < 2 {
		return false
	}
	c := s[1]
	return c == '/' || c == '!' || c == '?' || (c|0x20 >= 'a' && c|0x20 <= 'z')
}
