package kernel

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestExp32 checks exp32 against math.Exp over the range the softmax
// feeds it (scores minus their maximum) and beyond, within 4e-7
// relative.
func TestExp32(t *testing.T) {
	for x := float32(-87); x <= 88; x += 0.001953125 {
		got, want := float64(Exp32(x)), math.Exp(float64(x))
		if d := math.Abs(got-want) / want; d > 4e-7 {
			t.Fatalf("Exp32(%v) = %v, want %v (relative error %g)", x, got, want, d)
		}
	}
	if Exp32(-100) != Exp32(-87) || !math.IsInf(float64(Exp32(100)), 1) || !math.IsNaN(float64(Exp32(float32(math.NaN())))) {
		t.Fatal("exp32 at the ends of its range")
	}
}

// TestGelu32 checks gelu32 against the exact GELU in float64 within
// 2e-7·(1+|x|).
func TestGelu32(t *testing.T) {
	for x := float32(-20); x <= 20; x += 0.0009765625 {
		f := float64(x)
		want := 0.5 * f * (1 + math.Erf(f/math.Sqrt2))
		if d := math.Abs(float64(gelu32(x)) - want); d > 2e-7*(1+math.Abs(f)) {
			t.Fatalf("gelu32(%v) = %v, want %v (off by %g)", x, gelu32(x), want, d)
		}
	}
}

// TestVectorPaths checks Softmax and GELU, whose first multiples of 8
// values run in assembly where the machine has AVX2 and FMA, against
// float64 on every length around the vector width.
func TestVectorPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, fma := range []bool{false, true} {
		if fma && !useFMA {
			continue
		}
		saved := useFMA
		useFMA = fma
		for n := 1; n < 70; n++ {
			x := make([]float32, n)
			for i := range x {
				x[i] = float32(r.NormFloat64() * 6)
			}
			g := slices.Clone(x)
			GELU(g)
			for i, v := range x {
				f := float64(v)
				want := 0.5 * f * (1 + math.Erf(f/math.Sqrt2))
				if d := math.Abs(float64(g[i]) - want); d > 4e-7*(1+math.Abs(f)) {
					t.Fatalf("fma=%v n=%d: GELU(%v) = %v, want %v", fma, n, v, g[i], want)
				}
			}
			s := slices.Clone(x)
			Softmax(s, 0.7)
			mx := slices.Max(x)
			var sum float64
			for _, v := range x {
				sum += math.Exp(0.7 * float64(v-mx))
			}
			for i, v := range x {
				// The argument is rounded to float32 first: its error
				// grows with its size.
				arg := 0.7 * float64(v-mx)
				want := math.Exp(arg) / sum
				if d := math.Abs(float64(s[i]) - want); d > 2e-7*(4+math.Abs(arg))*want+1e-30 {
					t.Fatalf("fma=%v n=%d: softmax[%d] = %v, want %v", fma, n, i, s[i], want)
				}
			}
		}
		useFMA = saved
	}
}
