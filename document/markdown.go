package document

import (
	"strings"

	"github.com/ragkit/ragkit/internal/markdown"
	"github.com/ragkit/ragkit/internal/space"
)

// markdownHeadings returns the Markdown headings of text with plain
// titles; a heading whose title is empty once its markup is gone is left
// out.
func markdownHeadings(text string) []Heading {
	raw := markdown.AppendHeadings(nil, text)
	out := make([]Heading, 0, len(raw))
	for _, h := range raw {
		title := inlineText(text[h.TitleStart:h.TitleEnd])
		if title == "" {
			continue
		}
		out = append(out, Heading{Level: h.Level, Title: title, Start: h.Start, End: h.End})
	}
	return out
}

// inlineText takes the common inline markup out of a heading's text:
// links and images keep their text, code spans their code, emphasis
// markers and backslash escapes go, and white space becomes single
// spaces. It is not a CommonMark inline parser; it makes titles readable.
// It is linear in s, even on a long line of unmatched brackets.
func inlineText(s string) string {
	if !strings.ContainsAny(s, "\\*`_[!") {
		return space.OneLine(s)
	}
	in := inline{s: s}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte("\\`*_[]()#!<>{}-.+", s[i+1]) >= 0:
			i++
			b.WriteByte(s[i])
		case c == '*' || c == '`' || c == '_' && emphasisEdge(s, i):
			// markup
		case c == '!' && i+1 < len(s) && s[i+1] == '[':
			// an image: its alt text stays, as for a link
		case c == '[':
			if label, next, ok := in.link(i); ok {
				b.WriteString(label)
				i = next - 1
				continue
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return space.OneLine(b.String())
}

// emphasisEdge reports whether the underscore at s[i] is at the edge of a
// word (markup) rather than inside one (snake_case).
func emphasisEdge(s string, i int) bool {
	word := func(j int) bool {
		return j >= 0 && j < len(s) && s[j] != ' ' && s[j] != '_' && s[j] != '\t'
	}
	return !word(i-1) || !word(i+1)
}

// inline reads the links of one heading's text. Each of its searches
// starts no earlier than the last search of its kind, so remembering what
// the last one found keeps the whole reading linear.
type inline struct {
	s                          string
	labelEnd, parenEnd, refEnd finder
}

// A finder finds the first occurrence of a byte at or after an offset,
// remembering its last answer: s holds none of the byte in [from, at),
// and at is where it is (len(s) for nowhere).
type finder struct{ from, at int }

func (f *finder) index(s string, i int, c byte) int {
	if f.at <= f.from || i < f.from || i > f.at { // unknown: search
		f.from, f.at = i, len(s)
		if j := strings.IndexByte(s[i:], c); j >= 0 {
			f.at = i + j
		}
	}
	if f.at == len(s) {
		return -1
	}
	return f.at
}

// link reads "[label](target)" or "[label][ref]" at s[i] and returns the
// label and the offset after the link.
func (in *inline) link(i int) (string, int, bool) {
	s := in.s
	end := in.labelEnd.index(s, i, ']')
	if end < 0 || end+1 >= len(s) {
		return "", 0, false
	}
	label, rest := s[i+1:end], end+1
	var stop int
	switch s[rest] {
	case '(':
		stop = in.parenEnd.index(s, rest, ')')
	case '[':
		stop = in.refEnd.index(s, rest+1, ']')
	default:
		return "", 0, false
	}
	if stop < 0 {
		return "", 0, false
	}
	return inlineText(label), stop + 1, true
}
