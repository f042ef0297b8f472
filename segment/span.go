package segment

import (
	"math/bits"
	"strings"
	"unicode/utf8"

	"github.com/ragkit/ragkit/internal/space"
)

// Span is a half-open range of byte offsets [Start, End) into the text it
// was taken from: the unit is text[Start:End].
type Span struct{ Start, End int }

// Len returns the length of the span in bytes.
func (s Span) Len() int { return s.End - s.Start }

// Text returns the unit the span points at in text, the string the span was
// taken from.
func (s Span) Text(text string) string { return text[s.Start:s.End] }

// appendTrimmed appends [s,e) without surrounding white space, unless
// nothing is left of it.
func appendTrimmed(dst []Span, text string, s, e int) []Span {
	s, e = trim(text, s, e)
	if s < e {
		dst = append(dst, Span{s, e})
	}
	return dst
}

// trim is space.Trim, answering at once for the commonest ends of a
// sentence or line: printable ASCII, a curly quote or a dash.
func trim(text string, s, e int) (int, int) {
	if s < e && visibleAt(text, s) && visibleBefore(text, s, e) {
		return s, e
	}
	return space.Trim(text, s, e)
}

// skipSpace is space.Skip with trim's shortcut.
func skipSpace(text string, i, end int) int {
	if i < end && visibleAt(text, i) {
		return i
	}
	return space.Skip(text, i, end)
}

// visibleAt reports that text[i:] does not start with white space when it
// can tell at a glance: for ASCII, and for U+200B to U+2027 (curly quotes,
// dashes, invisible characters), which lie between the spaces U+2000 to
// U+200A and the separators U+2028 and U+2029. A false answer means "not
// known".
func visibleAt(text string, i int) bool {
	c := text[i]
	if c < utf8.RuneSelf {
		return !space.Byte(c)
	}
	return c == 0xE2 && i+2 < len(text) && text[i+1] == 0x80 && text[i+2] >= 0x8B && text[i+2] <= 0xA7
}

// visibleBefore is visibleAt for the last character of text[s:e].
func visibleBefore(text string, s, e int) bool {
	c := text[e-1]
	if c < utf8.RuneSelf {
		return !space.Byte(c)
	}
	return e-3 >= s && text[e-3] == 0xE2 && text[e-2] == 0x80 && c >= 0x8B && c <= 0xA7
}

// Line breaks follow the Unicode newline guidelines (UAX #14 classes BK, CR,
// LF and NL): "\r\n", "\n", "\r", "\v", "\f", U+0085 NEL, U+2028 LINE
// SEPARATOR and U+2029 PARAGRAPH SEPARATOR. The last one also ends a
// paragraph.

// breakLead marks the bytes that may start a line break.
var breakLead = [256]bool{'\n': true, '\v': true, '\f': true, '\r': true, 0xC2: true, 0xE2: true}

// breakAt reports whether a line break starts at text[i] and returns the
// index just past it and whether it is a paragraph separator.
func breakAt(text string, i int) (ok bool, next int, para bool) {
	switch text[i] {
	case '\n', '\v', '\f':
		return true, i + 1, false
	case '\r':
		if i+1 < len(text) && text[i+1] == '\n' {
			return true, i + 2, false
		}
		return true, i + 1, false
	case 0xC2:
		if i+1 < len(text) && text[i+1] == 0x85 {
			return true, i + 2, false
		}
	case 0xE2:
		if i+2 < len(text) && text[i+1] == 0x80 && (text[i+2] == 0xA8 || text[i+2] == 0xA9) {
			return true, i + 3, text[i+2] == 0xA9
		}
	}
	return false, i, false
}

// load64 reads text[i:i+8] as a little-endian word. Slicing first leaves
// one bounds check where indexing text[i+k] needed eight.
func load64(text string, i int) uint64 {
	b := text[i : i+8]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// nextBreak finds the first line break at or after i. It returns the index
// where the line ends, the index where the next line starts and whether the
// break is a paragraph separator. Without a break, it returns len(text) twice.
func nextBreak(text string, i int) (end, next int, para bool) {
	for ; i < len(text); i++ {
		// Skip eight bytes at a time while none can start a break: all
		// line breaks start with a byte below 0x0E or above 0x7F.
		for i+8 <= len(text) {
			w := load64(text, i)
			if (w-0x0E0E0E0E0E0E0E0E)&^w&0x8080808080808080 != 0 || w&0x8080808080808080 != 0 {
				break
			}
			i += 8
		}
		if i >= len(text) {
			break
		}
		if !breakLead[text[i]] {
			continue
		}
		if ok, n, p := breakAt(text, i); ok {
			return i, n, p
		}
	}
	return len(text), len(text), false
}

// Lines returns the non-blank lines of text, each trimmed of surrounding
// white space. "\r\n" is one line break, like "\n"; a lone "\r", "\v", "\f",
// U+0085, U+2028 and U+2029 also end a line.
func Lines(text string) []Span { return AppendLines(nil, text) }

// AppendLines appends the spans [Lines] would return to dst and returns the
// extended slice.
func AppendLines(dst []Span, text string) []Span {
	for i := 0; i < len(text); {
		end, next, _ := nextBreak(text, i)
		dst = appendTrimmed(dst, text, i, end)
		i = next
	}
	return dst
}

// breakScan finds the line breaks of one text. Most texts hold no line
// break but "\n", "\r\n", "\r", "\v" and "\f", all below 0x0E, which one
// test on a word of eight bytes finds; a scan for every kind of break must
// also stop at every byte of a multi-byte rune (curly quotes and dashes),
// for U+0085, U+2028 and U+2029.
type breakScan struct {
	simple bool // no break but "\n", "\r\n", "\r", "\v" and "\f"
}

// newBreakScan looks at which kinds of line break text holds.
func newBreakScan(text string) breakScan {
	return breakScan{simple: !containsRare(text, "\u0085") && !containsRare(text, "\u2028") && !containsRare(text, "\u2029")}
}

// containsRare is strings.Contains for a multi-byte sequence whose last
// byte is rare: it searches for that byte, where strings.Contains searches
// for the first, which the lead byte of curly quotes and dashes ("\xe2")
// shares with the line separators.
func containsRare(text, seq string) bool {
	last := seq[len(seq)-1]
	for i := len(seq) - 1; i < len(text); i++ {
		k := strings.IndexByte(text[i:], last)
		if k < 0 {
			return false
		}
		i += k
		if text[i+1-len(seq):i+1] == seq {
			return true
		}
	}
	return false
}

// next is nextBreak for the text b was made for.
func (b breakScan) next(text string, i int) (end, next int, para bool) {
	if !b.simple {
		return nextBreak(text, i)
	}
	for i < len(text) {
		i = skipAboveControls(text, i)
		if i >= len(text) {
			break
		}
		switch text[i] {
		case '\n', '\v', '\f':
			return i, i + 1, false
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				return i, i + 2, false
			}
			return i, i + 1, false
		}
		i++
	}
	return len(text), len(text), false
}

// skipAboveControls returns the index of the first byte below 0x0E at or
// after i, or a few bytes before the end of text if none comes before
// them.
func skipAboveControls(text string, i int) int {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	for i+8 <= len(text) {
		w := load64(text, i)
		// The lowest byte whose high bit t sets is the first below 0x0E;
		// bytes after it may be marked by the borrow.
		if t := (w - ones*0x0E) &^ w & high; t != 0 {
			return i + bits.TrailingZeros64(t)>>3
		}
		i += 8
	}
	for i < len(text) && text[i] >= 0x0E {
		i++
	}
	return i
}

// paragraph is a run of non-blank lines.
type paragraph struct {
	start, end int // trimmed bounds
	next       int // where scanning for the following paragraph resumes
}

// nextParagraph finds the first paragraph at or after i, b being the
// breakScan of text. Lines that hold only white space are blank. It looks
// at no more of each line than it must to tell that it is not blank.
func nextParagraph(text string, i int, b breakScan) (p paragraph, ok bool) {
	p.start = -1
	lastStart, lastEnd := 0, 0 // the last non-blank line
	for i < len(text) {
		end, next, para := b.next(text, i)
		s := skipSpace(text, i, end)
		i = next
		if s == end {
			if p.start >= 0 {
				break
			}
			continue
		}
		if p.start < 0 {
			p.start = s
		}
		lastStart, lastEnd = s, end
		if para {
			break
		}
	}
	p.next = i
	if p.start < 0 {
		return p, false
	}
	p.end = space.Back(text, lastStart, lastEnd)
	return p, true
}

// terminated reports whether one of the lines of p holds one of l's
// terminators.
func (p paragraph) terminated(text string, b breakScan, l *language) bool {
	if b.simple && !l.colon && !l.semi {
		return p.terminatedSimple(text, l)
	}
	for i := p.start; i < p.end; {
		end, next, _ := b.next(text, i)
		if s, e := trim(text, i, end); s < e && l.hasStop(text, s, e) {
			return true
		}
		i = next
	}
	return false
}

// terminatedSimple is terminated for a text whose only line breaks are
// ASCII control characters, in a language where no ASCII character but
// '.', '!' and '?' ends a sentence: it passes over the lines that hold none
// of these and no multi-byte rune in one scan, since hasStop cannot find
// a terminator in them, and asks hasStop about the others.
func (p paragraph) terminatedSimple(text string, l *language) bool {
	ls, candidate := p.start, false
	for i := p.start; ; i++ {
		i = skipPlain(text, i, p.end)
		if i >= p.end {
			break
		}
		switch c := text[i]; {
		case c == '\n' || c == '\r' || c == '\v' || c == '\f':
			if candidate {
				if s, e := trim(text, ls, i); s < e && l.hasStop(text, s, e) {
					return true
				}
			}
			ls, candidate = i+1, false
		case c == '.' || c == '!' || c == '?' || c >= utf8.RuneSelf:
			candidate = true
		}
	}
	if candidate {
		if s, e := trim(text, ls, p.end); s < e && l.hasStop(text, s, e) {
			return true
		}
	}
	return false
}

// width estimates the width the lines of p were wrapped at: the length of
// its longest line, or for a long paragraph the length that nine lines in
// ten do not exceed, so that a few overlong lines (titles, URLs) in a
// document without blank lines do not distort it.
func (p paragraph) width(text string, b breakScan) int {
	const few = 16
	var hist [256]int32
	lines, maxLine := 0, 0
	for i := p.start; i < p.end; {
		end, next, _ := b.next(text, i)
		s, e := trim(text, i, end)
		hist[min(e-s, len(hist)-1)]++
		lines++
		maxLine = max(maxLine, e-s)
		i = next
	}
	if lines <= few {
		return maxLine
	}
	want := int32(lines - lines/10)
	var n int32
	for l, c := range hist {
		n += c
		if n >= want {
			return l
		}
	}
	return maxLine
}

// Paragraphs returns the paragraphs of text: runs of lines separated by
// blank lines (lines that are empty or hold only white space) or by U+2029
// PARAGRAPH SEPARATOR. Each span is trimmed of surrounding white space.
// "\r\n" is treated exactly like "\n".
func Paragraphs(text string) []Span { return AppendParagraphs(nil, text) }

// AppendParagraphs appends the spans [Paragraphs] would return to dst and
// returns the extended slice.
func AppendParagraphs(dst []Span, text string) []Span {
	b := newBreakScan(text)
	for i := 0; i < len(text); {
		p, ok := nextParagraph(text, i, b)
		if !ok {
			break
		}
		dst = append(dst, Span{p.start, p.end})
		i = p.next
	}
	return dst
}
