package window_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/window"
)

// static is a Source over fixed units that copies nothing, so that an
// allocation count measures Expand alone.
type static map[string][]vectorstore.Record

func (s static) Range(_ context.Context, docID string, from, to int) ([]vectorstore.Record, error) {
	us, ok := s[docID]
	if !ok {
		return nil, vectorstore.ErrNotFound
	}
	return us[max(0, from):min(len(us), to+1)], nil
}

// TestExpandAllocs guards what Expand allocates: a bounded number of
// allocations per hit, whatever the size of the documents.
func TestExpandAllocs(t *testing.T) {
	src := static{}
	var hits []vectorstore.Hit
	for d := range 20 {
		id := "d" + strconv.Itoa(d)
		units, err := sentenceUnits(id, numbered(200))
		require.NoError(t, err)
		src[id] = units
		hits = append(hits, vectorstore.Hit{Record: units[50+d], Score: 1}, vectorstore.Hit{Record: units[120], Score: .5})
	}
	e, err := window.NewExpander(window.ExpanderConfig{Source: src, Size: 3})
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(20, func() {
		if _, err := e.Expand(context.Background(), hits); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("%.0f allocations for %d hits", allocs, len(hits))
	require.LessOrEqual(t, allocs, float64(8*len(hits)+16))
}
