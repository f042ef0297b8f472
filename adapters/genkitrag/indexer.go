package genkitrag

import (
	"context"
	"fmt"

	"github.com/firebase/genkit/go/ai"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/vectorstore"
)

// Indexer writes Genkit documents into a ragkit store. It is safe for
// concurrent use if its store and embedder are.
type Indexer struct {
	cfg Config
}

// NewIndexer returns an Indexer configured by cfg (its K is not used); a
// missing Store or Embedder gives an error wrapping [ErrConfig].
func NewIndexer(cfg Config) (*Indexer, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return &Indexer{cfg: cfg}, nil
}

// Index embeds docs in one call (each its meta.EmbedTextKey if it has one,
// else its text) and upserts them as records made by meta.ToRecord and
// numbered by meta.Number. A document whose metadata names its ID, document
// and place (as the records a retriever returns do) is stored under them, so
// writing it again replaces it. A nil document or one with parts other than text, and metadata that
// meta.ToRecord refuses, give an error wrapping meta.ErrUnsupported naming
// the document's position; the store's errors are returned as they are.
func (x *Indexer) Index(ctx context.Context, docs []*ai.Document) error {
	units := make([]meta.Unit, len(docs))
	texts := make([]string, len(docs))
	for i, d := range docs {
		t, err := textAt(i, d)
		if err != nil {
			return err
		}
		if units[i], err = meta.ToRecord(t, d.Metadata, x.cfg.DocIDKey); err != nil {
			return fmt.Errorf("genkitrag: document %d: %w", i, err)
		}
		texts[i] = units[i].EmbedText
	}
	if len(docs) == 0 {
		return nil
	}
	meta.Number(units)
	vs, err := embed(ctx, x.cfg.Embedder, texts)
	if err != nil {
		return err
	}
	records := make([]vectorstore.Record, len(units))
	for i, u := range units {
		records[i] = u.Record
		records[i].Vector = vs[i]
	}
	return x.cfg.Store.Upsert(ctx, records...)
}
