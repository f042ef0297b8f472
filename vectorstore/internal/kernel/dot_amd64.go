//go:build amd64 && !purego

package kernel

// useAVX2 reports whether the CPU and the operating system support AVX2;
// useFMA, whether they also support FMA3. Both are fixed at start-up, so
// that a store scores the same vectors the same way for as long as the
// process runs.
var (
	useAVX2 = hasAVX2()
	useFMA  = useAVX2 && hasFMA()
)

func hasAVX2() bool {
	_, _, ecx1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	// The OS must save the XMM and YMM registers on a context switch.
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	max, _, _, _ := cpuid(0, 0)
	if max < 7 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}

func hasFMA() bool {
	_, _, ecx1, _ := cpuid(1, 0)
	return ecx1&(1<<12) != 0
}

func cpuid(eax, ecx uint32) (a, b, c, d uint32)
func xgetbv() (eax, edx uint32)

// dotFMA returns the dot product of the n float32 values at a and b; n
// must be positive. See [Dot] for its order of summation.
//
//go:noescape
func dotFMA(a, b *float32, n int) float32

// dotInt8AVX2 returns the dot product of the n int8 values at a and b; n
// must be a positive multiple of 64.
//
//go:noescape
func dotInt8AVX2(a, b *int8, n int) int32

// dotRefinedAVX2 returns the sum of q[i] * (8*codes[i] + 2*r[i] - 3) over n
// components, r[i] being the i-th 2-bit code of resid; n must be a
// positive multiple of 8.
//
//go:noescape
func dotRefinedAVX2(q *float32, codes *int8, resid *byte, n int) float32

// reconstructAVX2 writes (8*codes[i] + 2*r[i] - 3) * scale8 to dst[i] for n
// components; n must be a positive multiple of 8.
//
//go:noescape
func reconstructAVX2(dst *float32, codes *int8, resid *byte, n int, scale8 float32)

// dotInt8ManyAVX2 writes to out[i] the dot product of the widened query q
// with vector i of the n vectors of dim components at codes; dim must be a
// positive multiple of 64.
//
//go:noescape
func dotInt8ManyAVX2(q *int16, codes *int8, dim, n int, out *int32)
