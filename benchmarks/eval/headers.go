package eval

import (
	"context"
	"fmt"

	"github.com/ragkit/ragkit/contextheader"
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
	cfg := contextheader.Config{Tokenizer: tok}
	name := fmt.Sprintf("balanced-%d+headers", maxTokens)
	if summary {
		cfg.Parts = []contextheader.Part{{Kind: contextheader.Title}, {Kind: contextheader.Section}, {Kind: contextheader.Summary}}
		cfg.Summarizer = &contextheader.Extractive{}
		name += "+summary"
	}
	d, err := contextheader.New(cfg)
	if err != nil {
		return Method{}, fmt.Errorf("%w: %s: %w", ErrConfig, name, err)
	}
	return Method{Name: name, Units: func(ctx context.Context, doc Document) ([]Unit, error) {
		return headerUnits(ctx, d, tok, maxTokens, doc)
	}}, nil
}

func headerUnits(ctx context.Context, d *contextheader.Decorator, tok tokencount.Tokenizer, maxTokens int, doc Document) ([]Unit, error) {
	chunks, err := balancedChunks(tok, maxTokens, doc)
	if err != nil {
		return nil, err
	}
	hdoc := contextheader.Document{ID: doc.ID, Title: doc.Title, Text: doc.Text, Format: doc.Format}
	decorated, err := d.Decorate(ctx, hdoc, chunks)
	if err != nil {
		return nil, err
	}
	units := make([]Unit, len(decorated))
	for i, c := range decorated {
		units[i] = Unit{Start: c.Start, End: c.End, Embed: c.EmbedText}
	}
	return units, nil
}
