package kernel_test

import (
	"math/rand/v2"
	"testing"

	"github.com/ragkit/ragkit/bert/internal/kernel"
)

// TestMulPackedAgainstFloat64 checks every output of MulPacked against
// the dot product in float64, on shapes around the kernel's block (6×16)
// and its blocking of the inner dimension (256), column blocks split as
// callers split them, with strides wider than the rows, and that it
// writes nothing outside the columns it is asked for.
func TestMulPackedAgainstFloat64(t *testing.T) {
	withPaths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(9, 10))
		shapes := [][3]int{{1, 1, 1}, {6, 16, 1}, {6, 16, 8}, {7, 17, 9}, {5, 15, 255}, {13, 33, 256}, {12, 32, 257},
			{97, 48, 384}, {2, 1, 384}, {20, 40, 600}, {100, 16, 16}}
		for range 15 {
			shapes = append(shapes, [3]int{1 + r.IntN(30), 1 + r.IntN(50), 1 + r.IntN(700)})
		}
		for _, s := range shapes {
			rows, cols, n := s[0], s[1], s[2]
			ldx, ldo := n+r.IntN(3), cols+r.IntN(3)
			x, w := randFloats(r, rows*ldx), randFloats(r, cols*n)
			p := kernel.Pack(w, cols, n)
			out := make([]float32, rows*ldo)
			fillCanary(out)
			// Two calls over the blocks, as a caller splitting them over
			// goroutines makes.
			mid := p.Blocks() / 2
			kernel.MulPacked(out, ldo, x, ldx, rows, p, 0, mid)
			kernel.MulPacked(out, ldo, x, ldx, rows, p, mid, p.Blocks())
			checkProduct(t, s, out, ldo, x, ldx, w, n, rows, cols, n)
		}
	})
}

// TestMulPackedPathsAgreeOnIntegers checks that the assembly and the Go
// loop give the same bits where every sum is exact.
func TestMulPackedPathsAgreeOnIntegers(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	rows, cols, n := 19, 37, 530
	x, w := make([]float32, rows*n), make([]float32, cols*n)
	for i := range x {
		x[i] = float32(r.IntN(15) - 7)
	}
	for i := range w {
		w[i] = float32(r.IntN(15) - 7)
	}
	p := kernel.Pack(w, cols, n)
	withPaths(t, func(t *testing.T) {
		out := make([]float32, rows*cols)
		kernel.MulPacked(out, cols, x, n, rows, p, 0, p.Blocks())
		for i := range rows {
			for j := range cols {
				var s int
				for k := range n {
					s += int(x[i*n+k]) * int(w[j*n+k])
				}
				if out[i*cols+j] != float32(s) {
					t.Fatalf("out[%d][%d] = %g, want %d", i, j, out[i*cols+j], s)
				}
			}
		}
	})
}

func BenchmarkMulPacked(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	rows, cols, n := 128, 1536, 384 // the same product as BenchmarkMulT
	x, w := randFloats(r, rows*n), randFloats(r, cols*n)
	p := kernel.Pack(w, cols, n)
	out := make([]float32, rows*cols)
	b.SetBytes(int64(4 * (len(x) + len(w))))
	b.ReportAllocs()
	for b.Loop() {
		kernel.MulPacked(out, cols, x, n, rows, p, 0, p.Blocks())
	}
	b.ReportMetric(float64(2*rows*cols*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
