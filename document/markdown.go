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
		case c == '`':
			if code, next, ok := codeSpan(s, i); ok {
				b.WriteString(code)
				i = next - 1
				continue
			}
			for i+1 < len(s) && s[i+1] == '`' {
				i++
			}
		case c == '*' || c == '_' && emphasisEdge(s, i):
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

// codeSpan reads the code span whose opening run of backticks starts at
// s[i]: its code (as written, but for one space trimmed from each end when
// both have one) and the offset after its closing run. Only runs of up to
// three backticks open one, so that a line of unmatched runs of every
// length stays linear to read.
func codeSpan(s string, i int) (string, int, bool) {
	n := 0
	for i+n < len(s) && s[i+n] == '`' {
		n++
	}
	if n > 3 {
		return "", 0, false
	}
	for j := i + n; j < len(s); {
		k := strings.IndexByte(s[j:], '`')
		if k < 0 {
			return "", 0, false
		}
		j += k
		m := 0
		for j+m < len(s) && s[j+m] == '`' {
			m++
		}
		if m == n {
			code := s[i+n : j]
			if len(code) >= 2 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
				code = code[1 : len(code)-1]
			}
			return code, j + m, true
		}
		j += m
	}
	return "", 0, false
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
