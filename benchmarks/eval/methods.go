package eval

import (
	"context"
	"fmt"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
)

// Chunks returns a Method that embeds the spans cut returns for each
// document as they are, each its own text, and retrieves them by vector
// search: plain chunks.
func Chunks(name string, cut func(doc Document) ([]segment.Span, error)) Method {
	return Method{Name: name, Units: func(_ context.Context, doc Document) ([]Unit, error) {
		spans, err := cut(doc)
		if err != nil {
			return nil, err
		}
		units := make([]Unit, len(spans))
		for i, sp := range spans {
			units[i] = Unit{Start: sp.Start, End: sp.End}
		}
		return units, nil
	}}
}

// Balanced returns plain chunks of at most maxTokens tokens by ragkit's
// chunker with its default Balanced strategy, reading .md documents as
// Markdown. It is named "balanced-<maxTokens>".
func Balanced(tok tokencount.Tokenizer, maxTokens int) Method {
	return Chunks(fmt.Sprintf("balanced-%d", maxTokens), func(doc Document) ([]segment.Span, error) {
		chunks, err := balancedChunks(tok, maxTokens, doc)
		if err != nil {
			return nil, err
		}
		spans := make([]segment.Span, len(chunks))
		for i, ch := range chunks {
			spans[i] = segment.Span{Start: ch.Start, End: ch.End}
		}
		return spans, nil
	})
}

// balancedChunks cuts doc with ragkit's chunker, Balanced, in doc's format.
func balancedChunks(tok tokencount.Tokenizer, maxTokens int, doc Document) ([]chunker.Chunk, error) {
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: maxTokens, Format: doc.Format})
	if err != nil {
		return nil, err
	}
	return c.Split(doc.Text)
}

// Greedy returns plain chunks of at most maxTokens tokens (by the sum of
// their pieces' counts) by [RecursiveSplit], the greedy baseline, with
// the Markdown separators for .md documents. It is named
// "greedy-<maxTokens>".
func Greedy(tok tokencount.Tokenizer, maxTokens int) Method {
	return Chunks(fmt.Sprintf("greedy-%d", maxTokens), func(doc Document) ([]segment.Span, error) {
		return RecursiveSplit(tok, maxTokens, doc.Format, doc.Text)
	})
}

// Standard returns the methods the command runs by default: for each
// size, greedy then balanced plain chunks.
func Standard(tok tokencount.Tokenizer, sizes []int) []Method {
	var out []Method
	for _, n := range sizes {
		out = append(out, Greedy(tok, n), Balanced(tok, n))
	}
	return out
}
