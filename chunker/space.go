package chunker

import (
	"unicode"
	"unicode/utf8"
)

// White space is what [unicode.IsSpace] says it is, as in the segment
// package: chunks are trimmed of it and together cover everything else.

// spaceAt reports whether the character at text[i] is white space, and
// its width in bytes.
func spaceAt(text string, i int) (bool, int) {
	c := text[i]
	if c < utf8.RuneSelf {
		return asciiSpace[c], 1
	}
	r, n := utf8.DecodeRuneInString(text[i:])
	return unicode.IsSpace(r), n
}

var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// skipSpace returns the first position at or after i, before end, that is
// not white space (or end).
func skipSpace(text string, i, end int) int {
	for i < end {
		sp, n := spaceAt(text, i)
		if !sp {
			break
		}
		i += n
	}
	return i
}

// backSpace returns the position after the last non-space character
// before end, at or after start (or start).
func backSpace(text string, start, end int) int {
	for end > start {
		c := text[end-1]
		if c < utf8.RuneSelf {
			if !asciiSpace[c] {
				break
			}
			end--
			continue
		}
		r, n := utf8.DecodeLastRuneInString(text[start:end])
		if !unicode.IsSpace(r) {
			break
		}
		end -= n
	}
	return end
}

// trimBounds returns the span of text without surrounding white space.
func trimBounds(text string) (int, int) {
	first := skipSpace(text, 0, len(text))
	return first, backSpace(text, first, len(text))
}

// nextSpace returns the first position at or after i, before end, that is
// white space (or end).
func nextSpace(text string, i, end int) int {
	for i < end {
		sp, n := spaceAt(text, i)
		if sp {
			break
		}
		i += n
	}
	return i
}
