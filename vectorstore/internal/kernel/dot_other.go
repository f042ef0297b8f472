//go:build !amd64 || purego

package kernel

var useAVX2, useFMA = false, false

func dotFMA(a, b *float32, n int) float32 { panic("kernel: no FMA") }

func dotInt8AVX2(a, b *int8, n int) int32 { panic("kernel: no AVX2") }

func dotRefinedAVX2(q *float32, codes *int8, resid *byte, n int) float32 { panic("kernel: no AVX2") }

func reconstructAVX2(dst *float32, codes *int8, resid *byte, n int, scale8 float32) {
	panic("kernel: no AVX2")
}

func dotInt8ManyAVX2(q *int16, codes *int8, dim, n int, out *int32) { panic("kernel: no AVX2") }
