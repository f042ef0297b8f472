package document_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/document"
)

// checkHeadings checks what Headings promises for any text: headings in
// order, within the text, not overlapping, with a level and a one-line
// title; and section paths whose levels deepen.
func checkHeadings(t *testing.T, text string, format document.Format) {
	o := document.NewOutline(text, format)
	hs := o.Headings()
	end := 0
	for _, h := range hs {
		require.GreaterOrEqual(t, h.Start, end, "headings overlap or are out of order")
		require.Less(t, h.Start, h.End)
		require.LessOrEqual(t, h.End, len(text))
		require.GreaterOrEqual(t, h.Level, 1)
		require.NotEmpty(t, h.Title)
		require.Equal(t, strings.Join(strings.Fields(h.Title), " "), h.Title, "a title is one trimmed line")
		if utf8.ValidString(text) {
			require.True(t, utf8.ValidString(h.Title))
		}
		if format == document.Text {
			require.Equal(t, h.Title, strings.Join(strings.Fields(text[h.Start:h.End]), " "))
		}
		end = h.End
	}
	for _, off := range []int{0, len(text) / 3, len(text) / 2, len(text)} {
		path := o.Path(off, off)
		require.LessOrEqual(t, len(path), len(hs))
		// The path ends at the last heading at or before off, and its
		// levels deepen, so it is no longer than that heading's level.
		k := 0
		for k < len(hs) && hs[k].Start <= off {
			k++
		}
		if k == 0 {
			require.Nil(t, path, "offset %d before every heading", off)
			continue
		}
		require.NotEmpty(t, path, "offset %d", off)
		require.Equal(t, hs[k-1].Title, path[len(path)-1], "offset %d", off)
		require.LessOrEqual(t, len(path), hs[k-1].Level, "offset %d", off)
	}
}

func FuzzHeadings(f *testing.F) {
	for _, s := range []string{
		"# A\n\n```\n# B\n```\nC\n===\n",
		"1 Intro\n\nText.\n\n2.1 Scope\nBody.\n\nNOISE\n\nEnd.",
		"Title\n\n\n- a\n\n    # code\n<div>\n# x\n</div>\n\nLast line",
		"\r\n#\r\n##  #\r\n  ###   x  ###  \r\n",
		"[a](b) `c` **d** \\# e\n---\n",
	} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, text string, markdown bool) {
		format := document.Text
		if markdown {
			format = document.Markdown
		}
		checkHeadings(t, text, format)
	})
}
