package genkitrag

import (
	"context"
	"fmt"

	"github.com/firebase/genkit/go/ai"
	"github.com/ragkit/ragkit/adapters/internal/split"
	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
)

// SplitterConfig configures a [Splitter].
type SplitterConfig struct {
	// Chunker cuts the documents' text. Required.
	Chunker *chunker.Chunker
	// Decorator, if set, gives each chunk a contextual header: the header
	// goes into meta.NotesKey (for keyword search) and the header with the chunk
	// under meta.EmbedTextKey, which an [Indexer] embeds instead of the
	// chunk's text. Nil means no headers.
	Decorator *contextheader.Decorator
	// DocIDKey is the metadata key of a document's ID when its metadata
	// has no meta.DocIDKey; empty means none (see meta.DocID).
	DocIDKey string
}

// Splitter cuts Genkit documents into chunks with ragkit's chunker. Genkit
// for Go has no splitter interface of its own (its samples borrow
// langchaingo's), so this is a plain method, like its plugins' Index. It is
// safe for concurrent use.
type Splitter struct {
	cfg SplitterConfig
}

// NewSplitter returns a Splitter configured by cfg; a nil Chunker gives an
// error wrapping [ErrConfig].
func NewSplitter(cfg SplitterConfig) (*Splitter, error) {
	if cfg.Chunker == nil {
		return nil, fmt.Errorf("%w: Chunker is nil: it is required", ErrConfig)
	}
	return &Splitter{cfg: cfg}, nil
}

// Split cuts each document's text (its text parts, joined) into chunks, one
// document of one text part each, in order. A chunk's metadata is a copy of
// its document's with meta.DocIDKey, meta.IndexKey, meta.StartKey and
// meta.EndKey (byte offsets into the text), meta.TokensKey (its exact count),
// meta.SectionKey and meta.NotesKey (the gap before it, the header), and
// with a Decorator meta.EmbedTextKey; an [Indexer] stores them as
// the record's fields. A nil document, one with other parts, or a chunker's
// or Decorator's error fails the call with the document's position; a
// cancelled ctx stops it between documents.
func (s *Splitter) Split(ctx context.Context, docs []*ai.Document) ([]*ai.Document, error) {
	var out []*ai.Document
	for i, d := range docs {
		t, err := textAt(i, d)
		if err != nil {
			return nil, err
		}
		pieces, err := split.Split(ctx, s.cfg.Chunker, s.cfg.Decorator, s.cfg.DocIDKey, split.Doc{Text: t, Metadata: d.Metadata})
		if err != nil {
			return nil, fmt.Errorf("genkitrag: document %d: %w", i, err)
		}
		for _, p := range pieces {
			out = append(out, ai.DocumentFromText(p.Text, p.Metadata))
		}
	}
	return out, nil
}
