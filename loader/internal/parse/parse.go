package parse

import (
	"errors"
	"strings"

	"github.com/ragkit/ragkit/document"
)

// ErrLimit reports a file over one of the parsers' limits, such as
// [MaxDepth]; the loader reports it as too large.
var ErrLimit = errors.New("over the parser's limit")

// MaxDepth is the deepest nesting of a JSON file's arrays and objects
// that [JSON] reads; deeper is an error wrapping [ErrLimit], so that a
// hostile file costs neither stack nor time.
const MaxDepth = 512

// A writer builds a document's Markdown text and its marks.
type writer struct {
	sb    strings.Builder
	marks []document.Mark
}

// mark records that the text written next comes from m's place in the
// source; a later mark at the same offset replaces it.
func (w *writer) mark(m document.Mark) {
	m.Offset = w.sb.Len()
	if n := len(w.marks); n > 0 && w.marks[n-1].Offset == m.Offset {
		w.marks[n-1] = m
		return
	}
	w.marks = append(w.marks, m)
}

// block starts a new block: a blank line after what was written, if
// anything was.
func (w *writer) block() {
	s := w.sb.String()
	switch {
	case s == "", strings.HasSuffix(s, "\n\n"):
	case strings.HasSuffix(s, "\n"):
		w.sb.WriteByte('\n')
	default:
		w.sb.WriteString("\n\n")
	}
}

// blankLine ends a paragraph: a blank line, unless the text is empty or
// ends with one.
func (w *writer) blankLine() {
	s := w.sb.String()
	if strings.HasSuffix(s, "\n") && !strings.HasSuffix(s, "\n\n") {
		w.sb.WriteByte('\n')
	}
}

// heading writes a Markdown heading of level (1 to 6) as a block.
func (w *writer) heading(level int, title string) {
	w.block()
	w.sb.WriteString(strings.Repeat("#", min(max(level, 1), 6)))
	w.sb.WriteByte(' ')
	w.sb.WriteString(oneLine(title))
	w.sb.WriteByte('\n')
}

// codeHeading writes a heading whose title is code, as a code span, so
// that its *, _ and brackets are not read as markup.
func (w *writer) codeHeading(level int, code string) {
	code = oneLine(code)
	switch {
	case !strings.Contains(code, "`"):
		code = "`" + code + "`"
	case !strings.Contains(code, "``"):
		code = "`` " + code + " ``"
	}
	w.heading(level, code)
}

// fence writes code as a fenced block, with a fence longer than any run
// of backticks in it.
func (w *writer) fence(lang, code string) {
	if strings.TrimSpace(code) == "" {
		return
	}
	w.block()
	f := "```"
	for strings.Contains(code, f) {
		f += "`"
	}
	w.sb.WriteString(f + lang + "\n")
	w.sb.WriteString(code)
	if !strings.HasSuffix(code, "\n") {
		w.sb.WriteByte('\n')
	}
	w.sb.WriteString(f + "\n")
}

// doc returns the document written, its text ending in one newline.
func (w *writer) doc(title string, f document.Format) document.Document {
	text := w.sb.String()
	if t := strings.TrimRight(text, "\n"); len(t) < len(text) {
		text = t + "\n"
	}
	marks := w.marks
	for len(marks) > 0 && marks[len(marks)-1].Offset >= len(text) {
		marks = marks[:len(marks)-1]
	}
	return document.Document{Title: title, Text: text, Format: f, Marks: marks}
}

// oneLine returns s with its runs of white space, line breaks included,
// as single spaces, trimmed.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// lineStarts returns the byte offset of each line of text, the first at 0.
func lineStarts(text string) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' && i+1 < len(text) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineOf returns the 1-based line of the byte offset off, given the
// line starts.
func lineOf(starts []int, off int) int {
	lo, hi := 0, len(starts)
	for lo < hi {
		m := (lo + hi) / 2
		if starts[m] <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
