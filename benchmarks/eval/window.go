package eval

import (
	"context"
	"fmt"
	"strings"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/window"
)

// sentenceUnits cuts a document into sentence units with ingest.Sentences,
// keeping the gaps between them (from ingest.Records) so that windows
// rebuild the text exactly.
func sentenceUnits(ctx context.Context, doc Document) ([]Unit, error) {
	d := document.Document{ID: doc.ID, Text: doc.Text}
	cs, err := ingest.Sentences(ctx, d)
	if err != nil {
		return nil, err
	}
	recs, err := ingest.Records(d, ingest.Plain(cs), make([][]float32, len(cs)))
	if err != nil {
		return nil, err
	}
	units := make([]Unit, len(recs))
	for i, r := range recs {
		units[i] = Unit{Start: r.Start, End: r.End, Notes: vectorstore.Notes{Gap: r.Notes.Gap}}
	}
	return units, nil
}

// spansOf returns the byte spans of windows, in order.
func spansOf(ws []window.Window) []Span {
	spans := make([]Span, len(ws))
	for i, w := range ws {
		spans[i] = Span{DocID: w.DocID, Start: w.Start, End: w.End}
	}
	return spans
}

// moreHits asks the vector search for n hits whatever k is, so that a
// method that merges or selects has candidates enough to fill k spans.
func moreHits(n func(k int) int) func(ctx context.Context, ix *Index, q Query, k int) ([]vectorstore.Hit, error) {
	return func(ctx context.Context, ix *Index, q Query, k int) ([]vectorstore.Hit, error) {
		return vectorSearch(ctx, ix, q, n(k))
	}
}

// Windows returns sentence-window retrieval with the budget of plain
// chunks of maxTokens: sentence units, and each hit grown by
// window.Expander into its neighbours (up to 8 sentences on each side)
// while the window fits in maxTokens by tok's exact count. Windows that
// touch are merged; the vector search asks for 2k hits so that k windows
// remain after merging, and the k best are scored, as k chunks would be.
// It is named "windows-<maxTokens>".
func Windows(tok tokencount.Tokenizer, maxTokens int) Method {
	return Method{
		Name:   fmt.Sprintf("windows-%d", maxTokens),
		Units:  sentenceUnits,
		Search: moreHits(func(k int) int { return 2 * k }),
		Retrieve: func(ctx context.Context, ix *Index, hits []vectorstore.Hit) ([]Span, error) {
			e, err := window.NewExpander(window.ExpanderConfig{Source: ix.Store, Size: 8, Tokenizer: tok, MaxTokens: maxTokens})
			if err != nil {
				return nil, err
			}
			ws, err := e.Expand(ctx, hits)
			return spansOf(ws), err
		},
	}
}

// Segments returns relevant segment extraction with the total budget of k
// plain chunks of maxTokens: sentence units, 10k hits from the vector
// search, and window.Extractor (with preset) choosing the segments, at
// most k·maxTokens tokens in all by tok's exact count. It is named
// "segments-<preset>-<maxTokens>", the preset in lower case.
func Segments(tok tokencount.Tokenizer, preset window.Preset, maxTokens, k int) Method {
	return Method{
		Name:   fmt.Sprintf("segments-%s-%d", strings.ToLower(preset.String()), maxTokens),
		Units:  sentenceUnits,
		Search: moreHits(func(k int) int { return 10 * k }),
		Retrieve: func(ctx context.Context, ix *Index, hits []vectorstore.Hit) ([]Span, error) {
			x, err := window.NewExtractor(window.ExtractorConfig{Source: ix.Store, Preset: preset,
				Tokenizer: tok, MaxTotalTokens: k * maxTokens})
			if err != nil {
				return nil, err
			}
			ws, err := x.Extract(ctx, hits)
			return spansOf(ws), err
		},
	}
}

// WindowMethods returns, for each size, sentence windows and segment
// extraction (Balanced and Recall presets) with the budget of k plain
// chunks of that size, to set beside [Standard].
func WindowMethods(tok tokencount.Tokenizer, sizes []int, k int) []Method {
	var out []Method
	for _, n := range sizes {
		out = append(out, Windows(tok, n), Segments(tok, window.Balanced, n, k), Segments(tok, window.Recall, n, k))
	}
	return out
}
