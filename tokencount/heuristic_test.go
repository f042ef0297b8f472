package tokencount

import (
	"fmt"
	"math"
	"testing"
)

// TestHeuristicError measures the Heuristic against cl100k_base on every
// corpus: the whole-document error and the mean absolute error over
// windows of about 512 tokens. The bounds are the ones documented on
// Heuristic; run with -v to see the figures.
func TestHeuristicError(t *testing.T) {
	exact, err := encoding(Cl100kBase)
	if err != nil {
		t.Fatal(err)
	}
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
		if math.Abs(docErr) > 0.04 || win > 0.05 {
			t.Errorf("%s: heuristic error %.1f%% (windows %.1f%%) exceeds the documented bound", corpus, 100*docErr, 100*win)
		}
	}
}

func relErr(got, want int) float64 { return float64(got-want) / float64(want) }

func TestHeuristicEnds(t *testing.T) {
	for i, s := range seeds {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			n := Heuristic{}.Count(s)
			if s != "" && n < 1 {
				t.Fatalf("Count(%q) = %d, want >= 1", s, n)
			}
			checkEnds(t, s, Heuristic{}.AppendTokenEnds(nil, s), n)
		})
	}
}
