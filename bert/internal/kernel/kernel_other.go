//go:build !amd64 || purego

package kernel

var useFMA = false

func mul2x4FMA(x *float32, dx int, w *float32, dw int, n int, out *float32, ldo int) {
	panic("kernel: no FMA")
}

func setFMA(on bool) {}
