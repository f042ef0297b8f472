package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// dotLengths are the lengths the float32 kernels are tested on: around the
// widths of the loops (8 and 32 components), the usual embedding sizes,
// a long vector, and random lengths.
func dotLengths(r *rand.Rand) []int {
	ns := []int{0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 39, 40, 63, 64, 65, 383, 384, 385, 1535, 1536, 1537, 65536}
	for range 40 {
		ns = append(ns, r.IntN(5000))
	}
	return ns
}

// withKernels runs f with the FMA kernel and with the portable loop, as
// Dot would pick them, where this machine and build have the former.
func withKernels(t *testing.T, f func(t *testing.T)) {
	saved := useFMA
	defer func() { useFMA = saved }()
	for _, fma := range []bool{false, true} {
		if fma && !saved {
			continue // no AVX2 and FMA on this machine, or -tags purego
		}
		useFMA = fma
		t.Run(fmt.Sprintf("fma=%v", fma), f)
	}
}

// TestDotAgainstGo checks Dot against the portable loop on NaN-free
// random data, slices starting at every alignment of a 32-byte vector
// register. The two add the products in different orders, so they are
// compared within a tolerance relative to the size of the terms, the sum
// of |a[i]*b[i]|: 2^-20 of it is 16 float32 units of rounding, several
// times the largest difference seen on such data, and less than one term.
func TestDotAgainstGo(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		for _, n := range dotLengths(r) {
			off := r.IntN(8)
			a, b := randFloats(r, n+off)[off:], randFloats(r, n+7-off)[7-off:]
			var mag, ref float64
			for i := range a {
				mag += math.Abs(float64(a[i]) * float64(b[i]))
				ref += float64(a[i]) * float64(b[i])
			}
			got, want := float64(Dot(a, b)), float64(dotGo(a, b))
			require.InDelta(t, want, got, 0x1p-20*mag, "n=%d offset=%d: Dot against dotGo", n, off)
			require.InDelta(t, ref, got, 0x1p-20*mag, "n=%d offset=%d: Dot against float64", n, off)
		}
	})
}

// TestDotExactOnIntegers checks that every component counts once: on
// small nonzero integers every product and partial sum is exact in
// float32, whatever the order of the additions, so Dot must give the
// integer dot product exactly.
func TestDotExactOnIntegers(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 4))
		for _, n := range dotLengths(r) {
			a, b := make([]float32, n), make([]float32, n)
			var want int64
			for i := range a {
				x, y := int64(r.IntN(8)+1), int64(r.IntN(8)+1)
				if r.IntN(2) == 0 {
					x = -x
				}
				a[i], b[i] = float32(x), float32(y)
				want += x * y
			}
			require.Equal(t, float32(want), Dot(a, b), "n=%d", n)
			require.Equal(t, float32(want), dotGo(a, b), "n=%d: dotGo", n)
		}
	})
}

// TestDotDeterministic checks that a vector scores the same wherever it
// sits in memory, which the store's ranking of ties relies on.
func TestDotDeterministic(t *testing.T) {
	withKernels(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 6))
		for _, n := range []int{9, 384, 1536} {
			q, v := randFloats(r, n), randFloats(r, n)
			want := Dot(q, v)
			for off := range 8 {
				moved := append(make([]float32, off), v...)[off:]
				require.Equal(t, math.Float32bits(want), math.Float32bits(Dot(q, moved)), "n=%d offset=%d", n, off)
			}
		}
	})
}

// dotReslice is the loop Dot used before it was rewritten: it advances
// its slices by eight components per iteration, which made it 1.3 to 1.55
// times slower than an indexed loop on Intel. It is kept here so that the
// benchmarks can show how it compares on the machine at hand.
func dotReslice(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	for len(a) >= 8 {
		s0 += a[0] * b[0]
		s1 += a[1] * b[1]
		s2 += a[2] * b[2]
		s3 += a[3] * b[3]
		s4 += a[4] * b[4]
		s5 += a[5] * b[5]
		s6 += a[6] * b[6]
		s7 += a[7] * b[7]
		a, b = a[8:], b[8:]
	}
	for i := range a {
		s0 += a[i] * b[i]
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}

// dotKernels are the float32 loops the benchmarks compare.
func dotKernels() []struct {
	name string
	dot  func(a, b []float32) float32
} {
	ks := []struct {
		name string
		dot  func(a, b []float32) float32
	}{{"go", dotGo}, {"reslice", dotReslice}}
	if useFMA {
		ks = append(ks, struct {
			name string
			dot  func(a, b []float32) float32
		}{"fma", func(a, b []float32) float32 { return dotFMA(&a[0], &b[0], len(a)) }})
	}
	return ks
}

var sinkFloat float32

// BenchmarkDot times one dot product of two vectors in cache, by length.
func BenchmarkDot(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{16, 100, 384, 768, 1536, 4096, 65536} {
		x, y := randFloats(r, n), randFloats(r, n)
		for _, k := range dotKernels() {
			b.Run(fmt.Sprintf("%d/%s", n, k.name), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(8 * n))
				for b.Loop() {
					sinkFloat += k.dot(x, y)
				}
			})
		}
	}
}

// BenchmarkDotScan times what a query's scan does on one core: the dot
// product of one query with every vector of a contiguous slab, from L2 (a
// thousand vectors of 384) to memory (a hundred thousand). SetBytes is the
// size of the slab.
func BenchmarkDotScan(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, c := range []struct{ n, dim int }{{1000, 384}, {100_000, 384}, {25_000, 1536}} {
		slab, q := randFloats(r, c.n*c.dim), randFloats(r, c.dim)
		for _, k := range dotKernels() {
			b.Run(fmt.Sprintf("%dx%d/%s", c.n, c.dim, k.name), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(4 * c.n * c.dim))
				for b.Loop() {
					for i := range c.n {
						sinkFloat += k.dot(q, slab[i*c.dim:(i+1)*c.dim])
					}
				}
			})
		}
	}
}
