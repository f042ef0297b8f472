package parse

import (
	"regexp"
	"strings"

	"github.com/ragkit/ragkit/document"
)

// adornment reports whether a line is a reStructuredText adornment: one
// punctuation character repeated, at least twice.
func adornment(l string) bool {
	l = strings.TrimRight(l, " \t\r")
	if len(l) < 2 || strings.IndexByte("=-`:'\"~^_*+#<>.!$%&(),/;?@[]{}|", l[0]) < 0 {
		return false
	}
	return strings.Count(l, l[:1]) == len(l)
}

var (
	rstRole     = regexp.MustCompile(":[a-zA-Z0-9:+_.-]+:`([^`]*)`")
	rstRefText  = regexp.MustCompile("`([^`<]*?) *<[^`>]*>`_{0,2}")
	rstRef      = regexp.MustCompile("`([^`]+)`_{1,2}")
	rstLiteral  = regexp.MustCompile("``([^`]+)``")
	rstLabelled = regexp.MustCompile(`^(.*?) *<[^<>]*>$`)
	directive   = regexp.MustCompile(`^\.\. +([a-zA-Z0-9:_-]+):: *(.*)$`)
	rstWordRef  = regexp.MustCompile(`(^|[\s(])([A-Za-z][A-Za-z0-9-]*)__?([\s.,;:!?)]|$)`)
)

// rstInline rewrites reStructuredText's inline markup as Markdown's:
// inline literals (code between double backticks) as code spans, roles
// and references as their text.
func rstInline(l string) string {
	if strings.IndexByte(l, '_') >= 0 {
		l = rstWordRef.ReplaceAllString(l, "$1$2$3")
	}
	if strings.IndexByte(l, '`') < 0 {
		return l
	}
	l = rstLiteral.ReplaceAllString(l, "`$1`")
	l = rstRole.ReplaceAllStringFunc(l, func(m string) string {
		inner := rstRole.FindStringSubmatch(m)[1]
		if t := rstLabelled.FindStringSubmatch(inner); t != nil && t[1] != "" {
			inner = t[1]
		}
		return "`" + inner + "`"
	})
	l = rstRefText.ReplaceAllString(l, "$1")
	return rstRef.ReplaceAllString(l, "$1")
}

// indentOf returns the width of a line's leading white space.
func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }

// RST reads a reStructuredText file into Markdown: section titles
// (underlined, or over- and underlined) as headings, their levels by the
// order in which each adornment style first appears, as reStructuredText
// defines them; literal blocks (after "::") and code directives
// (code-block, code, sourcecode) as fenced code; admonitions as
// paragraphs under their name; comments, targets, substitutions, images
// and tables of contents dropped; inline literals, roles and references
// as code spans and text. A mark per heading gives its Line.
func RST(data string) (document.Document, error) {
	lines := strings.Split(strings.ReplaceAll(data, "\r\n", "\n"), "\n")
	var w writer
	styles := map[string]int{}
	level := func(style string) int {
		if n, ok := styles[style]; ok {
			return n
		}
		styles[style] = len(styles) + 1
		return styles[style]
	}
	blank := true // the line before is blank, or there is none
	for i := 0; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], " \t\r")
		switch {
		case l == "":
			w.blankLine()
			blank = true
			continue
		case blank && adornment(l) && i+2 < len(lines) && adornment(lines[i+2]) && strings.TrimSpace(lines[i+1]) != "" &&
			strings.TrimRight(lines[i+2], " \t\r")[0] == l[0]:
			w.block()
			w.mark(document.Mark{Line: i + 2})
			w.heading(level("o"+l[:1]), rstInline(strings.TrimSpace(lines[i+1])))
			i += 2
			continue
		case blank && indentOf(l) == 0 && i+1 < len(lines) && adornment(lines[i+1]) && !adornment(l) &&
			len(strings.TrimRight(lines[i+1], " \t\r")) >= min(len([]rune(l)), 3):
			w.block()
			w.mark(document.Mark{Line: i + 1})
			w.heading(level("u"+lines[i+1][:1]), rstInline(l))
			i++
			continue
		case blank && adornment(l) && len(l) >= 4:
			// a transition
			continue
		}
		if m := directive.FindStringSubmatch(l); m != nil && indentOf(l) == 0 {
			body, next := indented(lines, i+1)
			i = next - 1
			switch name := strings.ToLower(m[1]); name {
			case "code-block", "code", "sourcecode", "highlight", "literalinclude":
				if name != "highlight" && name != "literalinclude" {
					w.fence(strings.TrimSpace(m[2]), dropOptions(body))
				}
			case "note", "warning", "tip", "important", "caution", "danger", "attention", "hint", "error", "admonition", "seealso", "versionadded", "versionchanged", "deprecated":
				w.block()
				w.sb.WriteString("**" + strings.ToUpper(name[:1]) + name[1:] + ":** " + rstInline(m[2]) + "\n")
				for _, b := range strings.Split(dropOptions(body), "\n") {
					w.sb.WriteString(rstInline(strings.TrimSpace(b)) + "\n")
				}
			}
			blank = false
			continue
		}
		if strings.HasPrefix(l, "..") && indentOf(l) == 0 {
			// a comment, a target or a substitution, with its body
			_, next := indented(lines, i+1)
			i = next - 1
			continue
		}
		text := rstInline(strings.TrimSpace(l))
		if strings.HasSuffix(text, "::") {
			if text == "::" {
				text = ""
			} else if strings.HasSuffix(text, " ::") {
				text = strings.TrimSuffix(text, " ::")
			} else {
				text = strings.TrimSuffix(text, ":")
			}
			if text != "" {
				w.sb.WriteString(escapeLine(text) + "\n")
			}
			j := i + 1
			for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
				j++
			}
			if j < len(lines) && indentOf(lines[j]) > indentOf(l) {
				body, next := indented(lines, j)
				w.fence("", body)
				i = next - 1
			}
			blank = false
			continue
		}
		if blank {
			text = escapeLine(text)
		}
		w.sb.WriteString(text + "\n")
		blank = false
	}
	return w.doc("", document.Markdown), nil
}

// indented returns the indented block of lines from i, dedented, blank
// lines inside it kept, and the index of the line after it.
func indented(lines []string, i int) (string, int) {
	end := i
	for j := i; j < len(lines); j++ {
		t := strings.TrimRight(lines[j], " \t\r")
		if t == "" {
			continue
		}
		if indentOf(t) == 0 {
			break
		}
		end = j + 1
	}
	cut := -1
	for _, l := range lines[i:end] {
		if strings.TrimSpace(l) != "" && (cut < 0 || indentOf(l) < cut) {
			cut = indentOf(l)
		}
	}
	var sb strings.Builder
	for _, l := range lines[i:end] {
		l = strings.TrimRight(l, " \t\r")
		if len(l) >= cut && cut > 0 {
			l = l[cut:]
		}
		sb.WriteString(l + "\n")
	}
	return strings.Trim(sb.String(), "\n") + "\n", max(end, i)
}

// dropOptions drops a directive's options (":linenos:") from its body.
func dropOptions(body string) string {
	lines := strings.Split(body, "\n")
	i := 0
	for i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), ":") {
		i++
	}
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	return strings.Join(lines[i:], "\n")
}
