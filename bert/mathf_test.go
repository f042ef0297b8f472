package bert

import (
	"math"
	"testing"
)

// TestExp32 checks exp32 against math.Exp over the range the softmax
// feeds it (scores minus their maximum) and beyond, within 4e-7
// relative.
func TestExp32(t *testing.T) {
	for x := float32(-87); x <= 88; x += 0.001953125 {
		got, want := float64(exp32(x)), math.Exp(float64(x))
		if d := math.Abs(got-want) / want; d > 4e-7 {
			t.Fatalf("exp32(%v) = %v, want %v (relative error %g)", x, got, want, d)
		}
	}
	if exp32(-100) != 0 || !math.IsInf(float64(exp32(100)), 1) || !math.IsNaN(float64(exp32(float32(math.NaN())))) {
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
