package window

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

type run struct {
	a, b int
	v    float64
}

// bruteBest searches every free run of at most maxLen positions inside one
// block, with the picker's tie rules: larger value, then shorter, then
// earlier end.
func bruteBest(values []float64, docStart []int, taken []bool, maxLen int) (run, bool) {
	var best run
	found := false
	for b := range values {
		for a := b; a >= 0 && b-a < maxLen; a-- {
			if taken[a] || (a < b && docStart[a+1] == a+1) {
				break
			}
			if taken[b] {
				break
			}
			v := 0.0
			for i := a; i <= b; i++ {
				v += values[i]
			}
			r := run{a, b, v}
			if !found || better(r, best) {
				best, found = r, true
			}
		}
	}
	return best, found
}

func better(r, s run) bool {
	if r.v != s.v {
		return r.v > s.v
	}
	if r.b-r.a != s.b-s.a {
		return r.b-r.a < s.b-s.a
	}
	return r.b < s.b
}

func TestRunPickerMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := range 3000 {
		n := 1 + rng.IntN(40)
		maxLen := 1 + rng.IntN(8)
		values := make([]float64, n)
		docStart := make([]int, n)
		for i := range values {
			// multiples of 1/8 add exactly, so ties are real ties
			values[i] = float64(rng.IntN(17)-10) / 8
			if i > 0 && rng.IntN(10) != 0 {
				docStart[i] = docStart[i-1]
			} else {
				docStart[i] = i
			}
		}
		r := newRunPicker(values, docStart, maxLen)
		taken := make([]bool, n)
		for {
			a, b, v, ok := r.best()
			want, wok := bruteBest(values, docStart, taken, maxLen)
			require.Equal(t, wok, ok, "iteration %d", iter)
			if !ok {
				break
			}
			require.Equal(t, want, run{a, b, v}, "iteration %d: values %v starts %v maxLen %d taken %v", iter, values, docStart, maxLen, taken)
			r.take(a, b)
			for i := a; i <= b; i++ {
				taken[i] = true
			}
		}
	}
}
