//go:build !amd64 || purego

package kernel

const useAVX2 = false

func dotInt8AVX2(a, b *int8, n int) int32 { panic("kernel: no AVX2") }
