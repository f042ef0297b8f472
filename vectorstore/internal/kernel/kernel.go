// Package kernel holds the inner loops of the in-memory vector store (and
// the vector checks of the contract's CheckRecords): dot
// products over float32 and int8 vectors, scalar quantization, and a bounded
// top-k selection. The loops are written so that a scan streams one
// contiguous slab of memory. On amd64 the float32 dot product uses AVX2 and
// FMA, and the int8 dot products and the refined (int8 plus 2-bit) vectors'
// dot product and reconstruction use AVX2, when the CPU has them (detected
// once, at start-up); everywhere else, and with -tags purego, they are
// portable Go loops.
//
// The float32 paths add the same products in different orders, so their
// results may differ in the last bits (see [Dot]); which path runs is fixed
// for the life of the process, so scores and the ranking of ties are
// deterministic on a given machine and build.
package kernel

import (
	"errors"
	"math"
)

// Why a vector has no direction, for the errors of a store that refuses it.
var (
	ErrZero      = errors.New("is a zero vector, which has no direction")
	ErrNonFinite = errors.New("holds NaN or infinity")
)

// Direction returns why a vector of length n (from [Norm] or [Normalize])
// has no direction, or nil if it has one.
func Direction(n float64) error {
	switch {
	case n == 0:
		return ErrZero
	case math.IsNaN(n):
		return ErrNonFinite
	}
	return nil
}

// Dot returns the dot product of a and b, which must have the same length.
//
// With AVX2 and FMA it runs dotFMA: 32 components per iteration in four
// vector accumulators of eight lanes (component i goes to lane i%8 of
// accumulator i/8%4), each product fused with its add (one rounding);
// the remaining groups of eight go to the first accumulator, the
// accumulators and then their lanes are added pairwise, and the last len%8
// components are added one by one, fused. Otherwise it runs dotGo: four
// scalar accumulators (component i goes to i%4), each product rounded
// before its add, the accumulators added as (0+1)+(2+3), the last len%8
// components added to the first one before that. Both are exact for
// small integers; on other data they usually differ by a few units in the
// last place of the largest partial sum, never by more than the usual
// bound for float32 summation of len terms.
func Dot(a, b []float32) float32 {
	b = b[:len(a)]
	if useFMA && len(a) > 0 {
		return dotFMA(&a[0], &b[0], len(a))
	}
	return dotGo(a, b)
}

// dotGo is the portable float32 dot product. The loop indexes both slices
// from one counter (advancing the slices instead, a, b = a[8:], b[8:],
// puts a multi-instruction pointer update on the loop's critical path,
// which measured 1.3 to 1.55 times slower on Intel), has no bounds checks
// once b is cut to len(a), and takes eight components per iteration into
// four independent accumulators: eight accumulators plus the products'
// temporaries need more than the 15 float registers the Go ABI leaves, and
// one of them then lives on the stack.
func dotGo(a, b []float32) float32 {
	n := len(a)
	b = b[:n]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i <= n-8; i += 8 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
		s0 += a[i+4] * b[i+4]
		s1 += a[i+5] * b[i+5]
		s2 += a[i+6] * b[i+6]
		s3 += a[i+7] * b[i+7]
	}
	for ; i < n; i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// DotInt8 returns the dot product of two int8 vectors of the same length,
// accumulated in int32. It cannot overflow for vectors shorter than 2^17.
func DotInt8(a, b []int8) int32 {
	b = b[:len(a)]
	n := len(a) &^ 63
	var s int32
	if n > 0 && useAVX2 {
		s = dotInt8AVX2(&a[0], &b[0], n)
		if n == len(a) {
			return s
		}
		a, b = a[n:], b[n:]
	}
	return s + dotInt8Go(a, b)
}

// Int8Query is a quantized query prepared for [DotInt8Many].
type Int8Query struct {
	Codes []int8
	wide  []int16 // Codes widened, for the vectorised loop
}

// Set makes q the query whose codes are codes (which q keeps).
func (q *Int8Query) Set(codes []int8) {
	q.Codes = codes
	q.wide = q.wide[:0]
	if useAVX2 && len(codes)%64 == 0 {
		for _, c := range codes {
			q.wide = append(q.wide, int16(c))
		}
	}
}

// DotInt8Many writes to out[i] the dot product of q with the i-th vector
// of codes, which holds len(out) vectors of len(q.Codes) components. Where
// the dimension is a multiple of 64 and the CPU has AVX2 it scores them in
// one call, without the per-vector overhead of DotInt8.
func DotInt8Many(q *Int8Query, codes []int8, out []int32) {
	dim := len(q.Codes)
	codes = codes[:len(out)*dim]
	if len(out) == 0 {
		return
	}
	if len(q.wide) == dim && dim > 0 {
		dotInt8ManyAVX2(&q.wide[0], &codes[0], dim, len(out), &out[0])
		return
	}
	for i := range out {
		out[i] = DotInt8(q.Codes, codes[i*dim:(i+1)*dim])
	}
}

func dotInt8Go(a, b []int8) int32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 int32
	for len(a) >= 4 {
		s0 += int32(a[0]) * int32(b[0])
		s1 += int32(a[1]) * int32(b[1])
		s2 += int32(a[2]) * int32(b[2])
		s3 += int32(a[3]) * int32(b[3])
		a, b = a[4:], b[4:]
	}
	for i := range a {
		s0 += int32(a[i]) * int32(b[i])
	}
	return s0 + s1 + s2 + s3
}

// Norm returns the Euclidean length of v, summed in float64: 0 for a zero
// vector and NaN if v holds a NaN or an infinity (or its length overflows).
func Norm(v []float32) float64 {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	n := math.Sqrt(ss)
	if math.IsInf(n, 0) {
		return math.NaN()
	}
	return n
}

// Normalize scales v to unit length in place and returns its original
// length, [Norm]. It returns 0 (leaving v alone) for a zero vector and NaN
// if v holds a NaN or an infinity, so callers can refuse both.
func Normalize(v []float32) float64 {
	n := Norm(v)
	if n == 0 || math.IsNaN(n) {
		return n
	}
	r := 1 / n
	for i, x := range v {
		v[i] = float32(float64(x) * r)
	}
	return n
}

// ResidualBytes is the number of bytes that hold the 2-bit refinement codes
// of a vector of dim components.
func ResidualBytes(dim int) int { return (dim + 3) / 4 }

// Quantize writes the int8 codes and the 2-bit refinement codes of v and
// returns the scale: v[i] ≈ scale*(codes[i] + refine(i)), where refine(i) is
// one of -3/8, -1/8, 1/8, 3/8. The codes alone are a symmetric int8
// quantization (error at most scale/2 per component, good enough to rank
// candidates); with the refinement codes the error is at most scale/8, which
// is what lets a re-rank reach exact search's top k. residual may be nil.
func Quantize(v []float32, codes []int8, residual []byte) float32 {
	var m float32
	for _, x := range v {
		m = max(m, abs32(x))
	}
	if m == 0 {
		clear(codes[:len(v)])
		if residual != nil {
			clear(residual[:ResidualBytes(len(v))])
		}
		return 0
	}
	scale := m / 127
	inv := 127 / m
	for i, x := range v {
		y := x * inv
		c := float32(math.Round(float64(y)))
		c = min(max(c, -127), 127)
		codes[i] = int8(c)
		if residual != nil {
			r := int((y - c + 0.5) * 4)
			r = min(max(r, 0), 3)
			residual[i/4] |= byte(r) << (2 * (i % 4))
		}
	}
	return scale
}

// QuantizeQuery is Quantize without refinement codes, for the query side of
// the int8 scan. It rounds in float32, so a component within a rounding
// error of a half step may get the other neighbouring code than Quantize
// would give it, which does not matter to a ranking.
func QuantizeQuery(v []float32, codes []int8) float32 {
	var m float32
	for _, x := range v {
		m = max(m, abs32(x))
	}
	codes = codes[:len(v)]
	if m == 0 {
		clear(codes)
		return 0
	}
	inv := 127 / m
	for i, x := range v {
		y := x * inv // within [-127, 127]
		half := math.Float32frombits(math.Float32bits(y)&(1<<31) | math.Float32bits(0.5))
		codes[i] = int8(int32(y + half)) // rounds half away from zero
	}
	return m / 127
}

// The refined value of component i is scale*(codes[i] + (2*r[i]-3)/8),
// r[i] being its 2-bit refinement code: eight times it over scale,
// 8*codes[i] + 2*r[i] - 3, is an exact integer, which is what the loops
// below (and their AVX2 versions) compute before one multiplication by
// scale/8. The result is the same float32 as scale*(codes[i] + offset).

// DotRefined returns the dot product of the float32 query q with the vector
// reconstructed from codes, residual and scale (see [Quantize]).
func DotRefined(q []float32, codes []int8, residual []byte, scale float32) float32 {
	codes = codes[:len(q)]
	var s float32
	n := len(q) &^ 7
	if n > 0 && useAVX2 {
		_ = residual[n/4-1]
		s = dotRefinedAVX2(&q[0], &codes[0], &residual[0], n)
		q, codes, residual = q[n:], codes[n:], residual[n/4:]
	}
	return (s + dotRefinedGo(q, codes, residual)) * (scale / 8)
}

func dotRefinedGo(q []float32, codes []int8, residual []byte) float32 {
	codes = codes[:len(q)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(q); i += 4 {
		r := int32(residual[i/4])
		c, qq := codes[i:i+4:i+4], q[i:i+4:i+4]
		s0 += qq[0] * float32(8*int32(c[0])+2*(r&3)-3)
		s1 += qq[1] * float32(8*int32(c[1])+2*(r>>2&3)-3)
		s2 += qq[2] * float32(8*int32(c[2])+2*(r>>4&3)-3)
		s3 += qq[3] * float32(8*int32(c[3])+2*(r>>6)-3)
	}
	for ; i < len(q); i++ {
		r := int32(residual[i/4] >> (2 * (i % 4)) & 3)
		s0 += q[i] * float32(8*int32(codes[i])+2*r-3)
	}
	return (s0 + s1) + (s2 + s3)
}

// Reconstruct writes into dst the vector that codes, residual and scale
// stand for.
func Reconstruct(dst []float32, codes []int8, residual []byte, scale float32) {
	codes = codes[:len(dst)]
	scale8 := scale / 8
	n := len(dst) &^ 7
	if n > 0 && useAVX2 {
		_ = residual[n/4-1]
		reconstructAVX2(&dst[0], &codes[0], &residual[0], n, scale8)
		dst, codes, residual = dst[n:], codes[n:], residual[n/4:]
	}
	i := 0
	for ; i+4 <= len(dst); i += 4 {
		r := int32(residual[i/4])
		c, d := codes[i:i+4:i+4], dst[i:i+4:i+4]
		d[0] = float32(8*int32(c[0])+2*(r&3)-3) * scale8
		d[1] = float32(8*int32(c[1])+2*(r>>2&3)-3) * scale8
		d[2] = float32(8*int32(c[2])+2*(r>>4&3)-3) * scale8
		d[3] = float32(8*int32(c[3])+2*(r>>6)-3) * scale8
	}
	for ; i < len(dst); i++ {
		r := int32(residual[i/4] >> (2 * (i % 4)) & 3)
		dst[i] = float32(8*int32(codes[i])+2*r-3) * scale8
	}
}

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// FastInt8 reports whether DotInt8 runs vectorised, several times faster
// per component than Dot; without it the int8 loop is about as slow.
var FastInt8 = useAVX2
