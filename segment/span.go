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

// The word-at-a-time scans read eight bytes as one little-endian word and
// mark the bytes they look for with the high bit of the byte. A mark may
// also fall on a byte after a marked one (a borrow from the subtraction
// that made it), so only the lowest mark of a word is exact.
const (
	lowBytes = 0x0101010101010101 // 1 in every byte
	highBits = 0x8080808080808080 // the high bit of every byte
)

// controlBytes marks the bytes of w below 0x0E.
func controlBytes(w uint64) uint64 { return (w - lowBytes*0x0E) &^ w & highBits }

// breakBytes marks the bytes of w below 0x0E, 0x85, 0xA8 and 0xA9.
func breakBytes(w uint64) uint64 {
	x, y := w^(lowBytes*0x85), (w&(lowBytes*0xFE))^(lowBytes*0xA8)
	return controlBytes(w) | ((x-lowBytes)&^x|(y-lowBytes)&^y)&highBits
}

// firstMarked returns the index in its word of the lowest marked byte of t.
func firstMarked(t uint64) int { return bits.TrailingZeros64(t) >> 3 }

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
	for i < len(text) {
		j := skipToBreak(text, i)
		if j >= len(text) {
			break
		}
		// text[j] is a control character or the last byte of what may be
		// U+0085, U+2028 or U+2029.
		switch c := text[j]; {
		case c < 0x0E:
			if ok, n, p := breakAt(text, j); ok {
				return j, n, p
			}
		case c == 0x85:
			if j-1 >= i && text[j-1] == 0xC2 {
				return j - 1, j + 1, false
			}
		default: // 0xA8 or 0xA9
			if j-2 >= i && text[j-2] == 0xE2 && text[j-1] == 0x80 {
				return j - 2, j + 1, c == 0xA9
			}
		}
		i = j + 1
	}
	return len(text), len(text), false
}

// skipToBreak returns the index of the first byte at or after i that may
// end a line break: a byte below 0x0E (all the ASCII breaks are) or the
// last byte of U+0085, U+2028 or U+2029 (0x85, 0xA8, 0xA9), which most
// texts do not hold, where a search for their first bytes would stop at
// every curly quote and dash. It returns len(text) if there is none.
func skipToBreak(text string, i int) int {
	for ; i+8 <= len(text); i += 8 {
		if t := breakBytes(load64(text, i)); t != 0 {
			return i + firstMarked(t)
		}
	}
	for ; i < len(text); i++ {
		if c := text[i]; c < 0x0E || c == 0x85 || c == 0xA8 || c == 0xA9 {
			return i
		}
	}
	return len(text)
}

// breakFinder finds the line breaks of one text. Most texts hold none of
// U+0085, U+2028 and U+2029, and for them a scan for bytes below 0x0E
// finds every break with less than half of nextBreak's work on each word;
// whether a text holds any is worth working out with strings.IndexByte
// when it is not short.
type breakFinder bool // true if the text holds only ASCII line breaks

func newBreakFinder(text string) breakFinder {
	const long = 96
	return breakFinder(len(text) >= long &&
		!containsRare(text, "\u0085") && !containsRare(text, "\u2028") && !containsRare(text, "\u2029"))
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

// next is nextBreak for the text f was made for.
func (f breakFinder) next(text string, i int) (end, next int, para bool) {
	if !f {
		return nextBreak(text, i)
	}
	for i < len(text) {
		i = skipToControl(text, i)
		if i >= len(text) {
			break
		}
		if ok, n, p := breakAt(text, i); ok {
			return i, n, p
		}
		i++
	}
	return len(text), len(text), false
}

// skipToControl returns the index of the first byte below 0x0E at or after
// i, or len(text).
func skipToControl(text string, i int) int {
	for ; i+8 <= len(text); i += 8 {
		if t := controlBytes(load64(text, i)); t != 0 {
			return i + firstMarked(t)
		}
	}
	for i < len(text) && text[i] >= 0x0E {
		i++
	}
	return i
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

// paragraph is a run of non-blank lines.
type paragraph struct {
	start, end int // trimmed bounds
	next       int // where scanning for the following paragraph resumes
}

// nextParagraph finds the first paragraph at or after i, f being the
// breakFinder of text. Lines that hold only white space are blank. It looks
// at no more of each line than it must to tell that it is not blank.
func nextParagraph(text string, i int, f breakFinder) (p paragraph, ok bool) {
	p.start = -1
	lastStart, lastEnd := 0, 0 // the last non-blank line
	for i < len(text) {
		end, next, para := f.next(text, i)
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
// terminators (see hasStop). In most languages no ASCII character but '.',
// '!' and '?' ends a sentence, and it answers in one scan: yes at the first
// of these followed by a space, and at the end of a line that holds one,
// or a multi-byte rune other than U+2000 to U+2025 (dashes and curly
// quotes), what hasStop says of it; other lines cannot hold a terminator.
func (p paragraph) terminated(text string, l *language) bool {
	if l.colon || l.semi {
		for i := p.start; i < p.end; {
			end, next, _ := nextBreak(text, i)
			if s, e := trim(text, i, end); s < e && l.hasStop(text, s, e) {
				return true
			}
			i = next
		}
		return false
	}
	stops := func(ls, le int) bool {
		s, e := trim(text, ls, le)
		return s < e && l.hasStop(text, s, e)
	}
	ls, candidate := p.start, false
	for i := p.start; i < p.end; {
		i = skipPlain(text, i, p.end)
		if i >= p.end {
			break
		}
		if ok, next, _ := breakAt(text, i); ok {
			if candidate && stops(ls, i) {
				return true
			}
			ls, candidate, i = next, false, next
			continue
		}
		switch c := text[i]; {
		case c == 0xE2 && punctuation(text, i):
			i += 3 // a curly quote or a dash, which hasStop passes over
			continue
		case c == '.' || c == '!' || c == '?':
			// hasStop would find this terminator followed by a space, or
			// if the space ends the line, find that the line ends with it.
			j := stopRun(text, i+1, p.end)
			if j < p.end && (text[j] == ' ' || text[j] == '\t') {
				return true
			}
			candidate = true
		case c >= utf8.RuneSelf:
			candidate = true
		}
		i++
	}
	return candidate && stops(ls, p.end)
}

// width estimates the width the lines of p were wrapped at: the length of
// its longest line, or for a long paragraph the length that nine lines in
// ten do not exceed, so that a few overlong lines (titles, URLs) in a
// document without blank lines do not distort it.
func (p paragraph) width(text string, f breakFinder) int {
	const few = 16
	var hist [256]int32
	lines, maxLine := 0, 0
	for i := p.start; i < p.end; {
		end, next, _ := f.next(text, i)
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
	f := newBreakFinder(text)
	for i := 0; i < len(text); {
		p, ok := nextParagraph(text, i, f)
		if !ok {
			break
		}
		dst = append(dst, Span{p.start, p.end})
		i = p.next
	}
	return dst
}
