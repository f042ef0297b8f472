package loader

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/document"
)

// cleanText returns a parser's text as a document holds it: without a
// leading byte-order mark, without control characters other than tab,
// newline and carriage return, and valid UTF-8 (each invalid byte
// replaced with U+FFFD), counting the changes in rep. The marks, sorted
// and within the text, are moved with the bytes they point at.
func cleanText(text string, marks []document.Mark, rep *Repair) (string, []document.Mark) {
	if rest, ok := strings.CutPrefix(text, "\uFEFF"); ok {
		text = rest
		rep.Controls++
		for i := range marks {
			marks[i].Offset = max(marks[i].Offset-len("\uFEFF"), 0)
		}
	}
	if utf8.ValidString(text) && !hasControl(text) {
		return text, marks
	}
	var sb strings.Builder
	sb.Grow(len(text))
	m := 0
	for i := 0; i < len(text); {
		for m < len(marks) && marks[m].Offset <= i {
			marks[m].Offset = sb.Len()
			m++
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			rep.InvalidBytes++
			sb.WriteRune(utf8.RuneError)
		case dropped(r):
			rep.Controls++
		default:
			sb.WriteString(text[i : i+n])
		}
		i += n
	}
	for ; m < len(marks); m++ {
		marks[m].Offset = sb.Len()
	}
	return sb.String(), marks
}

// dropped reports a control character that a document does not keep:
// every C0 and C1 control and DEL but tab, newline and carriage return.
func dropped(r rune) bool {
	return unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r'
}

// hasControl reports whether valid UTF-8 holds a character that dropped
// reports, looking at bytes: C0 and DEL are single bytes, and the C1
// controls U+0080 to U+009F are 0xC2 followed by 0x80 to 0x9F.
func hasControl(b string) bool {
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r', c == 0x7f:
			return true
		case c == 0xc2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9f:
			return true
		}
	}
	return false
}

// firstInvalid returns the offset of the first byte of b that is not part
// of a valid UTF-8 sequence; b is not valid.
func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}
