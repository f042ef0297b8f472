package contextheader

import (
	"strings"

	"github.com/ragkit/ragkit/internal/markdown"
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
func inlineText(s string) string {
	if !strings.ContainsAny(s, "\\*`_[!") {
		return oneLine(s)
	}
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
			if label, next, ok := link(s, i); ok {
				b.WriteString(label)
				i = next - 1
				continue
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// emphasisEdge reports whether the underscore at s[i] is at the edge of a
// word (markup) rather than inside one (snake_case).
func emphasisEdge(s string, i int) bool {
	word := func(j int) bool {
		return j >= 0 && j < len(s) && s[j] != ' ' && s[j] != '_' && s[j] != '\t'
	}
	return !word(i-1) || !word(i+1)
}

// link reads "[label](target)" or "[label][ref]" at s[i] and returns the
// label and the offset after the link.
func link(s string, i int) (string, int, bool) {
	end := strings.IndexByte(s[i:], ']')
	if end < 0 || i+end+1 >= len(s) {
		return "", 0, false
	}
	label, rest := s[i+1:i+end], i+end+1
	closer := map[byte]byte{'(': ')', '[': ']'}[s[rest]]
	if closer == 0 {
		return "", 0, false
	}
	stop := strings.IndexByte(s[rest:], closer)
	if stop < 0 {
		return "", 0, false
	}
	return inlineText(label), rest + stop + 1, true
}
