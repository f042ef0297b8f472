package window_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/window"
)

// paragraphs cuts text into one unit per paragraph (blocks between blank
// lines), each carrying its section path under document.SectionKey and
// the text before it under window.GapKey, as ingest writes them.
func paragraphs(docID, text string, format document.Format) []vectorstore.Record {
	outline := document.NewOutline(text, format)
	var units []vectorstore.Record
	prevEnd := 0
	for pos := 0; pos < len(text); {
		end := strings.Index(text[pos:], "\n\n")
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		if p := strings.TrimSpace(text[pos:end]); p != "" {
			md := map[string]string{document.SectionKey: document.JoinSection(outline.Path(pos, end))}
			if len(units) > 0 {
				md[window.GapKey] = text[prevEnd:pos]
			}
			units = append(units, vectorstore.Record{ID: docID + "#" + strconv.Itoa(len(units)), DocID: docID,
				Index: len(units), Start: pos, End: end, Text: text[pos:end], Metadata: md})
			prevEnd = end
		}
		pos = end + 2
	}
	return units
}

// TestExpandSectionKey keeps windows inside the sections that the records'
// section paths give, whatever kind of heading opened them.
func TestExpandSectionKey(t *testing.T) {
	for _, tc := range []struct {
		name   string
		format document.Format
		text   string
		hit    int
		inside string // the window with SectionKey
	}{
		{"atx", document.Markdown, "# Intro\n\nOne.\n\n## Setup\n\nTwo.\n\nThree.\n\n## Use\n\nFour.", 3,
			"## Setup\n\nTwo.\n\nThree."},
		{"setext", document.Markdown, "Intro\n=====\n\nOne.\n\nSetup\n-----\n\nTwo.\n\nThree.\n\nUse\n---\n\nFour.", 3,
			"Setup\n-----\n\nTwo.\n\nThree."},
		{"plain text", document.Text, "ENVIRONMENTAL REVIEW\n\nThe review found no issue.\n\nIt was short.\n\n" +
			"COST ESTIMATE\n\nThe cost is low.\n\nIt is paid.", 2,
			"ENVIRONMENTAL REVIEW\n\nThe review found no issue.\n\nIt was short."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			units := paragraphs("d", tc.text, tc.format)
			hits := []vectorstore.Hit{{Record: units[tc.hit], Score: 1}}
			for _, key := range []string{"", document.SectionKey} {
				e, err := window.NewExpander(window.ExpanderConfig{Source: static{"d": units}, Size: 10, SectionKey: key})
				require.NoError(t, err)
				ws, err := e.Expand(context.Background(), hits)
				require.NoError(t, err)
				require.Len(t, ws, 1)
				want := tc.inside
				if key == "" {
					want = tc.text
				}
				require.Equal(t, want, ws[0].Text, "SectionKey %q", key)
			}
		})
	}
}

// TestExpandSectionMerge: windows that touch across a change of section
// stay apart.
func TestExpandSectionMerge(t *testing.T) {
	units := paragraphs("d", "# A\n\nOne.\n\nTwo.\n\n# B\n\nThree.\n\nFour.", document.Markdown)
	e, err := window.NewExpander(window.ExpanderConfig{Source: static{"d": units}, Size: 1, SectionKey: document.SectionKey})
	require.NoError(t, err)
	ws, err := e.Expand(context.Background(), []vectorstore.Hit{{Record: units[2], Score: 1}, {Record: units[3], Score: .5}})
	require.NoError(t, err)
	require.Equal(t, []string{"One.\n\nTwo.", "# B\n\nThree."}, []string{ws[0].Text, ws[1].Text})
}
