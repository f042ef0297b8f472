// Package kernel holds the inner loops of the in-memory vector store: dot
// products over float32 and int8 vectors, scalar quantization, and a bounded
// top-k selection. The loops are written so that a scan streams one
// contiguous slab of memory; the int8 dot product uses AVX2 on amd64 when
// the CPU has it and a portable Go loop everywhere else.
package kernel

import "math"

// Dot returns the dot product of a and b, which must have the same length.
// Eight independent accumulators break the floating-point add chain so the
// loop runs at the speed of the loads rather than the latency of an add.
func Dot(a, b []float32) float32 {
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

// DotInt8 returns the dot product of two int8 vectors of the same length,
// accumulated in int32. It cannot overflow for vectors shorter than 2^17.
func DotInt8(a, b []int8) int32 {
	b = b[:len(a)]
	n := len(a) &^ 63
	var s int32
	if n > 0 && useAVX2 {
		s = dotInt8AVX2(&a[0], &b[0], n)
		a, b = a[n:], b[n:]
	}
	return s + dotInt8Go(a, b)
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

// Normalize scales v to unit length in place and returns its original
// length. It returns 0 (leaving v alone) for a zero vector and NaN if v
// holds a NaN or an infinity, so callers can refuse both.
func Normalize(v []float32) float64 {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	n := math.Sqrt(ss)
	if n == 0 || math.IsNaN(n) || math.IsInf(n, 0) {
		if math.IsInf(n, 0) {
			return math.NaN()
		}
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
// the int8 scan.
func QuantizeQuery(v []float32, codes []int8) float32 { return Quantize(v, codes, nil) }

// refineTable maps a 2-bit refinement code to its offset from the int8 code.
var refineTable = [4]float32{-0.375, -0.125, 0.125, 0.375}

// DotRefined returns the dot product of the float32 query q with the vector
// reconstructed from codes, residual and scale (see [Quantize]).
func DotRefined(q []float32, codes []int8, residual []byte, scale float32) float32 {
	codes = codes[:len(q)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(q); i += 4 {
		r := residual[i/4]
		s0 += q[i] * (float32(codes[i]) + refineTable[r&3])
		s1 += q[i+1] * (float32(codes[i+1]) + refineTable[r>>2&3])
		s2 += q[i+2] * (float32(codes[i+2]) + refineTable[r>>4&3])
		s3 += q[i+3] * (float32(codes[i+3]) + refineTable[r>>6])
	}
	for ; i < len(q); i++ {
		r := residual[i/4] >> (2 * (i % 4)) & 3
		s0 += q[i] * (float32(codes[i]) + refineTable[r])
	}
	return (s0 + s1 + s2 + s3) * scale
}

// Reconstruct writes into dst the vector that codes, residual and scale
// stand for.
func Reconstruct(dst []float32, codes []int8, residual []byte, scale float32) {
	for i := range dst {
		r := residual[i/4] >> (2 * (i % 4)) & 3
		dst[i] = (float32(codes[i]) + refineTable[r]) * scale
	}
}

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }
