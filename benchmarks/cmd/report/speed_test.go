package main

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A ratio is the median of the rounds' ratios, not the ratio of the
// medians: a round slowed for both sides does not move it.
func TestRatio(t *testing.T) {
	tm := timing{ns: [][]float64{{10, 100, 10}, {20, 300, 20}}}
	assert.Equal(t, []float64{2, 3, 2}, tm.ratios(1))
	assert.InDelta(t, 2.0, tm.ratio(1), 1e-12)
	assert.InDelta(t, 20.0, tm.median(1), 1e-12)
	assert.InDelta(t, 2.5, median([]float64{4, 1, 2, 3}), 1e-12)
}

// measure runs every impl once per round and keeps each one's times
// apart.
func TestMeasure(t *testing.T) {
	require.NoError(t, setBenchtime("1x"))
	var calls [2]int
	cs := []comparison{{group: "g", name: "n", impls: []impl{
		{"ragkit", func() error { calls[0]++; return nil }},
		{"peer", func() error { calls[1]++; return nil }},
	}}}
	ts, err := measure(cs, 3, func(string) {})
	require.NoError(t, err)
	require.Len(t, ts, 1)
	assert.Len(t, ts[0].ns[0], 3)
	assert.Len(t, ts[0].ns[1], 3)
	assert.Equal(t, calls[0], calls[1], "as many runs of each side")

	cs[0].impls[1].op = func() error { return errors.New("broken peer") }
	_, err = measure(cs, 1, func(string) {})
	require.ErrorContains(t, err, "g, n, peer: broken peer")
}
