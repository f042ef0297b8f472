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
// lines), each carrying its section path and the text before it in
// Notes.Gap, as ingest writes them.
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
			u := vectorstore.Record{ID: docID + "#" + strconv.Itoa(len(units)), DocID: docID,
				Index: len(units), Start: pos, End: end, Text: text[pos:end], Section: outline.Path(pos, end)}
			if len(units) > 0 {
				u.Notes.Gap = text[prevEnd:pos]
			}
			units = append(units, u)
			prevEnd = end
		}
		pos = end + 2
	}
	return units
}

// TestExpandWithinSections keeps windows inside the sections that the records'
// section paths give, whatever kind of heading opened them.
func TestExpandWithinSections(t *testing.T) {
	for _, tc := range []struct {
		name   string
		format document.Format
		text   string
		hit    int
		inside string // the window WithinSections
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
			for _, within := range []bool{false, true} {
				e, err := window.NewExpander(window.ExpanderConfig{Source: static{"d": units}, Size: 10, WithinSections: within})
				require.NoError(t, err)
				ws, err := e.Expand(context.Background(), hits)
				require.NoError(t, err)
				require.Len(t, ws, 1)
				want := tc.inside
				if !within {
					want = tc.text
				}
				require.Equal(t, want, ws[0].Text, "WithinSections %v", within)
			}
		})
	}
}

// TestExpandSectionMerge: windows that touch across a change of section
// stay apart.
func TestExpandSectionMerge(t *testing.T) {
	units := paragraphs("d", "# A\n\nOne.\n\nTwo.\n\n# B\n\nThree.\n\nFour.", document.Markdown)
	e, err := window.NewExpander(window.ExpanderConfig{Source: static{"d": units}, Size: 1, WithinSections: true})
	require.NoError(t, err)
	ws, err := e.Expand(context.Background(), []vectorstore.Hit{{Record: units[2], Score: 1}, {Record: units[3], Score: .5}})
	require.NoError(t, err)
	require.Equal(t, []string{"One.\n\nTwo.", "# B\n\nThree."}, []string{ws[0].Text, ws[1].Text})
}
