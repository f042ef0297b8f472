package contextheader_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/tokencount"
)

// countingBytes is a Tokenizer that adds up the bytes it was asked to
// count.
type countingBytes struct {
	tokencount.Tokenizer
	bytes atomic.Int64
}

func (c *countingBytes) Count(text string) int {
	c.bytes.Add(int64(len(text)))
	return c.Tokenizer.Count(text)
}

// A large Summary, Title or Metadata value is read once per document, not
// once per section: the bytes counted stay in the headers' size whatever
// the value's, and the headers are those of the value's start alone. (A
// 10 MB summary over 50 sections used to take seconds and gigabytes,
// counted again for every section.)
func TestLargePartsAreCutOncePerDocument(t *testing.T) {
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, "## Section %d\n\nThe committee reviewed item %d in detail. It found the figures sound and approved them.\n\n", i, i)
	}
	text := b.String()
	big := strings.Repeat("The report covers an item of the review in some detail. ", 40000) // 2.2 MB
	for _, tc := range []struct {
		name string
		kind contextheader.Kind
		set  func(*document.Document, string)
	}{
		{"summary", contextheader.Summary, func(d *document.Document, s string) { d.Summary = s }},
		{"metadata", contextheader.Metadata, func(d *document.Document, s string) { d.Metadata = map[string]string{"notes": s} }},
		{"title", contextheader.Title, func(d *document.Document, s string) { d.Title = s }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tok := &countingBytes{Tokenizer: cl100k(t)}
			parts := []contextheader.Part{{Kind: contextheader.Section}, {Kind: tc.kind}}
			d := newDecorator(t, contextheader.Config{Tokenizer: tok, Parts: parts})
			doc := document.Document{ID: "r", Title: "Report", Text: text, Format: document.Markdown}
			chunks := cutAt(t, cl100k(t), text, sectionStarts(50)[1:]...)

			tc.set(&doc, big)
			got, err := d.Decorate(context.Background(), doc, chunks)
			require.NoError(t, err)
			require.Less(t, tok.bytes.Load(), int64(len(big)/4), "the large value was counted whole")

			tc.set(&doc, big[:20000])
			want, err := d.Decorate(context.Background(), doc, chunks)
			require.NoError(t, err)
			require.Equal(t, want, got)
			require.True(t, got[0].HeaderCut)
		})
	}
}

func sectionStarts(n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprintf("## Section %d\n", i)
	}
	return s
}
