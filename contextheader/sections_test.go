package contextheader_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
)

func TestChunkSections(t *testing.T) {
	tok := cl100k(t)
	tests := []struct {
		name   string
		doc    document.Document
		starts []string
		want   [][]string
	}{
		{"markdown", document.Document{Format: document.Markdown, Text: policy}, []string{"Ride-hailing is", "### Trains"},
			[][]string{{"Travel policy"}, {"Travel policy", "Ground transport", "Ride-hailing"}, {"Travel policy", "Ground transport", "Trains"}}},
		{"a chunk that opens with headings", document.Document{Format: document.Markdown, Text: policy}, []string{"## Ground", "### Trains"},
			[][]string{{"Travel policy"}, {"Travel policy", "Ground transport", "Ride-hailing"}, {"Travel policy", "Ground transport", "Trains"}}},
		{"a chunk across sibling sections", document.Document{Format: document.Markdown, Text: policy}, []string{"Ride-hailing is", "Standard"},
			[][]string{{"Travel policy"}, {"Travel policy", "Ground transport", "Ride-hailing"}, {"Travel policy", "Ground transport", "Trains"}}},
		{"a chunk that ends with a heading", document.Document{Format: document.Markdown, Text: policy}, []string{"### Ride"},
			[][]string{{"Travel policy"}, {"Travel policy", "Ground transport", "Ride-hailing"}}},
		{"a chunk of headings only", document.Document{Format: document.Markdown, Text: policy}, []string{"## Ground", "Ride-hailing is"},
			[][]string{{"Travel policy"}, {"Travel policy", "Ground transport", "Ride-hailing"}, {"Travel policy", "Ground transport", "Ride-hailing"}}},
		{"heading in a code fence", document.Document{Format: document.Markdown, Text: "# Setup\n\n```\n# install\nmake\n```\n\nDone."},
			[]string{"Done"}, [][]string{{"Setup"}, {"Setup"}}},
		{"no headings", document.Document{Format: document.Markdown, Text: "One.\n\nTwo."}, []string{"Two"}, [][]string{nil, nil}},
		{"plain report", document.Document{Text: "4 ENVIRONMENTAL REVIEW\n\n4.2 Noise\n\nA limit of 35 dB.\n\nFlood risk\n\nZone 1."},
			[]string{"A limit", "Zone"},
			[][]string{{"4 ENVIRONMENTAL REVIEW", "4.2 Noise"}, {"4 ENVIRONMENTAL REVIEW", "4.2 Noise"}, {"4 ENVIRONMENTAL REVIEW", "4.2 Noise", "Flood risk"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDecorator(t, contextheader.Config{Tokenizer: tok})
			got, err := d.Decorate(context.Background(), tt.doc, cutAt(t, tok, tt.doc.Text, tt.starts...))
			require.NoError(t, err)
			var sections [][]string
			for _, c := range got {
				sections = append(sections, c.Section)
			}
			require.Equal(t, tt.want, sections)
		})
	}
}
