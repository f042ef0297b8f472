package eino

import (
	"context"
	"fmt"

	"github.com/cloudwego/eino/components/document"
	"github.com/cloudwego/eino/schema"
	"github.com/ragkit/ragkit/adapters/internal/split"
	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
)

// eino's own metadata keys (schema.Document's accessors) that belong to one
// document and must not be copied to its chunks.
var wholeDocumentKeys = []string{"_dense_vector", "_sparse_vector", "_score"}

// TransformerConfig configures a [Transformer].
type TransformerConfig struct {
	// Chunker cuts the documents' Content. Required.
	Chunker *chunker.Chunker
	// Decorator, if set, gives each chunk a contextual header: the header
	// goes into meta.NotesKey (for keyword search) and the header with the chunk
	// under meta.EmbedTextKey, which an [Indexer] embeds instead of the
	// chunk's text. Nil means no headers.
	Decorator *contextheader.Decorator
	// DocIDKey is the metadata key of a document's ID for documents whose
	// ID field is empty; empty means none (see meta.DocID).
	DocIDKey string
}

// Transformer is ragkit's chunker as an eino document.Transformer. It is
// safe for concurrent use.
type Transformer struct {
	cfg TransformerConfig
}

var _ document.Transformer = (*Transformer)(nil)

// NewTransformer returns a Transformer configured by cfg; a nil Chunker
// gives an error wrapping [ErrConfig].
func NewTransformer(cfg TransformerConfig) (*Transformer, error) {
	if cfg.Chunker == nil {
		return nil, fmt.Errorf("%w: Chunker is nil: it is required", ErrConfig)
	}
	return &Transformer{cfg: cfg}, nil
}

// Config returns the configuration of t.
func (t *Transformer) Config() TransformerConfig { return t.cfg }

// GetType names the component in eino's graphs and callbacks.
func (t *Transformer) GetType() string { return typeName }

// Transform cuts each document's Content into chunks, in order. A chunk's ID
// is its document's ID, "#" and its index, and its metadata a copy of its
// document's (less the dense and sparse vectors and score, which belong to
// the whole document) with meta.DocIDKey, meta.IndexKey, meta.StartKey and
// meta.EndKey (byte offsets into Content), meta.TokensKey (its exact count),
// meta.SectionKey and meta.NotesKey (the gap before it, the header), and
// with a Decorator meta.EmbedTextKey. The document's ID is its ID
// field, else its metadata's (TransformerConfig.DocIDKey), else one made from
// its text. A nil document, or a chunker's or Decorator's error, fails the
// call with the document's position; a cancelled ctx stops it between
// documents. Transform takes no options.
func (t *Transformer) Transform(ctx context.Context, src []*schema.Document, _ ...document.TransformerOption) ([]*schema.Document, error) {
	var out []*schema.Document
	for i, d := range src {
		if d == nil {
			return nil, fmt.Errorf("eino: document %d is nil", i)
		}
		pieces, err := split.Split(ctx, t.cfg.Chunker, t.cfg.Decorator, t.cfg.DocIDKey,
			split.Doc{ID: d.ID, Text: d.Content, Metadata: d.MetaData})
		if err != nil {
			return nil, fmt.Errorf("eino: document %d: %w", i, err)
		}
		for _, p := range pieces {
			for _, k := range wholeDocumentKeys {
				delete(p.Metadata, k)
			}
			out = append(out, &schema.Document{ID: p.ID, Content: p.Text, MetaData: p.Metadata})
		}
	}
	return out, nil
}
