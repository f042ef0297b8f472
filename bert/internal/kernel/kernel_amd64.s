//go:build amd64 && !purego

#include "textflag.h"

// func mul2x4FMA(x *float32, dx int, w *float32, dw int, n int, out *float32, ldo int)
// Eight accumulators of eight lanes, one per output: each iteration loads
// eight values of the two rows of x once and of each row of w once, and
// does eight fused multiply-adds. The lanes are then added with three
// VHADDPS and one 128-bit add, giving the four sums of a row of the block
// in one register.
TEXT ·mul2x4FMA(SB), NOSPLIT, $0-56
	MOVQ x+0(FP), SI
	MOVQ dx+8(FP), R8
	SHLQ $2, R8
	MOVQ w+16(FP), DI
	MOVQ dw+24(FP), R9
	SHLQ $2, R9
	MOVQ n+32(FP), CX
	MOVQ out+40(FP), DX
	MOVQ ldo+48(FP), R10
	SHLQ $2, R10
	LEAQ (SI)(R8*1), R11
	LEAQ (DI)(R9*1), R12
	LEAQ (R12)(R9*1), R13
	LEAQ (R13)(R9*1), R14
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

loop:
	VMOVUPS     (SI), Y8
	VMOVUPS     (R11), Y9
	VMOVUPS     (DI), Y10
	VFMADD231PS Y8, Y10, Y0
	VFMADD231PS Y9, Y10, Y4
	VMOVUPS     (R12), Y11
	VFMADD231PS Y8, Y11, Y1
	VFMADD231PS Y9, Y11, Y5
	VMOVUPS     (R13), Y12
	VFMADD231PS Y8, Y12, Y2
	VFMADD231PS Y9, Y12, Y6
	VMOVUPS     (R14), Y13
	VFMADD231PS Y8, Y13, Y3
	VFMADD231PS Y9, Y13, Y7
	ADDQ        $32, SI
	ADDQ        $32, R11
	ADDQ        $32, DI
	ADDQ        $32, R12
	ADDQ        $32, R13
	ADDQ        $32, R14
	SUBQ        $8, CX
	JNZ         loop

	VHADDPS      Y1, Y0, Y0
	VHADDPS      Y3, Y2, Y2
	VHADDPS      Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VMOVUPS      X0, (DX)
	VHADDPS      Y5, Y4, Y4
	VHADDPS      Y7, Y6, Y6
	VHADDPS      Y6, Y4, Y4
	VEXTRACTF128 $1, Y4, X5
	VADDPS       X5, X4, X4
	VMOVUPS      X4, (DX)(R10*1)
	VZEROUPPER
	RET
