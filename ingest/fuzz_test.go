package ingest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
)

// FuzzSentencesRecords checks the one way from text to sentence records:
// Sentences either refuses the text with ErrChunk or gives units in
// order, inside the text, that Records turns into records whose texts and
// gaps rebuild the text between the first and last unit exactly, with
// the section path of the document's outline; and Records refuses chunks
// with offsets out of the text instead of panicking.
func FuzzSentencesRecords(f *testing.F) {
	f.Add("One.  Two.\nThree.\n\nFour. Five.", false, 3, 9)
	f.Add("# Keeper\n\nThe keeper rose. He trimmed the wick.\n\n## Night\n\nShips passed.", true, -3, 2)
	f.Add(" \n\t", false, 0, 0)
	f.Add("a\xffb. Cd.", true, 5, 1)
	f.Fuzz(func(t *testing.T, text string, markdown bool, start, end int) {
		doc := document.Document{ID: "f", Title: "T", Text: text}
		if markdown {
			doc.Format = document.Markdown
		}
		cs, err := ingest.Sentences(context.Background(), doc)
		if err != nil {
			require.ErrorIs(t, err, ingest.ErrChunk)
			require.True(t, !isValid(text) || strings.TrimSpace(text) == "", "refused a text with sentences: %q", text)
			return
		}
		require.NotEmpty(t, cs)
		recs, err := ingest.Records(doc, ingest.Plain(cs), make([][]float32, len(cs)))
		require.NoError(t, err)
		o := doc.Outline()
		var b strings.Builder
		for i, r := range recs {
			require.Equal(t, i, r.Index)
			require.Equal(t, text[r.Start:r.End], r.Text)
			if p := o.Path(r.Start, r.End); len(p) > 0 {
				require.Equal(t, p, r.Section)
			} else {
				require.Nil(t, r.Section)
			}
			if i > 0 {
				require.GreaterOrEqual(t, r.Start, recs[i-1].End)
				gap := r.Notes.Gap
				if gap == "" && r.Start > recs[i-1].End {
					gap = " "
				}
				b.WriteString(gap)
			}
			b.WriteString(r.Text)
		}
		require.Equal(t, text[recs[0].Start:recs[len(recs)-1].End], b.String())

		bad := ingest.Plain([]chunker.Chunk{{Start: start, End: end, Text: ""}})
		if start >= 0 && start <= end && end <= len(text) {
			bad[0].Text = text[start:end]
		}
		_, err = ingest.Records(doc, bad, make([][]float32, 1))
		if start < 0 || start > end || end > len(text) {
			require.ErrorIs(t, err, ingest.ErrChunk)
		} else {
			require.NoError(t, err)
		}
	})
}

func isValid(s string) bool { return strings.ToValidUTF8(s, "") == s }
