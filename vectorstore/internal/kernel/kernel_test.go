package kernel

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func randFloats(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

func TestDotInt8(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 7, 31, 32, 33, 63, 64, 65, 100, 384, 1536, 4099} {
		a, b := make([]int8, n), make([]int8, n)
		var want int32
		for i := range a {
			a[i], b[i] = int8(r.IntN(255)-127), int8(r.IntN(255)-127)
			want += int32(a[i]) * int32(b[i])
		}
		if got := DotInt8(a, b); got != want {
			t.Errorf("n=%d: DotInt8 = %d, want %d", n, got, want)
		}
		if got := dotInt8Go(a, b); got != want {
			t.Errorf("n=%d: dotInt8Go = %d, want %d", n, got, want)
		}
	}
	// The extremes: every product is 127*127 or -127*127.
	a, b := make([]int8, 1<<16), make([]int8, 1<<16)
	for i := range a {
		a[i], b[i] = 127, -127
	}
	if got, want := DotInt8(a, b), int32(-127*127*(1<<16)); got != want {
		t.Errorf("extreme: DotInt8 = %d, want %d", got, want)
	}
}

func TestQuantizeBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 5, 384, 1537} {
		v := randFloats(r, n)
		Normalize(v)
		codes, resid := make([]int8, n), make([]byte, ResidualBytes(n))
		scale := Quantize(v, codes, resid)
		rec := make([]float32, n)
		Reconstruct(rec, codes, resid, scale)
		for i := range v {
			if codes[i] < -127 {
				t.Fatalf("code %d out of range", codes[i])
			}
			if d := math.Abs(float64(v[i] - float32(codes[i])*scale)); d > float64(scale)/2*1.0001 {
				t.Fatalf("n=%d i=%d: int8 error %g > scale/2 %g", n, i, d, scale/2)
			}
			if d := math.Abs(float64(v[i] - rec[i])); d > float64(scale)/8*1.0001 {
				t.Fatalf("n=%d i=%d: refined error %g > scale/8 %g", n, i, d, scale/8)
			}
		}
		q := randFloats(r, n)
		want := Dot(q, rec)
		if got := DotRefined(q, codes, resid, scale); math.Abs(float64(got-want)) > 1e-4 {
			t.Errorf("n=%d: DotRefined = %v, want %v", n, got, want)
		}
	}
	if s := Quantize([]float32{0, 0}, make([]int8, 2), make([]byte, 1)); s != 0 {
		t.Errorf("zero vector: scale %v", s)
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		name string
		v    []float32
		want float64 // the returned length; NaN for NaN
	}{
		{"unit", []float32{1, 0}, 1},
		{"3-4-5", []float32{3, 4}, 5},
		{"zero", []float32{0, 0, 0}, 0},
		{"nan", []float32{float32(math.NaN()), 1}, math.NaN()},
		{"inf", []float32{float32(math.Inf(1)), 1}, math.NaN()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Normalize(tt.v)
			if math.IsNaN(tt.want) != math.IsNaN(got) || !math.IsNaN(got) && got != tt.want {
				t.Fatalf("Normalize = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestTopK(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, k := range []int{1, 3, 10, 50} {
		scores := make([]float32, 200)
		for i := range scores {
			scores[i] = float32(r.IntN(20)) // many ties
		}
		top := TopK{Before: func(a, b int32) bool { return a < b }}
		top.Reset(k)
		for i, s := range scores {
			if top.Accepts(s) {
				top.Push(s, int32(i))
			}
		}
		idx := make([]int32, len(scores))
		for i := range idx {
			idx[i] = int32(i)
		}
		slices.SortStableFunc(idx, func(a, b int32) int {
			if scores[a] != scores[b] {
				if scores[a] > scores[b] {
					return -1
				}
				return 1
			}
			return 0
		})
		got := make([]int32, 0, k)
		for _, c := range top.Items() {
			got = append(got, c.Slot)
		}
		slices.Sort(got)
		want := slices.Clone(idx[:k])
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("k=%d: kept %v, want %v", k, got, want)
		}
	}
}

// refinedRef is the refined value of component i straight from the
// definition in Quantize's documentation.
func refinedRef(codes []int8, residual []byte, scale float32, i int) float32 {
	offsets := [4]float32{-0.375, -0.125, 0.125, 0.375}
	r := residual[i/4] >> (2 * (i % 4)) & 3
	return (float32(codes[i]) + offsets[r]) * scale
}

// TestRefinedKernels checks Reconstruct and DotRefined against the
// definition at every length that exercises the vector loops (32 and 8 at a
// time) and the scalar tail, with and without the AVX2 versions.
func TestRefinedKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	lengths := []int{1, 384, 1536, 1539, 4099}
	for n := 2; n <= 80; n++ {
		lengths = append(lengths, n)
	}
	saved := useAVX2
	defer func() { useAVX2 = saved }()
	for _, avx := range []bool{false, true} {
		if avx && !saved {
			continue // no AVX2 on this machine or build
		}
		useAVX2 = avx
		for _, n := range lengths {
			v, q := randFloats(r, n), randFloats(r, n)
			Normalize(v)
			codes, resid := make([]int8, n), make([]byte, ResidualBytes(n))
			scale := Quantize(v, codes, resid)
			rec := make([]float32, n)
			Reconstruct(rec, codes, resid, scale)
			var want float64
			for i := range rec {
				ref := refinedRef(codes, resid, scale, i)
				if rec[i] != ref {
					t.Fatalf("avx=%v n=%d: Reconstruct[%d] = %v, want %v", avx, n, i, rec[i], ref)
				}
				want += float64(q[i]) * float64(ref)
			}
			if got := DotRefined(q, codes, resid, scale); math.Abs(float64(got)-want) > 1e-5*(1+math.Abs(want)) {
				t.Errorf("avx=%v n=%d: DotRefined = %v, want %v", avx, n, got, want)
			}
		}
	}
}

// TestDotInt8Many checks the batched int8 dot products against DotInt8 for
// dimensions that take the AVX2 loop (multiples of 64) and others, for
// batches of every size up to a few blocks.
func TestDotInt8Many(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	saved := useAVX2
	defer func() { useAVX2 = saved }()
	for _, avx := range []bool{false, true} {
		if avx && !saved {
			continue
		}
		useAVX2 = avx
		for _, dim := range []int{1, 63, 64, 100, 128, 384, 1536} {
			qc := make([]int8, dim)
			for i := range qc {
				qc[i] = int8(r.IntN(255) - 127)
			}
			var q Int8Query
			q.Set(qc)
			for _, n := range []int{0, 1, 2, 63, 64, 65, 130} {
				codes := make([]int8, n*dim)
				for i := range codes {
					codes[i] = int8(r.IntN(255) - 127)
				}
				if len(codes) > 0 {
					codes[len(codes)-1] = -127 // an extreme
				}
				out := make([]int32, n)
				DotInt8Many(&q, codes, out)
				for i := range out {
					if want := DotInt8(qc, codes[i*dim:(i+1)*dim]); out[i] != want {
						t.Fatalf("avx=%v dim=%d n=%d: vector %d scored %d, want %d", avx, dim, n, i, out[i], want)
					}
				}
			}
		}
	}
}

// TestQuantizeQuery checks the query's codes against Quantize's: the same
// scale, and the same codes except where a component lies within a
// float32 rounding error of a half step.
func TestQuantizeQuery(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{1, 7, 384, 1536} {
		v := randFloats(r, n)
		Normalize(v)
		want := make([]int8, n)
		wantScale := Quantize(v, want, nil)
		got := make([]int8, n)
		if scale := QuantizeQuery(v, got); scale != wantScale {
			t.Errorf("n=%d: scale %v, want %v", n, scale, wantScale)
		}
		for i := range got {
			y := float64(v[i]) * 127 / float64(wantScale*127)
			nearHalf := math.Abs(math.Abs(y-math.Trunc(y))-0.5) < 1e-5
			if got[i] != want[i] && !nearHalf {
				t.Fatalf("n=%d: code %d is %d, want %d (component %v)", n, i, got[i], want[i], v[i])
			}
		}
	}
	if s := QuantizeQuery([]float32{0, 0}, make([]int8, 2)); s != 0 {
		t.Errorf("zero vector: scale %v", s)
	}
}
