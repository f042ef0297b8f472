// Package kernel holds the inner loops of package bert: the matrix
// products out = x·wᵀ, the softmax and GELU. A linear layer's weight is
// packed once at load (Pack) and multiplied by MulPacked, which keeps a
// 6×16 block of the output in registers; the attention's products of
// activations by activations (scores, and scores by values) go through
// MulT, dot products of rows in 2×4 blocks. On amd64 with AVX2 and FMA
// (detected once, at start-up) the blocks, the softmax's exp and GELU run
// in assembly; everywhere else, and with -tags purego, portable Go loops
// of the same shapes run.
//
// The two paths add the products in different orders and round
// differently (fused multiply-adds), so their results may differ in the
// last bits; which one runs is fixed for the process.
package kernel

// MulT writes to out[r*ldo+c] the dot product of row r of x (n values at
// x[r*ldx:]) with row c of w (n values at w[c*ldw:]) for r < rows and
// c < cols: out = x·wᵀ for row-major x and w, with row strides ldx, ldw
// and ldo. The slices must hold every row they are asked for.
func MulT(out []float32, ldo int, x []float32, ldx int, w []float32, ldw int, rows, cols, n int) {
	if rows <= 0 || cols <= 0 {
		return
	}
	if n <= 0 {
		for r := range rows {
			clear(out[r*ldo : r*ldo+cols])
		}
		return
	}
	// Bounds, once, so that the kernels may index freely.
	_ = x[(rows-1)*ldx+n-1]
	_ = w[(cols-1)*ldw+n-1]
	_ = out[(rows-1)*ldo+cols-1]
	// Columns in panels of colPanel rows of w, which stay in cache while
	// every row of x passes them.
	for c0 := 0; c0 < cols; c0 += colPanel {
		mulPanel(out, ldo, x, ldx, w, ldw, rows, c0, min(c0+colPanel, cols), n)
	}
}

// colPanel is how many rows of w one pass over x takes: 64 rows of 1536
// values (96 KiB) stay in a core's L2 cache.
const colPanel = 64

// mulPanel is MulT for columns c0 to c1.
func mulPanel(out []float32, ldo int, x []float32, ldx int, w []float32, ldw int, rows, c0, c1, n int) {
	var scratch [8]float32
	n8 := n &^ 7
	for r := 0; r < rows; r += 2 {
		xs, dx := r*ldx, ldx
		if r+1 == rows {
			dx = 0 // the last odd row twice, one copy kept
		}
		for c := c0; c < c1; c += 4 {
			ws, dw := c*ldw, ldw
			if c+4 > c1 {
				dw = 0 // the last columns one at a time below
			}
			if dw == 0 || dx == 0 {
				for cc := c; cc < min(c+4, c1); cc++ {
					block(scratch[:], 4, x[xs:], dx, w[cc*ldw:], 0, n, n8)
					out[r*ldo+cc] = scratch[0]
					if dx != 0 {
						out[(r+1)*ldo+cc] = scratch[4]
					}
				}
				continue
			}
			block(out[r*ldo+c:], ldo, x[xs:], dx, w[ws:], dw, n, n8)
		}
	}
}

// block writes the 2×4 block of dot products of rows x, x+dx with rows w,
// w+dw, w+2dw, w+3dw to out and out[ldo:], n values each (n8 of them a
// multiple of 8).
func block(out []float32, ldo int, x []float32, dx int, w []float32, dw int, n, n8 int) {
	if n8 > 0 && useFMA {
		mul2x4FMA(&x[0], dx, &w[0], dw, n8, &out[0], ldo)
	} else {
		mul2x4Go(out, ldo, x, dx, w, dw, n8)
	}
	if n8 == n {
		return
	}
	// The last n%8 products, one by one.
	for i := range 2 {
		xr := x[i*dx+n8 : i*dx+n]
		for j := range 4 {
			wr := w[j*dw+n8 : j*dw+n]
			s := out[i*ldo+j]
			for k := range xr {
				s += xr[k] * wr[k]
			}
			out[i*ldo+j] = s
		}
	}
}

// mul2x4Go is the portable block: eight dot products of n8 values (zero
// or a multiple of 8), a running sum each.
func mul2x4Go(out []float32, ldo int, x []float32, dx int, w []float32, dw int, n8 int) {
	x0, x1 := x[:n8], x[dx:dx+n8]
	w0, w1, w2, w3 := w[:n8], w[dw:dw+n8], w[2*dw:2*dw+n8], w[3*dw:3*dw+n8]
	var s00, s01, s02, s03, s10, s11, s12, s13 float32
	for k := range x0 {
		a, b := x0[k], x1[k]
		s00 += a * w0[k]
		s01 += a * w1[k]
		s02 += a * w2[k]
		s03 += a * w3[k]
		s10 += b * w0[k]
		s11 += b * w1[k]
		s12 += b * w2[k]
		s13 += b * w3[k]
	}
	out[0], out[1], out[2], out[3] = s00, s01, s02, s03
	out[ldo], out[ldo+1], out[ldo+2], out[ldo+3] = s10, s11, s12, s13
}
