package document

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/internal/markdown"
	"github.com/ragkit/ragkit/internal/space"
)

// A Heading is a heading of a text, found by [Headings].
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

// Headings returns the headings of text, read as format, in order.
//
// For [Markdown] they are the ATX ("## Title") and setext (a line
// underlined with = or -) headings, never lines inside fenced or indented
// code or HTML blocks, with inline markup (emphasis, code spans, links)
// taken out of their titles.
//
// For [Text], which has no markup, a heading is a line that looks like
// one. It must open a paragraph (the text's first line, or a line after a
// blank line), hold 1 to 12 words and at most 100 bytes, contain a
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
// Lines end at "\n", "\r\n" or a lone "\r". Headings never fails: any
// text, even invalid UTF-8, gives a list (possibly empty) of headings in
// order, within the text, that do not overlap. A format that is not
// [Valid] reads as Text.
func Headings(text string, format Format) []Heading {
	if format == Markdown {
		return markdownHeadings(text)
	}
	return textHeadings(text)
}

// An Outline is the heading structure of one text: its headings, and
// which heading encloses which. It answers the section path of any
// stretch of the text in time proportional to the path. An Outline is
// safe for concurrent use.
type Outline struct {
	text     string
	format   Format
	headings []Heading
	parent   []int // the index of each heading's enclosing heading, or -1
}

// NewOutline returns the outline of text, read as format.
func NewOutline(text string, format Format) *Outline {
	hs := Headings(text, format)
	o := &Outline{text: text, format: format, headings: hs, parent: make([]int, len(hs))}
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

// Headings returns the outline's headings in order. The slice is the
// outline's own: do not modify it.
func (o *Outline) Headings() []Heading { return o.headings }

// Path returns the section path of text[start:end]: the titles of the
// headings that enclose it, outermost first, or nil outside every
// section. The section is that of start, or, when the stretch opens with
// headings, that of its first text after them, so a chunk that opens a
// section is labelled with it. For an offset, use Path(offset, offset).
func (o *Outline) Path(start, end int) []string {
	return o.path(o.spanSection(start, end))
}

// section returns the index of the innermost heading that encloses
// offset (the last heading that starts at or before it), or -1.
func (o *Outline) section(offset int) int {
	return sort.Search(len(o.headings), func(i int) bool { return o.headings[i].Start > offset }) - 1
}

// spanSection returns the index of the innermost heading that encloses
// text[start:end], as Path describes.
func (o *Outline) spanSection(start, end int) int {
	start, end = max(start, 0), min(end, len(o.text))
	i := o.section(start)
	for i >= 0 && o.headings[i].Start == start && o.headings[i].End < end {
		start = space.Skip(o.text, o.headings[i].End, end)
		i = o.section(start)
	}
	return i
}

// path returns the titles from the outermost heading to heading i, built
// from the end by following parents: time and memory in the path's depth.
func (o *Outline) path(i int) []string {
	n := 0
	for j := i; j >= 0; j = o.parent[j] {
		n++
	}
	if n == 0 {
		return nil
	}
	p := make([]string, n)
	for j := i; j >= 0; j = o.parent[j] {
		n--
		p[n] = o.headings[j].Title
	}
	return p
}

// textHeadings finds heading-like lines of plain text; see Headings. It
// reads the text a line at a time, with the next line in view.
func textHeadings(text string) []Heading {
	var out []Heading
	tail := space.Back(text, 0, len(text)) // the end of the last text
	lines := markdown.NewLines(text, strings.IndexByte(text, '\r') >= 0)
	prevBlank := true
	for l := lineFrom(text, &lines, 0); l.start < len(text); {
		next := lineFrom(text, &lines, l.next)
		if !l.blank && prevBlank {
			if h, ok := textHeading(text, l, next, l.next < tail); ok {
				out = append(out, h)
			}
		}
		prevBlank, l = l.blank, next
	}
	return out
}

type line struct {
	start, end int // without the line break
	next       int // the start of the next line
	blank      bool
}

// lineFrom returns the line of text (read through lines) that starts at start: it ends at
// "\n", "\r\n" or a lone "\r". At the end of the text it is an empty,
// blank line.
func lineFrom(text string, lines *markdown.Lines, start int) line {
	if start >= len(text) {
		return line{start: len(text), end: len(text), next: len(text), blank: true}
	}
	end, next := lines.At(start)
	if end > start && end < len(text) && text[end] == '\n' && text[end-1] == '\r' {
		end-- // the "\r" of "\r\n" is part of the line break here
	}
	return line{start: start, end: end, next: next, blank: space.Skip(text, start, end) == end}
}

// textHeading decides whether l, which opens a paragraph, is a heading;
// next is the line after it, and later reports text after l.
func textHeading(text string, l, next line, later bool) (Heading, bool) {
	t := strings.TrimSpace(text[l.start:l.end])
	if len(t) > 100 || !headingLike(t) {
		return Heading{}, false
	}
	level, numbered := sectionNumber(t)
	caps := !numbered && capitals(t)
	standalone := next.blank
	if !numbered && !caps && !standalone || standalone && !later {
		// No kind of heading applies: most lines of text end here,
		// before their words are counted.
		return Heading{}, false
	}
	words, lettered := countWords(t)
	if words > 12 {
		return Heading{}, false
	}
	h := Heading{Level: 1, Start: l.start, End: l.end}
	switch {
	case numbered || caps:
		if !standalone && !headsBody(text, next, caps) {
			return Heading{}, false
		}
		if numbered {
			h.Level = level
		}
	case words <= 10 && titleLike(t, words, lettered):
		h.Level = plainTextLevel
	default:
		return Heading{}, false
	}
	h.Title = space.OneLine(t)
	return h, true
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
	for i := 0; i < len(t); {
		c, n := classAt(t, i)
		i += n
		switch {
		case c&classLower != 0:
			return false
		case c&classUpper != 0:
			upper++
		}
	}
	return upper >= 3
}

// titleLike reports whether t, of words words of which lettered start
// with a letter, reads as a title: it starts with a capital, and at least
// half of its words start with a letter.
func titleLike(t string, words, lettered int) bool {
	r, _ := utf8.DecodeRuneInString(t)
	return unicode.IsUpper(r) && 2*lettered >= words
}

// countWords counts the words of t, as strings.Fields cuts them, and
// those that start with a letter, without making the words.
func countWords(t string) (words, lettered int) {
	inWord := false
	for i := 0; i < len(t); {
		c, n := classAt(t, i)
		i += n
		switch {
		case c&classSpace != 0:
			inWord = false
		case !inWord:
			inWord = true
			words++
			if c&classLetter != 0 {
				lettered++
			}
		}
	}
	return words, lettered
}

// The classes of a rune that countWords and capitals ask about, as
// unicode.IsSpace, IsLetter, IsUpper and IsLower answer them.
const (
	classSpace = 1 << iota
	classLetter
	classUpper
	classLower
)

func runeClass(r rune) uint8 {
	var c uint8
	if unicode.IsSpace(r) {
		c |= classSpace
	}
	if unicode.IsLetter(r) {
		c |= classLetter
	}
	if unicode.IsUpper(r) {
		c |= classUpper
	}
	if unicode.IsLower(r) {
		c |= classLower
	}
	return c
}

// asciiClass holds runeClass of each ASCII byte.
var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for b := range t {
		t[b] = runeClass(rune(b))
	}
	return t
}()

// classAt returns the classes of the rune at t[i] and its width; ASCII
// from the table, without decoding.
func classAt(t string, i int) (uint8, int) {
	if t[i] < utf8.RuneSelf {
		return asciiClass[t[i]], 1
	}
	r, n := utf8.DecodeRuneInString(t[i:])
	return runeClass(r), n
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
