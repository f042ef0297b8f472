//go:build !amd64 || purego

package kernel

var useFMA = false

func mul2x4FMA(x *float32, dx int, w *float32, dw int, n int, out *float32, ldo int) {
	panic("kernel: no FMA")
}

func setFMA(on bool) {}

func expShiftedAVX2(x *float32, n int, sub, scale float32) { panic("kernel: no AVX2") }

func geluAVX2(x *float32, n int) { panic("kernel: no AVX2") }

func mul6x16FMA(x *float32, ldx int, w *float32, k int, out *float32, ldo int, acc int) {
	panic("kernel: no FMA")
}
