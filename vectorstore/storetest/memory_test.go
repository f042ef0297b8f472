package storetest_test

import (
	"testing"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/vectorstore/storetest"
	"github.com/stretchr/testify/require"
)

var indexAll = memory.IndexConfig{IVF: true, MinRecords: 1, Probes: 1 << 16}

// TestMemory runs the suite against the in-memory store: the zero Memory,
// one with a fixed dimension, a compact one, whose scores and vectors
// are within a fraction of its int8 quantization step of exact, and both with the approximate index on.
func TestMemory(t *testing.T) {
	for _, tt := range []struct {
		name      string
		cfg       func(dim int) memory.Config
		tolerance float64
	}{
		{"plain", func(int) memory.Config { return memory.Config{} }, 0},
		{"dimension", func(dim int) memory.Config { return memory.Config{Dimension: dim, Workers: 3} }, 0},
		{"compact", func(int) memory.Config { return memory.Config{Compact: true} }, 2e-3},
		// The approximate index, trained from the first record on and
		// scanning every list (the suite expects exact results).
		{"index", func(int) memory.Config { return memory.Config{Index: indexAll} }, 0},
		{"index-compact", func(int) memory.Config { return memory.Config{Compact: true, Index: indexAll} }, 2e-3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			storetest.Run(t, storetest.Config{
				New: func(t *testing.T, dim int) vectorstore.VectorStore {
					m, err := memory.New(tt.cfg(dim))
					require.NoError(t, err)
					t.Cleanup(func() { _ = m.Close() })
					return m
				},
				Tolerance: tt.tolerance,
			})
		})
	}
	t.Run("zero", func(t *testing.T) {
		storetest.Run(t, storetest.Config{New: func(*testing.T, int) vectorstore.VectorStore { return new(memory.Store) }})
	})
}
