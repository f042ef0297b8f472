package kernel

// Packed is a matrix w (Out rows of In values, row-major, PyTorch's
// layout of a linear layer's weight) laid out for MulPacked: blocks of 16
// rows of w, each stored column by column (16 values for each of the In
// columns), the last block padded with zeros. Packing once at load lets
// the kernel read w as a stream of whole vector registers.
type Packed struct {
	In, Out int
	data    []float32
}

// Blocks returns the number of blocks of 16 rows of w: the unit by which
// MulPacked's callers split the output columns.
func (p *Packed) Blocks() int { return (p.Out + 15) / 16 }

// Pack lays out w, out rows of in values, for MulPacked.
func Pack(w []float32, out, in int) *Packed {
	p := &Packed{In: in, Out: out}
	p.data = make([]float32, p.Blocks()*in*16)
	for r := range out {
		b, c := r/16, r%16
		row := w[r*in : (r+1)*in]
		blk := p.data[b*in*16:]
		for k, v := range row {
			blk[k*16+c] = v
		}
	}
	return p
}

// Blocking of MulPacked: kc values of the inner dimension at a time (a
// block of w, kc×16 values, 16 KiB, stays in L1) and mc rows of x (mc×kc
// values, 96 KiB, stay in L2).
const (
	kc = 256
	mc = 96
)

// MulPacked writes to out[r*ldo+c] the dot product of row r of x (p.In
// values at x[r*ldx:]) with row c of the packed matrix, for r < rows and
// the columns of blocks b0 to b1 (16 columns a block, the last one
// possibly fewer): x·wᵀ. On amd64 with AVX2 and FMA a 6×16 block of out
// is kept in twelve vector registers while x's values are broadcast
// against w's; elsewhere a Go loop of the same shape runs.
func MulPacked(out []float32, ldo int, x []float32, ldx int, rows int, p *Packed, b0, b1 int) {
	if rows <= 0 || b0 >= b1 {
		return
	}
	in := p.In
	if in == 0 {
		for r := range rows {
			clear(out[r*ldo+b0*16 : r*ldo+min(b1*16, p.Out)])
		}
		return
	}
	// Bounds, once, so that the kernels may index freely.
	_ = x[(rows-1)*ldx+in-1]
	_ = out[(rows-1)*ldo+min(b1*16, p.Out)-1]
	var xs [6 * kc]float32
	var os [6 * 16]float32
	for k0 := 0; k0 < in; k0 += kc {
		k, acc := min(kc, in-k0), k0 > 0
		for r0 := 0; r0 < rows; r0 += mc {
			r1 := min(r0+mc, rows)
			for b := b0; b < b1; b++ {
				wb := p.data[(b*in+k0)*16:]
				cols := min(16, p.Out-b*16)
				for r := r0; r < r1; r += 6 {
					nr := min(6, r1-r)
					if nr == 6 && cols == 16 {
						kernel6x16(x[r*ldx+k0:], ldx, wb, k, out[r*ldo+b*16:], ldo, acc)
						continue
					}
					// A block at the edge goes through buffers of a
					// whole block, rows of zeros below x's.
					xp, xl := x[r*ldx+k0:], ldx
					if nr < 6 {
						clear(xs[:])
						for i := range nr {
							copy(xs[i*kc:i*kc+k], x[(r+i)*ldx+k0:])
						}
						xp, xl = xs[:], kc
					}
					clear(os[:])
					if acc {
						for i := range nr {
							copy(os[i*16:i*16+cols], out[(r+i)*ldo+b*16:])
						}
					}
					kernel6x16(xp, xl, wb, k, os[:], 16, acc)
					for i := range nr {
						copy(out[(r+i)*ldo+b*16:(r+i)*ldo+b*16+cols], os[i*16:i*16+cols])
					}
				}
			}
		}
	}
}

// kernel6x16 writes (or, with acc, adds) to the 6×16 block of out the
// products of six rows of x, k values each, with a packed block of w.
func kernel6x16(x []float32, ldx int, w []float32, k int, out []float32, ldo int, acc bool) {
	if useFMA {
		a := 0
		if acc {
			a = 1
		}
		mul6x16FMA(&x[0], ldx, &w[0], k, &out[0], ldo, a)
		return
	}
	mul6x16Go(x, ldx, w, k, out, ldo, acc)
}

// mul6x16Go is the portable kernel: one running sum per output.
func mul6x16Go(x []float32, ldx int, w []float32, k int, out []float32, ldo int, acc bool) {
	var c [6][16]float32
	if acc {
		for i := range 6 {
			copy(c[i][:], out[i*ldo:i*ldo+16])
		}
	}
	for kk := range k {
		wr := (*[16]float32)(w[kk*16 : kk*16+16])
		for i := range 6 {
			a := x[i*ldx+kk]
			ci := &c[i]
			for j := range 16 {
				ci[j] += a * wr[j]
			}
		}
	}
	for i := range 6 {
		copy(out[i*ldo:i*ldo+16], c[i][:])
	}
}
