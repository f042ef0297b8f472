package parse

import (
	"strings"

	"github.com/ragkit/ragkit/document"
)

// Text reads a plain-text file as it is. Its Title is its own name line
// where it has one: the text under a "NAME" line of a man page rendered
// as text ("ls - list directory contents"); else the loader's (the first
// top-level heading, or the file's name).
func Text(data string) document.Document {
	return document.Document{Text: data, Format: document.Text, Title: nameLine(data)}
}

// nameLine returns the indented paragraph under a line "NAME" at the
// margin, in the first 100 lines, if it names something ("x - y").
func nameLine(data string) string {
	lines := strings.SplitN(data, "\n", 100)
	for i, l := range lines[:max(len(lines)-1, 0)] {
		if strings.TrimRight(l, " \t\r") != "NAME" {
			continue
		}
		var name []string
		for _, n := range lines[i+1:] {
			if strings.TrimSpace(n) == "" || n[0] != ' ' && n[0] != '\t' {
				break
			}
			name = append(name, strings.TrimSpace(n))
		}
		t := oneLine(strings.Join(name, " "))
		if strings.Contains(t, " - ") || strings.Contains(t, " — ") {
			return t
		}
		return ""
	}
	return ""
}
