package kernel_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ragkit/ragkit/bert/internal/kernel"
)

// withPaths runs f with the assembly block and with the portable loop,
// where this machine and build have the former.
func withPaths(t *testing.T, f func(t *testing.T)) {
	for _, fma := range []bool{false, true} {
		restore, ok := kernel.SetFMA(fma)
		if !ok {
			continue // no AVX2 and FMA here, or -tags purego
		}
		t.Run(fmt.Sprintf("fma=%v", fma), f)
		restore()
	}
}

func randFloats(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// TestMulTAgainstFloat64 checks every output of MulT against the dot
// product in float64, on shapes around the block (2×4) and lane (8)
// widths, with strides wider than the rows, within 2^-20 of the sum of
// the terms' magnitudes (a few float32 roundings of the largest partial
// sum), and that MulT writes nothing outside the block it is asked for.
func TestMulTAgainstFloat64(t *testing.T) {
	withPaths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		shapes := [][3]int{{1, 1, 1}, {1, 1, 8}, {2, 4, 8}, {3, 5, 7}, {2, 4, 9}, {5, 9, 17}, {7, 3, 384}, {16, 12, 32}, {33, 37, 65}, {4, 8, 1536}}
		for range 20 {
			shapes = append(shapes, [3]int{1 + r.IntN(20), 1 + r.IntN(20), 1 + r.IntN(100)})
		}
		for _, s := range shapes {
			rows, cols, n := s[0], s[1], s[2]
			ldx, ldw, ldo := n+r.IntN(3), n+r.IntN(3), cols+r.IntN(3)
			x, w := randFloats(r, rows*ldx), randFloats(r, cols*ldw)
			out := make([]float32, rows*ldo)
			fillCanary(out)
			kernel.MulT(out, ldo, x, ldx, w, ldw, rows, cols, n)
			checkProduct(t, s, out, ldo, x, ldx, w, ldw, rows, cols, n)
		}
	})
}

const canary = 12345

func fillCanary(out []float32) {
	for i := range out {
		out[i] = canary
	}
}

// checkProduct checks out (rows × cols, stride ldo) against x·wᵀ in
// float64 within 2^-20 of the sum of the terms' magnitudes (a few float32
// roundings of the largest partial sum), and that the columns from cols
// to ldo still hold the canary.
func checkProduct(t *testing.T, s [3]int, out []float32, ldo int, x []float32, ldx int, w []float32, ldw, rows, cols, n int) {
	t.Helper()
	for i := range rows {
		for j := range ldo {
			got := out[i*ldo+j]
			if j >= cols {
				if got != canary {
					t.Fatalf("%v: out[%d][%d] written, outside the block", s, i, j)
				}
				continue
			}
			var want, mag float64
			for k := range n {
				p := float64(x[i*ldx+k]) * float64(w[j*ldw+k])
				want += p
				mag += math.Abs(p)
			}
			if d := math.Abs(float64(got) - want); d > 0x1p-20*mag {
				t.Fatalf("%v: out[%d][%d] = %g, want %g (off by %g)", s, i, j, got, want, d)
			}
		}
	}
}

// TestMulTPathsAgreeOnIntegers checks that the assembly and the portable
// loop give the same bits where every product and partial sum is exact
// (small integers), so that each takes every component once.
func TestMulTPathsAgreeOnIntegers(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	rows, cols, n := 9, 11, 203
	x, w := make([]float32, rows*n), make([]float32, cols*n)
	for i := range x {
		x[i] = float32(r.IntN(15) - 7)
	}
	for i := range w {
		w[i] = float32(r.IntN(15) - 7)
	}
	want := make([]float32, rows*cols)
	for i := range rows {
		for j := range cols {
			var s int
			for k := range n {
				s += int(x[i*n+k]) * int(w[j*n+k])
			}
			want[i*cols+j] = float32(s)
		}
	}
	withPaths(t, func(t *testing.T) {
		out := make([]float32, rows*cols)
		kernel.MulT(out, cols, x, n, w, n, rows, cols, n)
		for i := range out {
			if out[i] != want[i] {
				t.Fatalf("out[%d] = %g, want %g", i, out[i], want[i])
			}
		}
	})
}

func BenchmarkMulT(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	rows, cols, n := 128, 1536, 384 // a batch through MiniLM's intermediate layer
	x, w := randFloats(r, rows*n), randFloats(r, cols*n)
	out := make([]float32, rows*cols)
	b.SetBytes(int64(4 * (len(x) + len(w))))
	b.ReportAllocs()
	for b.Loop() {
		kernel.MulT(out, cols, x, n, w, n, rows, cols, n)
	}
	b.ReportMetric(float64(2*rows*cols*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
