package window_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/window"
)

// A Widener is configured without a Source, which Widen hands it (as the
// Retriever does, with its store behind its filter): New accepts it, Widen
// reads from the source given, and Expand and Extract, which have no
// source to read, refuse to run.
func TestWidenerWithoutSource(t *testing.T) {
	ctx := context.Background()
	units := paragraphs("d", "One.\n\nTwo.\n\nThree.", document.Text)
	hits := []vectorstore.Hit{{Record: units[1], Score: 1}}
	e, err := window.NewExpander(window.ExpanderConfig{Size: 1})
	require.NoError(t, err)
	x, err := window.NewExtractor(window.ExtractorConfig{})
	require.NoError(t, err)

	ws, err := e.Widen(ctx, static{"d": units}, hits)
	require.NoError(t, err)
	require.Equal(t, "One.\n\nTwo.\n\nThree.", ws[0].Text)
	ws, err = x.Widen(ctx, static{"d": units}, hits)
	require.NoError(t, err)
	require.NotEmpty(t, ws)

	_, err = e.Expand(ctx, hits)
	require.ErrorIs(t, err, window.ErrConfig)
	_, err = x.Extract(ctx, hits)
	require.ErrorIs(t, err, window.ErrConfig)
	_, err = e.Widen(ctx, nil, hits)
	require.ErrorIs(t, err, window.ErrConfig)
}
