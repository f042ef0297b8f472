package tokencount

import (
	"math/rand/v2"
	"sort"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSyntheticCount measures how far the synthetic count of a substring
// (the tokens of the whole text that end inside it) is from the exact
// count of the substring, for cuts like a chunker's (between words) and
// for arbitrary cuts. The bounds asserted here are those of the README's
// figures; run with -v to see them.
func TestSyntheticCount(t *testing.T) {
	for _, name := range []string{Cl100kBase, O200kBase} {
		enc, err := encoding(name)
		require.NoError(t, err)
		for _, corpus := range corpusNames(t) {
			text := readCorpus(t, corpus)
			ends := enc.AppendTokenEnds(nil, text)
			rng := rand.New(rand.NewPCG(1, 2))
			for _, mode := range []string{"word", "any"} {
				cuts := cutPoints(text, mode)
				var exact, sumAbs, maxAbs int
				const samples = 2000
				for range samples {
					a := cuts[rng.IntN(len(cuts))]
					b := a + 1 + rng.IntN(4000)
					k := sort.SearchInts(cuts, b)
					if k >= len(cuts) {
						continue
					}
					b = cuts[k]
					synthetic := sort.SearchInts(ends, b+1) - sort.SearchInts(ends, a+1)
					d := synthetic - enc.Count(text[a:b])
					if d == 0 {
						exact++
					}
					sumAbs += abs(d)
					maxAbs = max(maxAbs, abs(d))
				}
				t.Logf("%-11s %-33s %-4s cuts: exact %5.1f%%  mean |diff| %.2f  max |diff| %d",
					name, corpus, mode, 100*float64(exact)/samples, float64(sumAbs)/samples, maxAbs)
				limit := 3
				if mode == "any" {
					limit = 6
				}
				assert.LessOrEqual(t, maxAbs, limit, "%s %s %s cuts: synthetic count off by more than the documented bound", name, corpus, mode)
			}
		}
	}
}

// cutPoints returns sorted candidate cut offsets: word starts and ends
// (mode "word"), or every rune boundary ("any").
func cutPoints(text string, mode string) []int {
	var cuts []int
	prevSpace := true
	for i, r := range text {
		space := unicode.IsSpace(r)
		if mode == "any" || space != prevSpace {
			cuts = append(cuts, i)
		}
		prevSpace = space
	}
	return cuts
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
