// Package invalidutf8 reads text the way tiktoken-go does before it
// tokenizes it, as string([]rune(text)), with U+FFFD in place of each
// byte that is not part of a valid UTF-8 sequence, and maps offsets in
// that text back to offsets in the original.
package invalidutf8

import (
	"strings"
	"unicode/utf8"
)

// Replace returns s with each invalid byte replaced by U+FFFD, as
// string([]rune(s)) does, in one allocation.
func Replace(s string) string {
	n := 0
	for i := 0; i < len(s); {
		w, rw := widths(s[i:])
		i += w
		n += rw
	}
	var b strings.Builder
	b.Grow(n)
	for i := 0; i < len(s); {
		w, rw := widths(s[i:])
		if w == rw {
			b.WriteString(s[i : i+w])
		} else {
			b.WriteRune(utf8.RuneError)
		}
		i += w
	}
	return b.String()
}

// A Mapper maps offsets in Replace(Text) back to offsets in Text, in
// order: each offset passed to Map must be at least the one before. Its
// zero value with Text set is ready to use.
type Mapper struct {
	Text string
	// i and r are the offsets in Text and in the replaced text of the
	// start of the rune that the last offset mapped fell in.
	i, r int
}

// Map returns the offset in m.Text that corresponds to offset off in the
// replaced text. An offset inside a valid character is the same offset
// within it (a token of bytes can end inside a character); an offset
// inside the U+FFFD of an invalid byte is the end of that byte, so that
// distinct offsets can map to the same one there.
func (m *Mapper) Map(off int) int {
	for m.i < len(m.Text) {
		w, rw := widths(m.Text[m.i:])
		if m.r+rw > off {
			if off == m.r {
				return m.i
			}
			if w == rw {
				return m.i + off - m.r
			}
			return m.i + w
		}
		m.i += w
		m.r += rw
	}
	return m.i
}

// widths returns the width of the rune s starts with, in s and once
// replaced.
func widths(s string) (w, replaced int) {
	r, w := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && w == 1 {
		return 1, utf8.RuneLen(utf8.RuneError)
	}
	return w, w
}
