package contextheader

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/internal/space"
)

// A Heading is a heading of a document, found by [Headings].
type Heading struct {
	// Level is the heading's depth: 1 for the outermost. A heading
	// encloses the text after it up to the next heading of the same or
	// a lower level.
	Level int
	// Title is the heading's text, without markup, on one line.
	Title string
	// Start and End are byte offsets of the heading's line (or lines, for
	// a setext heading) in the text.
	Start, End int
}

// plainTextLevel is the level of a plain-text heading that is neither
// numbered nor in capitals: deeper than any numbered heading, so that
// such a heading nests inside the numbered or capitalised one before it.
const plainTextLevel = 7

// Headings returns the headings of text in order.
//
// For [chunker.Markdown] they are the ATX ("## Title") and setext (a line
// underlined with = or -) headings, never lines inside fenced or indented
// code or HTML blocks, with inline markup (emphasis, code spans, links)
// taken out of their titles.
//
// For [chunker.Text], which has no markup, a heading is a line that looks
// like one. It must open a paragraph (the text's first line, or a line
// after a blank line), hold 1 to 12 words and at most 100 bytes, contain a
// letter, not end in sentence or clause punctuation (. , ; : ! ? …, also
// before closing quotes or brackets) and not start with a list bullet.
// Then it is a heading if it is
//
//   - numbered: a section number of up to four parts of up to three
//     digits ("2", "2.1", "2.1.", "10.3.2") and a word that starts with a
//     capital ("2.1 Scope"); its level is the number of parts. The line
//     may be followed directly by body text, unless the next line is
//     another numbered line (a list) or starts with a lower-case letter
//     (a wrapped sentence);
//   - in capitals: no lower-case letter and at least three upper-case
//     ones ("ENVIRONMENTAL REVIEW"); level 1. It may be followed directly
//     by body text, unless the next line is in capitals too;
//   - a short line on its own: a paragraph of one line, of at most ten
//     words, that starts with a capital, has at least as many words that
//     start with a letter as words that do not, and is not the text's
//     last paragraph ("Environmental review"); level 7, so that it nests
//     inside numbered and capitalised headings.
//
// Headings never fails: any text, even invalid UTF-8, gives a list
// (possibly empty) of headings in order, within the text, that do not
// overlap.
func Headings(text string, format chunker.Format) []Heading {
	if format == chunker.Markdown {
		return markdownHeadings(text)
	}
	return textHeadings(text)
}

// SectionPath returns the titles of the headings that enclose offset,
// outermost first: the last heading that starts at or before offset,
// the last heading before that one with a lower level, and so on.
// headings must be in order, as [Headings] returns them.
func SectionPath(headings []Heading, offset int) []string {
	o := outlineOf(headings)
	return o.path(o.section(offset))
}

// An outline answers SectionPath for many offsets of one text: each
// heading knows its parent, and each path is built once.
type outline struct {
	headings []Heading
	parent   []int
	paths    [][]string
}

func newOutline(text string, format chunker.Format) *outline {
	return outlineOf(Headings(text, format))
}

// outlineOf returns the outline of headings, which are in order.
func outlineOf(hs []Heading) *outline {
	o := &outline{headings: hs, parent: make([]int, len(hs)), paths: make([][]string, len(hs))}
	var stack []int
	for i, h := range hs {
		for len(stack) > 0 && hs[stack[len(stack)-1]].Level >= h.Level {
			stack = stack[:len(stack)-1]
		}
		o.parent[i] = -1
		if len(stack) > 0 {
			o.parent[i] = stack[len(stack)-1]
		}
		stack = append(stack, i)
	}
	return o
}

// section returns the index of the innermost heading that encloses
// offset, or -1.
func (o *outline) section(offset int) int {
	return sort.Search(len(o.headings), func(i int) bool { return o.headings[i].Start > offset }) - 1
}

// chunkSection returns the index of the innermost heading that encloses
// the chunk text[start:end], or -1: the section of the chunk's start, or,
// when the chunk opens with headings, of its first text after them. A
// chunk that runs on into the next section shows that section's heading
// in its own text.
func (o *outline) chunkSection(text string, start, end int) int {
	i := o.section(start)
	for i >= 0 && o.headings[i].Start == start && o.headings[i].End < end {
		start = space.Skip(text, o.headings[i].End, end)
		i = o.section(start)
	}
	return i
}

// path returns the titles from the outermost heading to heading i.
func (o *outline) path(i int) []string {
	if i < 0 {
		return nil
	}
	if o.paths[i] == nil {
		o.paths[i] = append(append([]string(nil), o.path(o.parent[i])...), o.headings[i].Title)
	}
	return o.paths[i]
}

// textHeadings finds heading-like lines of plain text; see Headings.
func textHeadings(text string) []Heading {
	var out []Heading
	lines := splitLines(text)
	for i, l := range lines {
		if l.blank || i > 0 && !lines[i-1].blank {
			continue
		}
		if h, ok := textHeading(text, lines, i); ok {
			out = append(out, h)
		}
	}
	return out
}

type line struct {
	start, end int // without the line break
	blank      bool
}

func splitLines(text string) []line {
	var lines []line
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		next := start + end + 1
		if end < 0 {
			end, next = len(text)-start, len(text)
		}
		l := line{start: start, end: start + end}
		l.blank = strings.TrimSpace(text[l.start:l.end]) == ""
		lines = append(lines, l)
		start = next
	}
	return lines
}

// textHeading decides whether lines[i], which opens a paragraph, is a
// heading.
func textHeading(text string, lines []line, i int) (Heading, bool) {
	t := strings.TrimSpace(text[lines[i].start:lines[i].end])
	if len(t) > 100 || !headingLike(t) {
		return Heading{}, false
	}
	words := strings.Fields(t)
	if len(words) > 12 {
		return Heading{}, false
	}
	h := Heading{Level: 1, Title: oneLine(t), Start: lines[i].start, End: lines[i].end}
	level, numbered := sectionNumber(t)
	caps := !numbered && capitals(t)
	standalone := i+1 == len(lines) || lines[i+1].blank
	switch {
	case standalone && !laterText(lines, i):
		return Heading{}, false
	case numbered || caps:
		if !standalone && !headsBody(text, lines[i+1], caps) {
			return Heading{}, false
		}
		if numbered {
			h.Level = level
		}
		return h, true
	case standalone && len(words) <= 10 && titleLike(words):
		h.Level = plainTextLevel
		return h, true
	}
	return Heading{}, false
}

// headingLike checks what every heading-like line must be: with a letter,
// not a list item, not ending in punctuation that ends a sentence or
// clause.
func headingLike(t string) bool {
	if strings.IndexFunc(t, unicode.IsLetter) < 0 {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(t); strings.ContainsRune("-*+•–—·>|#", r) {
		return false
	}
	t = strings.TrimRight(t, "\"')]}”’»")
	r, _ := utf8.DecodeLastRuneInString(t)
	return !strings.ContainsRune(".,;:!?…", r)
}

// sectionNumber reads a section number such as "2.1" or "3." followed by
// white space and a capitalised word, and returns its number of parts.
func sectionNumber(t string) (int, bool) {
	parts, i := 0, 0
	for parts < 4 {
		j := i
		for j < len(t) && j-i < 4 && '0' <= t[j] && t[j] <= '9' {
			j++
		}
		if j == i || j-i > 3 {
			return 0, false
		}
		parts++
		i = j
		if i+1 < len(t) && t[i] == '.' && '0' <= t[i+1] && t[i+1] <= '9' {
			i++
			continue
		}
		break
	}
	if i < len(t) && t[i] == '.' {
		i++
	}
	rest := strings.TrimLeft(t[i:], " \t")
	if len(rest) == len(t)-i { // no white space after the number
		return 0, false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return parts, unicode.IsUpper(r)
}

// capitals reports a line with no lower-case letter and at least three
// upper-case ones.
func capitals(t string) bool {
	upper := 0
	for _, r := range t {
		switch {
		case unicode.IsLower(r):
			return false
		case unicode.IsUpper(r):
			upper++
		}
	}
	return upper >= 3
}

// titleLike reports words that read as a title: the first starts with a
// capital, and at least half of them start with a letter.
func titleLike(words []string) bool {
	letters := 0
	for _, w := range words {
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsLetter(r) {
			letters++
		}
	}
	r, _ := utf8.DecodeRuneInString(words[0])
	return unicode.IsUpper(r) && 2*letters >= len(words)
}

// headsBody reports whether next, the line after a numbered or
// capitalised line in the same paragraph, reads as body text under a
// heading rather than as the next item of a list, the rest of a wrapped
// sentence or more text in capitals.
func headsBody(text string, next line, caps bool) bool {
	t := strings.TrimSpace(text[next.start:next.end])
	if _, numbered := sectionNumber(t); numbered {
		return false
	}
	if caps && capitals(t) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(t)
	return !unicode.IsLower(r)
}

// laterText reports whether a non-blank line follows lines[i].
func laterText(lines []line, i int) bool {
	for _, l := range lines[i+1:] {
		if !l.blank {
			return true
		}
	}
	return false
}
