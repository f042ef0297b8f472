package document_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/document"
)

// titles returns "level title" for each heading.
func titles(hs []document.Heading) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = strings.Repeat("#", h.Level) + " " + h.Title
	}
	return out
}

func TestMarkdownHeadings(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"none", "Just a paragraph.\n\nAnother one.", []string{}},
		{"ATX", "# One\n\ntext\n\n## Two ##\n\n###### Six\n####### Seven is text", []string{"# One", "## Two", "###### Six"}},
		{"setext", "Title\n=====\n\nSub title\n---\n\ntext", []string{"# Title", "## Sub title"}},
		{"CRLF", "# One\r\n\r\nSub\r\n---\r\n", []string{"# One", "## Sub"}},
		{"fenced code", "# Real\n\n```sh\n# not a heading\nSetext\n===\n```\n\n~~~\n## nor this\n~~~\n\n## Also real", []string{"# Real", "## Also real"}},
		{"unclosed fence", "# Real\n\n```\n# inside to the end\n", []string{"# Real"}},
		{"indented code", "# Real\n\n    # code\n\ntext", []string{"# Real"}},
		{"HTML block", "<div>\n# not a heading\n</div>\n\n# Real", []string{"# Real"}},
		{"inline markup", "## **Ground** `transport` [rules](http://x.org) and ![map](m.png) snake_case_name \\*", []string{"## Ground transport rules and map snake_case_name *"}},
		{"empty after markup", "# **\n\n# Kept", []string{"# Kept"}},
		{"reference link", "## [Rules][r1] for [taxis] [x]( and [y]", []string{"## Rules for [taxis] [x]( and [y]"}},
		{"unmatched brackets", "## [[a](b) c] [[ d", []string{"## [a c] [[ d"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := document.Headings(tt.text, document.Markdown)
			require.Equal(t, tt.want, titles(got))
			for _, h := range got {
				require.True(t, strings.Contains(tt.text[h.Start:h.End], strings.Fields(h.Title)[0]) || strings.Contains(h.Title, "snake"),
					"heading %q at %d:%d", h.Title, h.Start, h.End)
			}
		})
	}
}

func TestTextHeadings(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"none", "A paragraph of prose.\n\nAnother one.", []string{}},
		{"numbered", "1 Introduction\n\nText.\n\n2.1 Scope\n\nText.\n\n2.1.3. Detail of it\nText under it.\n\n10 Ten\n\nEnd.",
			[]string{"# 1 Introduction", "## 2.1 Scope", "### 2.1.3. Detail of it", "# 10 Ten"}},
		{"capitals", "ENVIRONMENTAL REVIEW\n\nText.\n\nNOISE 2\nThe noise is low.\n\nEnd.", []string{"# ENVIRONMENTAL REVIEW", "# NOISE 2"}},
		{"short lines on their own", "Noise and vibration\n\nText.\n\nFlood risk (Zone 3)\n\nMore text.", []string{"####### Noise and vibration", "####### Flood risk (Zone 3)"}},
		{"not a sentence", "This is a sentence.\n\nText.\n\nIs it a question?\n\nText.\n\nA label:\n\nText.", []string{}},
		{"not a list", "1. Apples\n2. Pears\n\nText.", []string{}},
		{"not a wrapped sentence", "1. The applicant shall submit\nmanagement plans.\n\nText.", []string{}},
		{"not the last paragraph", "Text.\n\nThank you", []string{}},
		{"not a bullet", "- Item one\n\nText.", []string{}},
		{"a year is not a section number", "2024 Results of the group\nText under it.\n\nEnd.", []string{}},
		{"not lower case", "the end of it\n\nText.", []string{}},
		{"not mostly numbers", "Total 120.4 88.1\n\nText.", []string{}},
		{"not shouting prose", "DO NOT OPEN\nTHE BOX\n\nText.", []string{}},
		{"not too long", strings.Repeat("Word ", 13) + "\n\nText.", []string{}},
		{"not inside a paragraph", "Text.\nHeading Like\n\nText.", []string{}},
		{"CRLF", "SCOPE\r\n\r\nText.\r\n", []string{"# SCOPE"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := document.Headings(tt.text, document.Text)
			require.Equal(t, tt.want, titles(got))
			for _, h := range got {
				require.Equal(t, h.Title, strings.Join(strings.Fields(tt.text[h.Start:h.End]), " "))
			}
		})
	}
}

func TestSectionPath(t *testing.T) {
	text := "intro\n# A\n## B\n### C\n## D\n#### E\n# F\n"
	o := document.NewOutline(text, document.Markdown)
	hs := o.Headings()
	require.Equal(t, []string{"# A", "## B", "### C", "## D", "#### E", "# F"}, titles(hs))
	at := func(s string) int { return strings.Index(text, s) }
	tests := []struct {
		name   string
		offset int
		want   []string
	}{
		{"before any heading", 0, nil},
		{"at a heading", at("# A"), []string{"A"}},
		{"inside a heading's line", at("# A") + 2, []string{"A"}},
		{"nested", at("### C"), []string{"A", "B", "C"}},
		{"a sibling replaces", at("## D"), []string{"A", "D"}},
		{"a skipped level", at("#### E") + 1, []string{"A", "D", "E"}},
		{"a new top level", len(text), []string{"F"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, o.Path(tt.offset, tt.offset))
		})
	}
}

func TestBareCRLines(t *testing.T) {
	text := "SCOPE\rThe rules.\r\r2 Travel\rBody text.\r\rMore text."
	require.Equal(t, []string{"# SCOPE", "# 2 Travel"}, titles(document.Headings(text, document.Text)))
}

func TestFormatOf(t *testing.T) {
	for name, want := range map[string]document.Format{
		"notes.md": document.Markdown, "a/b/README.MD": document.Markdown, "x.markdown": document.Markdown,
		"x.mdx": document.Markdown, "x.txt": document.Text, "Makefile": document.Text, "md": document.Text,
	} {
		require.Equal(t, want, document.FormatOf(name), name)
	}
	require.Equal(t, "Markdown", document.Markdown.String())
	require.Equal(t, "Format(7)", document.Format(7).String())
	require.False(t, document.Format(-1).Valid())
}

// WithOutline parses the outline once: Outline returns that one while the
// text and the format are the ones it was parsed from, and parses afresh
// once either changed, so a document edited after WithOutline never gets
// a stale outline.
func TestWithOutline(t *testing.T) {
	d := document.Document{Text: "# A\n\ntext\n\n## B\n\nmore", Format: document.Markdown}
	require.NotSame(t, d.Outline(), d.Outline(), "a plain document parses on each call")
	w := d.WithOutline()
	o := w.Outline()
	require.Same(t, o, w.Outline())
	require.Equal(t, []string{"A", "B"}, o.Path(12, 20))

	edited := w
	edited.Text = "# C\n\nother text"
	require.NotSame(t, o, edited.Outline())
	require.Equal(t, []string{"C"}, edited.Outline().Path(5, 9))
	plain := w
	plain.Format = document.Text
	require.NotSame(t, o, plain.Outline())
	require.Nil(t, plain.Outline().Path(12, 20), "read as plain text, # A is no heading")
}
