package memory_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

func TestMemoryDocumentIDs(t *testing.T) {
	ctx := context.Background()
	var m memory.Store
	var lister vectorstore.DocumentLister = &m
	ids, err := lister.DocumentIDs(ctx)
	require.NoError(t, err)
	require.Empty(t, ids)

	rec := func(id, doc string) vectorstore.Record {
		return vectorstore.Record{ID: id, DocID: doc, Text: id, Vector: []float32{1, 0}}
	}
	require.NoError(t, m.Upsert(ctx, rec("1", "b"), rec("2", "a"), rec("3", "b"), rec("4", "c")))
	ids, err = m.DocumentIDs(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b", "c"}, ids)

	require.NoError(t, m.Delete(ctx, "2"))
	require.NoError(t, m.ReplaceDocument(ctx, "c"))
	ids, err = m.DocumentIDs(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"b"}, ids)

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = m.DocumentIDs(cancelled)
	require.ErrorIs(t, err, context.Canceled)
	require.NoError(t, m.Close())
	_, err = m.DocumentIDs(ctx)
	require.ErrorIs(t, err, memory.ErrClosed)
}
