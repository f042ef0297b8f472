//go:build amd64 && !purego

package kernel

import "golang.org/x/sys/cpu"

// useFMA reports whether the CPU and the operating system support AVX2
// and FMA3, fixed at start-up so that a model computes the same vectors
// for as long as the process runs.
var useFMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// mul2x4FMA writes to out[0..3] and out[ldo..ldo+3] the dot products of
// the rows at x and x+dx with the rows at w, w+dw, w+2dw and w+3dw, n
// values each; n must be a positive multiple of 8. Strides count float32
// values.
//
//go:noescape
func mul2x4FMA(x *float32, dx int, w *float32, dw int, n int, out *float32, ldo int)

func setFMA(on bool) { useFMA = on }

// expShiftedAVX2 replaces x[i] by e^((x[i]-sub)·scale) for n values, a
// positive multiple of 8, as Exp32 computes it (ties of the rounding to
// n·ln2 go to even there).
//
//go:noescape
func expShiftedAVX2(x *float32, n int, sub, scale float32)

// geluAVX2 replaces x[i] by GELU(x[i]) as gelu32 computes it, for n
// values, a positive multiple of 8.
//
//go:noescape
func geluAVX2(x *float32, n int)

// mul6x16FMA writes (acc 0) or adds (acc 1) to the 6×16 block at out
// (rows ldo values apart) the products of the six rows at x (ldx values
// apart), k values each (k positive), with the packed block at w (16
// values for each k).
//
//go:noescape
func mul6x16FMA(x *float32, ldx int, w *float32, k int, out *float32, ldo int, acc int)
