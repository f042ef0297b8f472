// Package space defines white space for the packages that trim text and
// cut it at spaces, so that segment's spans and chunker's chunks agree on
// what is trimmed: white space is what [unicode.IsSpace] says it is, and an
// invalid UTF-8 byte is never white space.
package space

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// ascii marks the ASCII white space bytes (those unicode.IsSpace accepts).
// Bytes of multi-byte characters are not marked.
var ascii = [256]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// Byte reports whether c is an ASCII white space byte. It is false for
// every byte of a multi-byte character, so it suits scans that only need
// to recognise ASCII spaces.
func Byte(c byte) bool { return ascii[c] }

// Rune reports whether r is white space.
func Rune(r rune) bool {
	if r < utf8.RuneSelf {
		return ascii[byte(r)]
	}
	return r != utf8.RuneError && unicode.IsSpace(r)
}

// At reports whether text[i:] starts with white space, and the width in
// bytes of the character there (1 for an invalid byte).
func At(text string, i int) (bool, int) {
	c := text[i]
	if c < utf8.RuneSelf {
		return ascii[c], 1
	}
	r, n := utf8.DecodeRuneInString(text[i:])
	return Rune(r), n
}

// Skip returns the index of the first character at or after i, before
// end, that is not white space, or end.
func Skip(text string, i, end int) int {
	for i < end {
		if c := text[i]; c < utf8.RuneSelf {
			if !ascii[c] {
				return i
			}
			i++
			continue
		}
		sp, n := At(text, i)
		if !sp {
			return i
		}
		i += n
	}
	return end
}

// Next returns the index of the first white space character at or after
// i, before end, or end.
func Next(text string, i, end int) int {
	for i < end {
		sp, n := At(text, i)
		if sp {
			return i
		}
		i += n
	}
	return end
}

// Back returns the index just after the last character before end, at or
// after start, that is not white space, or start.
func Back(text string, start, end int) int {
	for end > start {
		if c := text[end-1]; c < utf8.RuneSelf {
			if !ascii[c] {
				return end
			}
			end--
			continue
		}
		r, n := utf8.DecodeLastRuneInString(text[start:end])
		if !Rune(r) {
			return end
		}
		end -= n
	}
	return start
}

// Trim returns the bounds of text[s:e] without its leading and trailing
// white space.
func Trim(text string, s, e int) (int, int) {
	s = Skip(text, s, e)
	return s, Back(text, s, e)
}

// OneLine makes s one line: white space runs become single
// spaces, and the ends are trimmed.
func OneLine(s string) string {
	if singleSpaced(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// singleSpaced reports whether s is printable ASCII with single spaces
// between words and none at the ends: most titles and summaries.
func singleSpaced(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < ' ' || c >= utf8.RuneSelf || c == ' ' && (i == 0 || i == len(s)-1 || s[i-1] == ' ') {
			return false
		}
	}
	return true
}
