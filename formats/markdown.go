package formats

import (
	"fmt"
	"strings"

	"github.com/ragkit/ragkit/loader"
)

// A markdown writer collects the blocks of a document as Markdown, one
// blank line between blocks, and stops growing past a limit.
type markdown struct {
	b     strings.Builder
	limit int64
	over  bool
}

// err is the error of a document whose text is over MaxTextBytes.
func (m *markdown) err() error {
	if m.over {
		return fmt.Errorf("%w: the text is over %d bytes (Config.MaxTextBytes)", loader.ErrTooLarge, m.limit)
	}
	return nil
}

// block appends one block, separated from the one before by a blank line.
func (m *markdown) block(s string) {
	if s == "" || m.over {
		return
	}
	if int64(m.b.Len()+len(s)+2) > m.limit {
		m.over = true
		return
	}
	if m.b.Len() > 0 {
		m.b.WriteString("\n\n")
	}
	m.b.WriteString(s)
}

// len is the text's length so far, where the next block's separator
// starts.
func (m *markdown) len() int { return m.b.Len() }

// offset is where the next block's text will start.
func (m *markdown) offset() int {
	if m.b.Len() == 0 {
		return 0
	}
	return m.b.Len() + 2
}

func (m *markdown) String() string { return m.b.String() }

// heading returns an ATX heading of level 1-6 with text on one line.
func heading(level int, text string) string {
	text = oneLine(text)
	if text == "" {
		return ""
	}
	return strings.Repeat("#", min(max(level, 1), 6)) + " " + text
}

// paragraph returns text as a paragraph whose lines cannot be read as
// Markdown structure they were not: a line that starts like a heading, a
// block quote or a thematic break, or a setext underline, is escaped.
func paragraph(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = escapeLine(strings.TrimSpace(l))
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

func escapeLine(l string) string {
	if l == "" {
		return l
	}
	switch l[0] {
	case '#', '>', '=', '|':
		return `\` + l
	case '-', '*', '_', '+':
		if strings.Trim(l, "-*_+ ") == "" || (len(l) > 1 && l[1] == ' ') {
			return `\` + l
		}
	}
	return l
}

// table returns rows as a Markdown table, the first row its header; rows
// are padded to the widest one. Cells are made one line, pipes escaped.
func table(rows [][]string) string {
	width := 0
	for _, r := range rows {
		width = max(width, len(r))
	}
	if width == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(tableHeader(rows[0], width))
	for _, r := range rows[1:] {
		b.WriteString("\n" + tableRow(r, width))
	}
	return b.String()
}

// tableHeader returns a Markdown table's header row and delimiter row.
func tableHeader(r []string, width int) string {
	return tableRow(r, width) + "\n|" + strings.Repeat(" --- |", width)
}

// tableRow returns one row of a Markdown table of width columns.
func tableRow(r []string, width int) string {
	var b strings.Builder
	b.WriteString("|")
	for c := range width {
		cell := ""
		if c < len(r) {
			cell = strings.ReplaceAll(oneLine(r[c]), "|", `\|`)
		}
		b.WriteString(" " + cell + " |")
	}
	return b.String()
}

// oneLine collapses white space, newlines included, to single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// fence returns code as a fenced block, the fence longer than any run of
// backticks in it.
func fence(code string) string {
	code = strings.Trim(code, "\n")
	if strings.TrimSpace(code) == "" {
		return ""
	}
	n := 3
	for run, i := 0, 0; i < len(code); i++ {
		if code[i] == '`' {
			run++
			n = max(n, run+1)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", n)
	return f + "\n" + code + "\n" + f
}

// line appends s on the line after the last block, with no blank line
// between: the next item of a tight list.
func (m *markdown) line(s string) {
	if m.b.Len() == 0 {
		m.block(s)
		return
	}
	if s == "" || m.over {
		return
	}
	if int64(m.b.Len()+len(s)+1) > m.limit {
		m.over = true
		return
	}
	m.b.WriteString("\n")
	m.b.WriteString(s)
}
