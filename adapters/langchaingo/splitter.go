package langchaingo

import (
	"context"
	"errors"
	"fmt"

	"github.com/ragkit/ragkit/adapters/internal/split"
	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/tmc/langchaingo/schema"
	"github.com/tmc/langchaingo/textsplitter"
)

// ErrConfig reports a configuration that a constructor refused.
var ErrConfig = errors.New("langchaingo: invalid configuration")

// SplitterConfig configures a [Splitter].
type SplitterConfig struct {
	// Chunker cuts the texts. Required.
	Chunker *chunker.Chunker
	// Decorator, if set, gives each chunk of SplitDocuments a contextual
	// header: the header goes into meta.NotesKey (for keyword search) and the header
	// with the chunk under meta.EmbedTextKey, which a [Store] embeds
	// instead of the chunk's text. Nil means no headers. SplitText, which
	// returns bare strings, never adds one.
	Decorator *contextheader.Decorator
	// DocIDKey is the metadata key of a document's ID when its metadata
	// has no meta.DocIDKey: langchaingo's file loaders put the path under
	// "source". Empty means none; a document without an ID then gets one
	// made from its text (see meta.DocID).
	DocIDKey string
}

// Splitter is ragkit's chunker as a langchaingo textsplitter.TextSplitter.
// It is safe for concurrent use.
type Splitter struct {
	cfg SplitterConfig
}

var _ textsplitter.TextSplitter = (*Splitter)(nil)

// NewSplitter returns a Splitter configured by cfg; a nil Chunker gives an
// error wrapping [ErrConfig].
func NewSplitter(cfg SplitterConfig) (*Splitter, error) {
	if cfg.Chunker == nil {
		return nil, fmt.Errorf("%w: Chunker is nil: it is required", ErrConfig)
	}
	return &Splitter{cfg: cfg}, nil
}

// Config returns the configuration of s.
func (s *Splitter) Config() SplitterConfig { return s.cfg }

// SplitText returns the texts of the chunks of text, in order: each a
// substring of text, within the chunker's MaxTokens by exact count. The
// chunker's errors are returned as they are.
func (s *Splitter) SplitText(text string) ([]string, error) {
	chunks, err := s.cfg.Chunker.Split(text)
	if err != nil {
		return nil, err
	}
	texts := make([]string, len(chunks))
	for i, c := range chunks {
		texts[i] = c.Text
	}
	return texts, nil
}

// SplitDocuments cuts each document's PageContent into chunks, one document
// each, in order. A chunk's metadata is a copy of its document's, with:
// meta.DocIDKey (the document's ID, see SplitterConfig.DocIDKey),
// meta.IndexKey, meta.StartKey and meta.EndKey (its place: byte offsets into
// PageContent), meta.TokensKey (its exact count), meta.SectionKey (the
// headings above it) and meta.NotesKey (the text between it and the chunk
// before, when that is not one space, and with a Decorator its header),
// and with a Decorator meta.EmbedTextKey. A [Store] writes them as
// the record's fields, so ragkit's windows and labels work on the store.
//
// ctx is passed to the Decorator's Summarizer, if any, and a cancelled ctx
// stops the split between documents. An error names the document's position.
func (s *Splitter) SplitDocuments(ctx context.Context, docs []schema.Document) ([]schema.Document, error) {
	var out []schema.Document
	for i, d := range docs {
		pieces, err := split.Split(ctx, s.cfg.Chunker, s.cfg.Decorator, s.cfg.DocIDKey,
			split.Doc{Text: d.PageContent, Metadata: d.Metadata})
		if err != nil {
			return nil, fmt.Errorf("langchaingo: document %d: %w", i, err)
		}
		for _, p := range pieces {
			out = append(out, schema.Document{PageContent: p.Text, Metadata: p.Metadata})
		}
	}
	return out, nil
}
