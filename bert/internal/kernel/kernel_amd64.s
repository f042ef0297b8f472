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

// Constants of the vector exp and GELU, each in eight lanes.
#define CONST8(name, bits) \
	DATA name<>+0(SB)/4, bits \
	DATA name<>+4(SB)/4, bits \
	DATA name<>+8(SB)/4, bits \
	DATA name<>+12(SB)/4, bits \
	DATA name<>+16(SB)/4, bits \
	DATA name<>+20(SB)/4, bits \
	DATA name<>+24(SB)/4, bits \
	DATA name<>+28(SB)/4, bits \
	GLOBL name<>(SB), RODATA|NOPTR, $32

CONST8(expLow, $0xc2ae0000)   // -87
CONST8(expLog2e, $0x3fb8aa3b) // log2(e)
CONST8(expLn2hi, $0x3f318000) // 0.693359375
CONST8(expLn2lo, $0xb95e8083) // -2.12194440e-4
CONST8(expC6, $0x3ab60b61)    // 1/720
CONST8(expC5, $0x3c088889)    // 1/120
CONST8(expC4, $0x3d2aaaab)    // 1/24
CONST8(expC3, $0x3e2aaaab)    // 1/6
CONST8(expHalf, $0x3f000000)  // 1/2
CONST8(expOne, $0x3f800000)   // 1
CONST8(expBias, $127)
CONST8(geluRsqrt2, $0x3f3504f3) // 1/√2
CONST8(geluAbs, $0x7fffffff)
CONST8(geluSign, $0x80000000)
CONST8(geluP, $0x3ea7ba05)  // 0.3275911
CONST8(geluA1, $0x3e827906) // 0.254829592
CONST8(geluA2, $0xbe91a98e) // -0.284496736
CONST8(geluA3, $0x3fb5f0e3) // 1.421413741
CONST8(geluA4, $0xbfba00e3) // -1.453152027
CONST8(geluA5, $0x3f87dc22) // 1.061405429

// EXP8 replaces Y(y), x ≤ 88 in each lane, by e^x as Exp32 computes it
// (a degree-6 polynomial after x = n·ln2 + r), clamped below at e^-87;
// Y(n) and Y(p) are clobbered.
#define EXP8(y, n, p) \
	VMAXPS       expLow<>(SB), y, y \
	VMULPS       expLog2e<>(SB), y, n \
	VROUNDPS     $0, n, n \
	VFNMADD231PS expLn2hi<>(SB), n, y \
	VFNMADD231PS expLn2lo<>(SB), n, y \
	VMOVUPS      expC6<>(SB), p \
	VFMADD213PS  expC5<>(SB), y, p \
	VFMADD213PS  expC4<>(SB), y, p \
	VFMADD213PS  expC3<>(SB), y, p \
	VFMADD213PS  expHalf<>(SB), y, p \
	VFMADD213PS  expOne<>(SB), y, p \
	VFMADD213PS  expOne<>(SB), y, p \
	VCVTPS2DQ    n, n \
	VPADDD       expBias<>(SB), n, n \
	VPSLLD       $23, n, n \
	VMULPS       n, p, y

// func expShiftedAVX2(x *float32, n int, sub, scale float32)
// Replaces x[i] by e^((x[i]-sub)·scale) for n values, a positive multiple
// of 8; (x[i]-sub)·scale must not be above 88.
TEXT ·expShiftedAVX2(SB), NOSPLIT, $0-24
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSS sub+16(FP), Y14
	VBROADCASTSS scale+20(FP), Y15

exploop:
	VMOVUPS (SI), Y0
	VSUBPS  Y14, Y0, Y0
	VMULPS  Y15, Y0, Y0
	EXP8(Y0, Y1, Y2)
	VMOVUPS Y0, (SI)
	ADDQ    $32, SI
	SUBQ    $8, CX
	JNZ     exploop
	VZEROUPPER
	RET

// func geluAVX2(x *float32, n int)
// Replaces x[i] by GELU(x[i]) as gelu32 computes it, for n values, a
// positive multiple of 8.
TEXT ·geluAVX2(SB), NOSPLIT, $0-16
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX

geluloop:
	VMOVUPS     (SI), Y0                // x
	VMULPS      geluRsqrt2<>(SB), Y0, Y1 // z
	VANDPS      geluAbs<>(SB), Y1, Y2   // a = |z|
	VANDPS      geluSign<>(SB), Y1, Y7  // the sign of z
	VMOVUPS     geluP<>(SB), Y3
	VFMADD213PS expOne<>(SB), Y2, Y3    // 1 + p·a
	VMOVUPS     expOne<>(SB), Y4
	VDIVPS      Y3, Y4, Y4              // t
	VMOVUPS     geluA5<>(SB), Y5
	VFMADD213PS geluA4<>(SB), Y4, Y5
	VFMADD213PS geluA3<>(SB), Y4, Y5
	VFMADD213PS geluA2<>(SB), Y4, Y5
	VFMADD213PS geluA1<>(SB), Y4, Y5
	VMULPS      Y4, Y5, Y5              // the polynomial in t
	VMULPS      Y2, Y2, Y6
	VXORPS      geluSign<>(SB), Y6, Y6  // -a²
	EXP8(Y6, Y8, Y9)
	VFNMADD213PS expOne<>(SB), Y6, Y5   // erf(a) = 1 - poly·e^(-a²)
	VXORPS      Y7, Y5, Y5              // erf(z)
	VADDPS      expOne<>(SB), Y5, Y5
	VMULPS      Y0, Y5, Y5
	VMULPS      expHalf<>(SB), Y5, Y5
	VMOVUPS     Y5, (SI)
	ADDQ        $32, SI
	SUBQ        $8, CX
	JNZ         geluloop
	VZEROUPPER
	RET

// func mul6x16FMA(x *float32, ldx int, w *float32, k int, out *float32, ldo int, acc int)
// Twelve accumulators hold a 6×16 block of out (two registers a row);
// each step loads 16 values of the packed w (two registers), broadcasts
// one value of each of the six rows of x and does twelve fused
// multiply-adds: no horizontal sums, and w is read as a stream.
TEXT ·mul6x16FMA(SB), NOSPLIT, $0-56
	MOVQ x+0(FP), SI
	MOVQ ldx+8(FP), R8
	SHLQ $2, R8
	MOVQ w+16(FP), DI
	MOVQ k+24(FP), CX
	MOVQ out+32(FP), DX
	MOVQ ldo+40(FP), R9
	SHLQ $2, R9
	MOVQ acc+48(FP), AX
	LEAQ (SI)(R8*1), R10
	LEAQ (R10)(R8*1), R11
	LEAQ (R11)(R8*1), R12
	LEAQ (R12)(R8*1), R13
	LEAQ (R13)(R8*1), R14
	TESTQ AX, AX
	JNZ  load6x16
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	JMP  loop6x16

load6x16:
	MOVQ DX, BX
	VMOVUPS (BX), Y0
	VMOVUPS 32(BX), Y1
	ADDQ R9, BX
	VMOVUPS (BX), Y2
	VMOVUPS 32(BX), Y3
	ADDQ R9, BX
	VMOVUPS (BX), Y4
	VMOVUPS 32(BX), Y5
	ADDQ R9, BX
	VMOVUPS (BX), Y6
	VMOVUPS 32(BX), Y7
	ADDQ R9, BX
	VMOVUPS (BX), Y8
	VMOVUPS 32(BX), Y9
	ADDQ R9, BX
	VMOVUPS (BX), Y10
	VMOVUPS 32(BX), Y11

loop6x16:
	VMOVUPS (DI), Y12
	VMOVUPS 32(DI), Y13
	VBROADCASTSS (SI), Y14
	VFMADD231PS Y12, Y14, Y0
	VFMADD231PS Y13, Y14, Y1
	VBROADCASTSS (R10), Y15
	VFMADD231PS Y12, Y15, Y2
	VFMADD231PS Y13, Y15, Y3
	VBROADCASTSS (R11), Y14
	VFMADD231PS Y12, Y14, Y4
	VFMADD231PS Y13, Y14, Y5
	VBROADCASTSS (R12), Y15
	VFMADD231PS Y12, Y15, Y6
	VFMADD231PS Y13, Y15, Y7
	VBROADCASTSS (R13), Y14
	VFMADD231PS Y12, Y14, Y8
	VFMADD231PS Y13, Y14, Y9
	VBROADCASTSS (R14), Y15
	VFMADD231PS Y12, Y15, Y10
	VFMADD231PS Y13, Y15, Y11
	ADDQ $64, DI
	ADDQ $4, SI
	ADDQ $4, R10
	ADDQ $4, R11
	ADDQ $4, R12
	ADDQ $4, R13
	ADDQ $4, R14
	DECQ CX
	JNZ  loop6x16

	MOVQ DX, BX
	VMOVUPS Y0, (BX)
	VMOVUPS Y1, 32(BX)
	ADDQ R9, BX
	VMOVUPS Y2, (BX)
	VMOVUPS Y3, 32(BX)
	ADDQ R9, BX
	VMOVUPS Y4, (BX)
	VMOVUPS Y5, 32(BX)
	ADDQ R9, BX
	VMOVUPS Y6, (BX)
	VMOVUPS Y7, 32(BX)
	ADDQ R9, BX
	VMOVUPS Y8, (BX)
	VMOVUPS Y9, 32(BX)
	ADDQ R9, BX
	VMOVUPS Y10, (BX)
	VMOVUPS Y11, 32(BX)
	VZEROUPPER
	RET
