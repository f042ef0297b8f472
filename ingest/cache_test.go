package ingest_test

import (
	"context"
	"testing"

	"github.com/ragkit/ragkit/ingest"
	"github.com/stretchr/testify/require"
)

// A MemoryCache keeps its own copy of each vector: neither the vector
// given to Put nor one returned by Get changes what it holds.
func TestMemoryCacheCopies(t *testing.T) {
	ctx := context.Background()
	var c ingest.MemoryCache // the zero value is ready
	_, ok, err := c.Get(ctx, "k")
	require.NoError(t, err)
	require.False(t, ok)

	v := []float32{0.6, 0.8}
	require.NoError(t, c.Put(ctx, "k", v))
	v[0] = 9
	got, ok, err := c.Get(ctx, "k")
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, []float32{0.6, 0.8}, got)
	got[1] = 9
	again, _, _ := c.Get(ctx, "k")
	require.Equal(t, []float32{0.6, 0.8}, again)
	require.Equal(t, 1, c.Len())
	require.Zero(t, (*ingest.MemoryCache)(nil).Len())
}
