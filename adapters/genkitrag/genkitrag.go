package genkitrag

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/firebase/genkit/go/ai"
	"github.com/ragkit/ragkit/adapters/internal/query"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/vectorstore"
)

// ErrConfig reports a configuration that a constructor refused.
var ErrConfig = errors.New("genkitrag: invalid configuration")

// DefaultK is how many documents a retriever returns when neither its
// Config nor the request's options set K.
const DefaultK = 4

// Config configures a retriever and an [Indexer].
type Config struct {
	// Store holds the records. Required.
	Store vectorstore.VectorStore
	// Embedder embeds documents and queries. Required.
	Embedder vectorstore.Embedder
	// DocIDKey is the metadata key of a document's ID when its metadata
	// has no meta.DocIDKey (see meta.ToRecord); empty means none.
	DocIDKey string
	// K is how many documents a retriever returns unless the request's
	// options set K. Zero means [DefaultK]; negative is an error.
	K int
}

func (c Config) check() error {
	return query.CheckStore(ErrConfig, c.Store, c.Embedder, "K", c.K)
}

// textAt returns the text of docs[i] (see text), or an error naming i.
func textAt(i int, d *ai.Document) (string, error) {
	t, err := text(d)
	if err != nil {
		return "", fmt.Errorf("genkitrag: document %d: %w", i, err)
	}
	return t, nil
}

// text returns a document's text: its text parts, joined.
func text(d *ai.Document) (string, error) {
	if d == nil {
		return "", fmt.Errorf("%w: a nil document", meta.ErrUnsupported)
	}
	var b strings.Builder
	for i, p := range d.Content {
		if p == nil || p.Kind != ai.PartText {
			return "", fmt.Errorf("%w: part %d is not text", meta.ErrUnsupported, i)
		}
		b.WriteString(p.Text)
	}
	return b.String(), nil
}

// embed embeds texts with e and checks the count.
func embed(ctx context.Context, e vectorstore.Embedder, texts []string) ([][]float32, error) {
	vs, err := e.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("%w: %d vectors for %d texts", meta.ErrEmbedding, len(vs), len(texts))
	}
	return vs, nil
}
