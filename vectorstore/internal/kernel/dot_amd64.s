//go:build amd64 && !purego

#include "textflag.h"

// func cpuid(eax, ecx uint32) (a, b, c, d uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eax+0(FP), AX
	MOVL ecx+4(FP), CX
	CPUID
	MOVL AX, a+8(FP)
	MOVL BX, b+12(FP)
	MOVL CX, c+16(FP)
	MOVL DX, d+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET

// func dotFMA(a, b *float32, n int) float32
// Four accumulators of eight lanes take 32 components per iteration with
// VFMADD231PS, enough to cover the latency of an FMA at the rate of two
// loads per cycle. Pointers advance by a plain ADDQ, so the only chains
// carried from one iteration to the next are one cycle long (the pointers
// and the count) or are the accumulators themselves. After the 32-wide
// loop, up to three groups of eight go into the first accumulator; the
// accumulators are then added pairwise ((0+1)+(2+3)), the lanes of the
// sum pairwise (lane i + lane i+4, then i + i+2, then i + i+1), and the
// last n%8 components one by one, each with a fused multiply-add.
TEXT ·dotFMA(SB), NOSPLIT, $0-28
	MOVQ   a+0(FP), SI
	MOVQ   b+8(FP), DI
	MOVQ   n+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	CMPQ   CX, $32
	JB     fma8

fma32:
	VMOVUPS     (SI), Y4
	VMOVUPS     32(SI), Y5
	VMOVUPS     64(SI), Y6
	VMOVUPS     96(SI), Y7
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	VFMADD231PS 64(DI), Y6, Y2
	VFMADD231PS 96(DI), Y7, Y3
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $32, CX
	CMPQ        CX, $32
	JAE         fma32

fma8:
	CMPQ        CX, $8
	JB          fmasum
	VMOVUPS     (SI), Y4
	VFMADD231PS (DI), Y4, Y0
	ADDQ        $32, SI
	ADDQ        $32, DI
	SUBQ        $8, CX
	JMP         fma8

fmasum:
	VADDPS       Y1, Y0, Y0
	VADDPS       Y3, Y2, Y2
	VADDPS       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VPERMILPS    $0x4E, X0, X1
	VADDPS       X1, X0, X0
	VPERMILPS    $0xB1, X0, X1
	VADDSS       X1, X0, X0

fma1:
	TESTQ       CX, CX
	JZ          fmadone
	VMOVSS      (SI), X1
	VFMADD231SS (DI), X1, X0
	ADDQ        $4, SI
	ADDQ        $4, DI
	DECQ        CX
	JMP         fma1

fmadone:
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// SUMINT32 adds up the int32 lanes of Y4 to Y7 into the low lane of X4.
#define SUMINT32 \
	VPADDD       Y4, Y5, Y4 \
	VPADDD       Y6, Y7, Y6 \
	VPADDD       Y4, Y6, Y4 \
	VEXTRACTI128 $1, Y4, X5 \
	VPADDD       X4, X5, X4 \
	VPSHUFD      $0x4E, X4, X5 \
	VPADDD       X4, X5, X4 \
	VPSHUFD      $0xB1, X4, X5 \
	VPADDD       X4, X5, X4

// func dotInt8AVX2(a, b *int8, n int) int32
// Sign-extends 16 bytes at a time to int16 and multiplies pairwise with
// VPMADDWD, which adds neighbouring products into int32 lanes. Four
// accumulators, 64 bytes per iteration.
TEXT ·dotInt8AVX2(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7

loop64:
	CMPQ CX, $64
	JB   done
	VPMOVSXBW (SI), Y0
	VPMOVSXBW (DI), Y1
	VPMADDWD  Y0, Y1, Y0
	VPADDD    Y0, Y4, Y4
	VPMOVSXBW 16(SI), Y2
	VPMOVSXBW 16(DI), Y3
	VPMADDWD  Y2, Y3, Y2
	VPADDD    Y2, Y5, Y5
	VPMOVSXBW 32(SI), Y0
	VPMOVSXBW 32(DI), Y1
	VPMADDWD  Y0, Y1, Y0
	VPADDD    Y0, Y6, Y6
	VPMOVSXBW 48(SI), Y2
	VPMOVSXBW 48(DI), Y3
	VPMADDWD  Y2, Y3, Y2
	VPADDD    Y2, Y7, Y7
	ADDQ      $64, SI
	ADDQ      $64, DI
	SUBQ      $64, CX
	JMP       loop64

done:
	SUMINT32
	MOVL         X4, AX
	VZEROUPPER
	MOVL         AX, ret+24(FP)
	RET

// refineShifts holds, for lane j of eight, the shift that brings the 2-bit
// refinement code of component j of a group of eight to the bottom of the
// 16 bits (two residual bytes) broadcast to every lane.
DATA refineShifts<>+0(SB)/4, $0
DATA refineShifts<>+4(SB)/4, $2
DATA refineShifts<>+8(SB)/4, $4
DATA refineShifts<>+12(SB)/4, $6
DATA refineShifts<>+16(SB)/4, $8
DATA refineShifts<>+20(SB)/4, $10
DATA refineShifts<>+24(SB)/4, $12
DATA refineShifts<>+28(SB)/4, $14
GLOBL refineShifts<>(SB), RODATA|NOPTR, $32

// REFINED8 leaves in Y(dst), as float32, 8*code + 2*refinement - 3 (eight
// times the refined value, an exact integer) for the eight components whose
// codes are at off(SI) and whose refinement codes are the two bytes at
// off/4(DI). Y14 holds refineShifts, Y15 holds 3 in every lane; Y(tmp) is
// clobbered.
#define REFINED8(off, dst, tmp) \
	VPMOVSXBD    off(SI), dst \
	VPBROADCASTW off/4(DI), tmp \
	VPSRLVD      Y14, tmp, tmp \
	VPAND        Y15, tmp, tmp \
	VPSLLD       $3, dst, dst \
	VPADDD       tmp, tmp, tmp \
	VPADDD       tmp, dst, dst \
	VPSUBD       Y15, dst, dst \
	VCVTDQ2PS    dst, dst

#define REFINE_CONSTANTS \
	VMOVDQU   refineShifts<>(SB), Y14 \
	VPCMPEQD  Y15, Y15, Y15 \
	VPSRLD    $30, Y15, Y15

// func dotRefinedAVX2(q *float32, codes *int8, resid *byte, n int) float32
// Returns the sum over n components (a positive multiple of 8) of
// q[i] * (8*codes[i] + 2*r[i] - 3), r[i] being the 2-bit code i of resid.
TEXT ·dotRefinedAVX2(SB), NOSPLIT, $0-36
	MOVQ q+0(FP), AX
	MOVQ codes+8(FP), SI
	MOVQ resid+16(FP), DI
	MOVQ n+24(FP), CX
	REFINE_CONSTANTS
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7

refined32:
	CMPQ CX, $32
	JB   refined8
	REFINED8(0, Y0, Y8)
	REFINED8(8, Y1, Y9)
	REFINED8(16, Y2, Y10)
	REFINED8(24, Y3, Y11)
	VMULPS (AX), Y0, Y0
	VMULPS 32(AX), Y1, Y1
	VMULPS 64(AX), Y2, Y2
	VMULPS 96(AX), Y3, Y3
	VADDPS Y0, Y4, Y4
	VADDPS Y1, Y5, Y5
	VADDPS Y2, Y6, Y6
	VADDPS Y3, Y7, Y7
	ADDQ   $128, AX
	ADDQ   $32, SI
	ADDQ   $8, DI
	SUBQ   $32, CX
	JMP    refined32

refined8:
	CMPQ CX, $8
	JB   refinedsum
	REFINED8(0, Y0, Y8)
	VMULPS (AX), Y0, Y0
	VADDPS Y0, Y4, Y4
	ADDQ   $32, AX
	ADDQ   $8, SI
	ADDQ   $2, DI
	SUBQ   $8, CX
	JMP    refined8

refinedsum:
	VADDPS       Y5, Y4, Y4
	VADDPS       Y7, Y6, Y6
	VADDPS       Y6, Y4, Y4
	VEXTRACTF128 $1, Y4, X5
	VADDPS       X5, X4, X4
	VPSHUFD      $0x4E, X4, X5
	VADDPS       X5, X4, X4
	VPSHUFD      $0xB1, X4, X5
	VADDPS       X5, X4, X4
	VZEROUPPER
	MOVSS        X4, ret+32(FP)
	RET

// func reconstructAVX2(dst *float32, codes *int8, resid *byte, n int, scale8 float32)
// Writes (8*codes[i] + 2*r[i] - 3) * scale8 to dst[i] for n components (a
// positive multiple of 8).
TEXT ·reconstructAVX2(SB), NOSPLIT, $0-36
	MOVQ         dst+0(FP), AX
	MOVQ         codes+8(FP), SI
	MOVQ         resid+16(FP), DI
	MOVQ         n+24(FP), CX
	VBROADCASTSS scale8+32(FP), Y13
	REFINE_CONSTANTS

reconstruct8:
	CMPQ CX, $8
	JB   reconstructed
	REFINED8(0, Y0, Y1)
	VMULPS  Y13, Y0, Y0
	VMOVUPS Y0, (AX)
	ADDQ    $32, AX
	ADDQ    $8, SI
	ADDQ    $2, DI
	SUBQ    $8, CX
	JMP     reconstruct8

reconstructed:
	VZEROUPPER
	RET

// func dotInt8ManyAVX2(q *int16, codes *int8, dim, n int, out *int32)
// Writes to out[i] the dot product of the query q, already widened to
// int16, with the n int8 vectors of dim components (a positive multiple of
// 64) at codes. Each vector's codes are widened with VPMOVSXBW and
// multiplied pairwise with VPMADDWD, which adds neighbouring products into
// int32 lanes; the query stays in L1 across vectors.
TEXT ·dotInt8ManyAVX2(SB), NOSPLIT, $0-40
	MOVQ q+0(FP), AX
	MOVQ codes+8(FP), SI
	MOVQ dim+16(FP), DX
	MOVQ n+24(FP), BX
	MOVQ out+32(FP), R8

manyvec:
	TESTQ BX, BX
	JZ    manydone
	MOVQ  AX, DI
	MOVQ  DX, CX
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7

many64:
	VPMOVSXBW (SI), Y0
	VPMADDWD  (DI), Y0, Y0
	VPADDD    Y0, Y4, Y4
	VPMOVSXBW 16(SI), Y1
	VPMADDWD  32(DI), Y1, Y1
	VPADDD    Y1, Y5, Y5
	VPMOVSXBW 32(SI), Y2
	VPMADDWD  64(DI), Y2, Y2
	VPADDD    Y2, Y6, Y6
	VPMOVSXBW 48(SI), Y3
	VPMADDWD  96(DI), Y3, Y3
	VPADDD    Y3, Y7, Y7
	ADDQ      $64, SI
	ADDQ      $128, DI
	SUBQ      $64, CX
	JNZ       many64

	SUMINT32
	MOVSS        X4, (R8)
	ADDQ         $4, R8
	DECQ         BX
	JMP          manyvec

manydone:
	VZEROUPPER
	RET
