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
	VPADDD       Y4, Y5, Y4
	VPADDD       Y6, Y7, Y6
	VPADDD       Y4, Y6, Y4
	VEXTRACTI128 $1, Y4, X5
	VPADDD       X4, X5, X4
	VPSHUFD      $0x4E, X4, X5
	VPADDD       X4, X5, X4
	VPSHUFD      $0xB1, X4, X5
	VPADDD       X4, X5, X4
	MOVL         X4, AX
	VZEROUPPER
	MOVL         AX, ret+24(FP)
	RET
