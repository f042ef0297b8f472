package tokencount

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHeuristicError measures the Heuristic against cl100k_base on every
// corpus: the whole-document error and the mean absolute error over
// windows of about 512 tokens. The bounds back the claim of Heuristic's
// documentation; run with -v to see the figures the README gives.
func TestHeuristicError(t *testing.T) {
	exact, err := encoding(Cl100kBase)
	require.NoError(t, err)
	for _, corpus := range corpusNames(t) {
		text := readCorpus(t, corpus)
		docErr := relErr(Heuristic{}.Count(text), exact.Count(text))
		ends := exact.AppendTokenEnds(nil, text)
		var sum float64
		var n int
		for k := 512; k < len(ends); k += 512 {
			w := text[ends[k-512]:ends[k]]
			sum += math.Abs(relErr(Heuristic{}.Count(w), exact.Count(w)))
			n++
		}
		win := sum / float64(max(n, 1))
		t.Logf("%-34s document %+6.1f%%   512-token windows: mean |error| %5.1f%%", corpus, 100*docErr, 100*win)
		assert.LessOrEqual(t, math.Abs(docErr), 0.04, "%s: document error beyond the documented bound", corpus)
		assert.LessOrEqual(t, win, 0.05, "%s: window error beyond the documented bound", corpus)
	}
}

func relErr(got, want int) float64 { return float64(got-want) / float64(want) }

func TestHeuristicEnds(t *testing.T) {
	for i, s := range seeds {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			n := Heuristic{}.Count(s)
			if s != "" {
				require.GreaterOrEqual(t, n, 1, "Count(%q)", s)
			}
			checkEnds(t, s, Heuristic{}.AppendTokenEnds(nil, s), n)
		})
	}
}
