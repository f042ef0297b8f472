package parse

import (
	"path"
	"strings"

	"github.com/ragkit/ragkit/document"
)

// A lang says how to read one language's source lines.
type lang struct {
	fence  string // the fenced block's info string
	hash   bool   // # starts a comment (shell, Python)
	slash  bool   // // and /* */ are comments (C's family)
	indent bool   // blocks by indentation (Python), not braces
}

// Langs are the languages [Code] reads, by extension.
var Langs = map[string]string{
	".rs": "rust", ".py": "python", ".pyi": "python", ".js": "javascript", ".mjs": "javascript",
	".cjs": "javascript", ".jsx": "jsx", ".ts": "typescript", ".tsx": "tsx", ".mts": "typescript",
	".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp", ".hh": "cpp",
	".hxx": "cpp", ".java": "java", ".sh": "sh", ".bash": "bash", ".zsh": "zsh",
}

var langs = map[string]lang{
	"python": {fence: "python", hash: true, indent: true},
	"sh":     {fence: "sh", hash: true}, "bash": {fence: "bash", hash: true}, "zsh": {fence: "zsh", hash: true},
}

func langOf(name string) lang {
	if l, ok := langs[name]; ok {
		return l
	}
	return lang{fence: name, slash: true}
}

// A unit is a run of lines, [start, end), read as one top-level block.
type unit struct {
	start, end int
	block      bool // it holds a braced or indented body, not one statement
}

// Code reads a source file of the language name (a value of [Langs], or
// "go") by its top-level blocks: each function, type, class or impl
// block, with the comments, attributes and decorators just before it, a
// section of its own under a heading of its first line ("fn parse(input:
// &str) -> Result<Doc>"), its code in a fenced block; runs of
// statements between blocks (imports, constants) one section. Blocks are
// found by braces outside strings and comments (by indentation for
// Python). The Title is the file's name; a mark per section gives its
// Line.
func Code(name, data, language string) (document.Document, error) {
	l := langOf(language)
	lines := strings.SplitAfter(data, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var depths []int
	if l.indent {
		depths = indentDepths(lines)
	} else {
		depths = braceDepths(lines, l)
	}
	units := splitUnits(lines, depths, l)
	var w writer
	title := path.Base(name)
	w.heading(1, title)
	for _, u := range units {
		code := strings.Join(lines[u.start:u.end], "")
		if strings.TrimSpace(code) == "" {
			continue
		}
		w.block()
		w.mark(document.Mark{Line: u.start + 1})
		w.codeHeading(2, unitHeading(lines[u.start:u.end], l))
		w.fence(l.fence, strings.Trim(code, "\n")+"\n")
	}
	return w.doc(title, document.Markdown), nil
}

// splitUnits cuts the lines into top-level units: a unit starts at a
// line at nesting zero that starts something new (after a statement or
// block that ended), the comments, attributes and decorators just before
// it included. Runs of units without a body are merged into one.
func splitUnits(lines []string, depths []int, l lang) []unit {
	var starts []int
	ended := true // the code before ended a statement or block
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if t == "" || depths[i] > 0 {
			if t == "" && depths[i] == 0 {
				ended = true
			}
			continue
		}
		if isComment(t, l) || isPrelude(t, l) {
			continue
		}
		if l.indent && continues(line) || !l.indent && !startsTopLevel(line, l) {
			continue
		}
		if ended || l.indent {
			// The comments before it, even after a blank line, are its.
			s := i
			for s > 0 {
				p := strings.TrimSpace(lines[s-1])
				if depths[s-1] > 0 || p != "" && !isComment(p, l) && !isPrelude(p, l) || len(starts) > 0 && s-1 < starts[len(starts)-1] {
					break
				}
				s--
			}
			for s < i && strings.TrimSpace(lines[s]) == "" {
				s++
			}
			starts = append(starts, s)
		}
		last := strings.TrimSpace(stripLineComment(t, l))
		ended = l.indent || strings.HasSuffix(last, ";") || strings.HasSuffix(last, "}") ||
			strings.HasPrefix(last, "#") || strings.HasSuffix(last, ",") && depths[i+1] == 0 ||
			depths[i+1] == 0 && !strings.HasSuffix(last, "{") && !strings.HasSuffix(last, "(") && !strings.HasSuffix(last, "=") && l.hash
	}
	if len(starts) == 0 || starts[0] != 0 {
		starts = append([]int{0}, starts...)
	}
	var units []unit
	for k, s := range starts {
		e := len(lines)
		if k+1 < len(starts) {
			e = starts[k+1]
		}
		u := unit{start: s, end: e}
		for j := s + 1; j < e; j++ {
			if depths[j] > 0 {
				u.block = true
				break
			}
		}
		if n := len(units); n > 0 && !u.block && !units[n-1].block {
			units[n-1].end = e
			continue
		}
		units = append(units, u)
	}
	return units
}

// stripLineComment drops a trailing // or # comment from a trimmed line,
// roughly: a comment marker after a space.
func stripLineComment(t string, l lang) string {
	if l.slash {
		if i := strings.Index(t, " //"); i >= 0 {
			t = t[:i]
		}
	}
	if l.hash {
		if i := strings.Index(t, " #"); i >= 0 {
			t = t[:i]
		}
	}
	return t
}

// startsTopLevel reports whether a line at nesting zero starts something
// new rather than continuing the statement before it.
func startsTopLevel(line string, l lang) bool {
	if line == "" || line[0] == ' ' || line[0] == '\t' {
		return false
	}
	t := strings.TrimSpace(line)
	return isComment(t, l) || isPrelude(t, l) || !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, ")") && !strings.HasPrefix(t, ".")
}

// continues reports whether a Python line continues the block before it
// (an indented line, a blank line, or else/elif/except/finally).
func continues(line string) bool {
	if strings.TrimSpace(line) == "" || line[0] == ' ' || line[0] == '\t' {
		return true
	}
	for _, kw := range []string{"else", "elif ", "except", "finally", ")", "]", "}"} {
		if strings.HasPrefix(line, kw) {
			return true
		}
	}
	return false
}

// isComment reports whether a trimmed line is a comment.
func isComment(t string, l lang) bool {
	return l.hash && strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "#!") ||
		l.slash && (strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*"))
}

// isPrelude reports whether a trimmed line belongs to the block after
// it: a decorator, an attribute or an annotation.
func isPrelude(t string, l lang) bool {
	return strings.HasPrefix(t, "@") || strings.HasPrefix(t, "#[") || l.fence == "c" && strings.HasPrefix(t, "template")
}

// unitHeading is a unit's first line of code, without its opening brace,
// at most 100 bytes.
func unitHeading(lines []string, l lang) string {
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if t == "" || isComment(t, l) || isPrelude(t, l) {
			continue
		}
		// C's style puts a function's type on a line of its own.
		if l.slash && !strings.ContainsAny(t, "({;=") && i+1 < len(lines) && strings.Contains(lines[i+1], "(") {
			t += " " + strings.TrimSpace(lines[i+1])
		}
		t = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(t, "{"), ":"))
		if len(t) > 100 {
			t = strings.ToValidUTF8(t[:100], "") + "…"
		}
		return t
	}
	return "comments"
}

// braceDepths returns the brace nesting at the start of each line, and
// after the last, outside strings and comments.
func braceDepths(lines []string, l lang) []int {
	depths := make([]int, len(lines)+1)
	depth := 0
	var quote byte // the open string's quote, 0 outside one
	blockComment := false
	for i, line := range lines {
		depths[i] = max(depth, 0)
		if l.hash && quote == 0 {
			depth += shellNesting(line)
		}
		for j := 0; j < len(line); j++ {
			c := line[j]
			switch {
			case blockComment:
				if c == '*' && j+1 < len(line) && line[j+1] == '/' {
					blockComment = false
					j++
				}
			case quote != 0:
				if c == '\\' {
					j++
				} else if c == quote {
					quote = 0
				} else if c == '\n' && quote != '`' {
					quote = 0
				}
			case l.slash && c == '/' && j+1 < len(line) && line[j+1] == '/':
				j = len(line)
			case l.slash && c == '/' && j+1 < len(line) && line[j+1] == '*':
				blockComment = true
				j++
			case l.hash && c == '#' && (j == 0 || line[j-1] == ' ' || line[j-1] == '\t'):
				j = len(line)
			case c == '"' || c == '`':
				quote = c
			case c == '\'':
				// A char literal ('x', '\n') in C's family; a lifetime ('a)
				// in Rust; a string in shell and JavaScript.
				if l.hash || l.fence == "javascript" || l.fence == "typescript" || l.fence == "jsx" || l.fence == "tsx" {
					quote = c
				} else if j+2 < len(line) && (line[j+1] == '\\' || line[j+2] == '\'') {
					quote = c
				}
			case c == '{':
				depth++
			case c == '}':
				depth--
			}
		}
	}
	depths[len(lines)] = max(depth, 0)
	return depths
}

// indentDepths returns, for Python, 1 at the start of each line inside
// an indented body or an open bracket or string, else 0, and 0 after the
// last line.
func indentDepths(lines []string) []int {
	depths := make([]int, len(lines)+1)
	brackets := 0
	triple := ""
	for i, line := range lines {
		t := strings.TrimSpace(line)
		inside := brackets > 0 || triple != "" || t != "" && (line[0] == ' ' || line[0] == '\t')
		if inside {
			depths[i] = 1
		}
		for j := 0; j < len(line); j++ {
			switch {
			case triple != "":
				if strings.HasPrefix(line[j:], triple) {
					j += 2
					triple = ""
				}
			case strings.HasPrefix(line[j:], `"""`) || strings.HasPrefix(line[j:], `'''`):
				triple = line[j : j+3]
				j += 2
			case line[j] == '#':
				j = len(line)
			case line[j] == '"' || line[j] == '\'':
				q := line[j]
				for j++; j < len(line) && line[j] != q; j++ {
					if line[j] == '\\' {
						j++
					}
				}
			case strings.IndexByte("([{", line[j]) >= 0:
				brackets++
			case strings.IndexByte(")]}", line[j]) >= 0:
				brackets = max(brackets-1, 0)
			}
		}
	}
	// A line that opens a body (ends with ":") is followed by depth 1.
	return depths
}

// shellNesting returns how a shell line changes the nesting of if, case
// and loops: +1 for a line that opens one and does not close it, -1 for
// one that closes.
func shellNesting(line string) int {
	t := strings.TrimSpace(line)
	first, _, _ := strings.Cut(t, " ")
	first = strings.TrimSuffix(first, ";")
	closes := func() bool {
		for _, end := range []string{"fi", "done", "esac"} {
			if strings.HasSuffix(t, "; "+end) || strings.HasSuffix(t, ";"+end) || strings.HasSuffix(t, " "+end) {
				return true
			}
		}
		return false
	}
	switch first {
	case "if", "for", "while", "until", "case", "select":
		if !closes() {
			return 1
		}
	case "fi", "done", "esac":
		return -1
	}
	return 0
}
