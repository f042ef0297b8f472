package eval

import (
	"context"
	"fmt"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/tokencount"
)

// Headers returns the chunks of [Balanced] at maxTokens, each embedded
// with its contextual header by package contextheader: the document's
// title and the chunk's section path (deterministic, no model) and, with
// summary, a one-sentence extractive summary of the document
// (contextheader.Extractive, offline). The chunk alone is what retrieval
// returns and what is scored. It is named "balanced-<maxTokens>+headers"
// or "balanced-<maxTokens>+headers+summary".
func Headers(tok tokencount.Tokenizer, maxTokens int, summary bool) (Method, error) {
	name := fmt.Sprintf("balanced-%d", maxTokens) + headerSuffix(summary)
	d, err := newDecorator(tok, summary)
	if err != nil {
		return Method{}, fmt.Errorf("%w: %s: %w", ErrConfig, name, err)
	}
	return Method{Name: name, Units: func(ctx context.Context, doc Document) ([]Unit, error) {
		chunks, err := balancedChunks(tok, maxTokens, doc)
		if err != nil {
			return nil, err
		}
		units := make([]Unit, len(chunks))
		for i, c := range chunks {
			units[i] = Unit{Start: c.Start, End: c.End}
		}
		return units, decorate(ctx, d, doc, chunks, units)
	}}, nil
}

// HeaderWindows returns the sentence windows of [Windows] at maxTokens
// with each sentence embedded under its contextual header (title, section
// path and extractive summary, as [Headers] with summary): the header
// finds the passage, the window returns its neighbours. It is named
// "windows-<maxTokens>+headers+summary".
func HeaderWindows(tok tokencount.Tokenizer, maxTokens int) (Method, error) {
	m := Windows(tok, maxTokens)
	m.Name += headerSuffix(true)
	d, err := newDecorator(tok, true)
	if err != nil {
		return Method{}, fmt.Errorf("%w: %s: %w", ErrConfig, m.Name, err)
	}
	m.Units = func(ctx context.Context, doc Document) ([]Unit, error) {
		units, err := sentenceUnits(ctx, doc)
		if err != nil {
			return nil, err
		}
		chunks := make([]chunker.Chunk, len(units))
		for i, u := range units {
			text := doc.Text[u.Start:u.End]
			// Decorate reads offsets and text; no count is needed.
			chunks[i] = chunker.Chunk{Index: i, Start: u.Start, End: u.End, Text: text}
		}
		return units, decorate(ctx, d, doc, chunks, units)
	}
	return m, nil
}

func headerSuffix(summary bool) string {
	if summary {
		return "+headers+summary"
	}
	return "+headers"
}

// newDecorator returns a Decorator of the deterministic header (title,
// section path) or, with summary, of that and the extractive summary.
func newDecorator(tok tokencount.Tokenizer, summary bool) (*contextheader.Decorator, error) {
	cfg := contextheader.Config{Tokenizer: tok}
	if summary {
		cfg.Parts = []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.Section}, {Kind: contextheader.Summary}}
		cfg.Summarizer = &contextheader.Extractive{}
	}
	return contextheader.New(cfg)
}

// decorate sets the Embed text of each unit to its chunk's header and
// text, and its header as the words keyword search reads besides the
// text; units[i] is chunks[i].
func decorate(ctx context.Context, d *contextheader.Decorator, doc Document, chunks []chunker.Chunk, units []Unit) error {
	hdoc := document.Document{ID: doc.ID, Title: doc.Title, Text: doc.Text, Format: doc.Format}
	decorated, err := d.Decorate(ctx, hdoc, chunks)
	if err != nil {
		return err
	}
	for i, c := range decorated {
		units[i].Embed = c.EmbedText
		// as ingest.Records does: keyword search reads the header too
		units[i].Notes.Keywords = c.Header
	}
	return nil
}
