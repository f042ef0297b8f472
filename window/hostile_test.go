package window_test

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/window"
)

// TestHugeMaxUnits: MaxUnits is a caller's bound, not a size to allocate;
// math.MaxInt panicked (makeslice) and 1<<26 allocated 1.5 GB for a
// document of 10 units (issue 24).
func TestHugeMaxUnits(t *testing.T) {
	src, units := storeOf(t, map[string]string{"a": numbered(10)})
	for _, max := range []int{1 << 26, math.MaxInt} {
		x, err := window.NewExtractor(window.ExtractorConfig{Source: src, MaxUnits: max})
		require.NoError(t, err)
		hits := []vectorstore.Hit{hit(units, "a", 2, 0.9), hit(units, "a", 7, 0.8)}
		allocs := testing.AllocsPerRun(3, func() {
			ws, err := x.Extract(context.Background(), hits)
			require.NoError(t, err)
			require.NotEmpty(t, ws)
		})
		require.Less(t, allocs, 500.0)
	}
}
