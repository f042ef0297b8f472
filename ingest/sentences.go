package ingest

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/internal/space"
	"github.com/ragkit/ragkit/segment"
)

// Sentences is a SplitFunc that cuts a document into its sentences (by
// segment.Sentences, without the white space around them): the small
// units that package window widens into windows and segments at query
// time. Index them like chunks, with Config.Split set to Sentences; their
// records carry the text between them (see [Records]), so that windows
// rebuild the document's text exactly.
//
// Sentences does not count tokens: each chunk's Tokens is 0. With
// Config.MaxBatchTokens, set Config.Tokenizer so that the Indexer counts
// them. A text with no character but white space, or that is not valid
// UTF-8, gives an error wrapping ErrChunk.
func Sentences(_ context.Context, doc document.Document) ([]chunker.Chunk, error) {
	if !utf8.ValidString(doc.Text) {
		return nil, fmt.Errorf("%w: the text is not valid UTF-8", ErrChunk)
	}
	if first, last := space.Trim(doc.Text, 0, len(doc.Text)); first >= last {
		return nil, fmt.Errorf("%w: the text is empty or only white space", ErrChunk)
	}
	spans := segment.Sentences(doc.Text)
	out := make([]chunker.Chunk, len(spans))
	for i, sp := range spans {
		out[i] = chunker.Chunk{Index: i, Start: sp.Start, End: sp.End, Text: doc.Text[sp.Start:sp.End]}
	}
	return out, nil
}
