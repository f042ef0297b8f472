package markdown_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/internal/markdown"
)

// titles returns the level and title of each heading of text.
func titles(text string) []string {
	var out []string
	for _, h := range markdown.AppendHeadings(nil, text) {
		out = append(out, string(rune('0'+h.Level))+" "+text[h.TitleStart:h.TitleEnd])
	}
	return out
}

func TestAppendHeadings(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"atx", "# Travel policy\n\nText.\n\n## Ground transport\n\n### Ride-hailing\n", []string{"1 Travel policy", "2 Ground transport", "3 Ride-hailing"}},
		{"closing hashes", "## Title ##\n\n# C# # \n\n#5 is not one\n", []string{"2 Title", "1 C#"}},
		{"hash without space", "#hashtag\n\n####### seven\n", nil},
		{"setext", "Travel policy\n=============\n\nGround\ntransport\n---\n", []string{"1 Travel policy", "2 Ground\ntransport"}},
		{"dash after blank is a rule", "Text\n\n---\n", nil},
		{"fenced code", "# Real\n\n```\n# not a heading\n```\n\n~~~md\n## nor this\n~~~\n", []string{"1 Real"}},
		{"unclosed fence", "# Real\n\n```\n# not a heading\n", []string{"1 Real"}},
		{"indented code", "# Real\n\n    # not a heading\n", []string{"1 Real"}},
		{"html block", "<div>\n# not a heading\n</div>\n\n# Real\n", []string{"1 Real"}},
		{"crlf", "# One\r\n\r\nTwo\r\n===\r\n", []string{"1 One", "1 Two"}},
		{"no headings", "Just a paragraph.\n\nAnd another.", nil},
		{"empty", "", nil},
		{"empty heading", "#\n\n## \n", []string{"1 ", "2 "}},
		// A setext heading whose first line starts with a '#' that opens
		// no ATX heading: its title is the whole line (it was read as an
		// ATX heading, cut inside "ű" and with the underline in it).
		{"setext after a hash", "#űx\n-\n\n#5 is\n===\n", []string{"2 #űx", "1 #5 is"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, titles(tt.text))
		})
	}
}

func TestHeadingSpans(t *testing.T) {
	text := "Intro\n\nTitle\n=====\n\nBody."
	hs := markdown.AppendHeadings(nil, text)
	require.Len(t, hs, 1)
	require.Equal(t, "Title\n=====", text[hs[0].Start:hs[0].End])
	require.Equal(t, "Title", text[hs[0].TitleStart:hs[0].TitleEnd])
}

func TestAppendBlocks(t *testing.T) {
	text := "# H\n\npara\n\n- a\n- b\n\n> q\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\n```\ncode\n```\n\n---\n\n<p>\nhi\n</p>"
	var kinds []markdown.Kind
	for _, b := range markdown.AppendBlocks(nil, text, 0, len(text)) {
		kinds = append(kinds, b.Kind)
	}
	require.Equal(t, []markdown.Kind{markdown.KindHeading, markdown.KindParagraph, markdown.KindItem, markdown.KindItem,
		markdown.KindQuote, markdown.KindTable, markdown.KindCode, markdown.KindRule, markdown.KindHTML}, kinds)
}

func TestListMarker(t *testing.T) {
	for s, want := range map[string]int{"- a": 1, "*": 1, "+\tx": 1, "1. a": -1, "1) a": -1, "2. a": 2, "10. a": 2, "1.a": 0, "-a": 0, "a. b": 0, "1234567890. a": 0} {
		require.Equal(t, want, markdown.ListMarker(s), s)
	}
	require.Equal(t, 3, markdown.MarkerLen("12. x"))
	require.Equal(t, 1, markdown.MarkerLen("- x"))
}

// FuzzScan holds the invariants of both functions on any text: blocks in
// order, within the text, trimmed and not empty; headings among them, with
// their titles inside them.
func FuzzScan(f *testing.F) {
	for _, s := range []string{"# a\n\nb\n===\n", "```\n# x\n```", "- a\n  - b\n\n  c\n", "> q\n>\n> r", "|a|\n|-|\n|1|", "x\r\ny\r\n---\r\n", "\t# tab\n    code", "<div>\n\n# h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		prev := 0
		for _, b := range markdown.AppendBlocks(nil, text, 0, len(text)) {
			require.True(t, prev <= b.Start && b.Start < b.End && b.End <= len(text), "block [%d,%d) after %d in %d bytes", b.Start, b.End, prev, len(text))
			require.NotContains(t, " \t\r\n", string(text[b.Start]))
			require.NotContains(t, " \t\r\n", string(text[b.End-1]))
			prev = b.End
		}
		prev = 0
		for _, h := range markdown.AppendHeadings(nil, text) {
			require.True(t, h.Level >= 1 && h.Level <= 6)
			require.True(t, prev <= h.Start && h.Start <= h.TitleStart && h.TitleStart <= h.TitleEnd && h.TitleEnd <= h.End && h.End <= len(text))
			prev = h.End
		}
	})
}
