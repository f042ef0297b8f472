package bert

import (
	"math"
	"sync"

	"github.com/ragkit/ragkit/bert/internal/kernel"
)

// seq is one input: token ids and type ids, special tokens included.
type seq struct {
	ids, types []int32
}

// forward runs the encoder over the sequences of one batch, their tokens
// stacked as the rows of one matrix (no padding: the linear layers treat
// rows alone, and attention runs per sequence), on par goroutines. It
// returns the last hidden states, hidden values a token, and where each
// sequence's rows start.
func (m *Model) forward(seqs []seq, par int) (hs []float32, starts []int) {
	c, w := m.cfg, m.w
	H := c.Hidden
	starts = make([]int, len(seqs)+1)
	maxL := 0
	for i, s := range seqs {
		starts[i+1] = starts[i] + len(s.ids)
		maxL = max(maxL, len(s.ids))
	}
	T := starts[len(seqs)]
	h := make([]float32, T*H)
	for i, s := range seqs {
		for j, id := range s.ids {
			row := h[(starts[i]+j)*H : (starts[i]+j+1)*H]
			we := w.word[int(id)*H:]
			pe := w.pos[j*H:]
			te := w.typ[int(s.types[j])*H:]
			for k := range row {
				row[k] = we[k] + pe[k] + te[k]
			}
		}
	}
	layerNormRows(h, nil, w.embLN, H, c.Eps)
	qkv := make([]float32, T*3*H)
	ctx := make([]float32, T*H)
	tmp := make([]float32, T*H)
	inter := make([]float32, T*c.Intermediate)
	heads := newHeadScratch(par, maxL, H/c.Heads)
	for _, l := range w.layers {
		apply(qkv, h, T, l.qkv, par)
		m.attention(ctx, qkv, starts, heads)
		apply(tmp, ctx, T, l.out, par)
		layerNormRows(h, tmp, l.attnLN, H, c.Eps)
		apply(inter, h, T, l.inter, par)
		activate(inter, c.Act)
		apply(tmp, inter, T, l.output, par)
		layerNormRows(h, tmp, l.layerLN, H, c.Eps)
	}
	return h, starts
}

// apply writes x·wᵀ + b for the rows of x to out, splitting the output
// columns over par goroutines.
func apply(out, x []float32, rows int, l linear, par int) {
	nb := l.p.Blocks()
	chunk := (nb + par - 1) / par
	if par <= 1 || chunk >= nb {
		kernel.MulPacked(out, l.out, x, l.in, rows, l.p, 0, nb)
	} else {
		var wg sync.WaitGroup
		for b0 := 0; b0 < nb; b0 += chunk {
			wg.Add(1)
			go func() {
				defer wg.Done()
				kernel.MulPacked(out, l.out, x, l.in, rows, l.p, b0, min(b0+chunk, nb))
			}()
		}
		wg.Wait()
	}
	for r := range rows {
		row := out[r*l.out : (r+1)*l.out]
		for k, b := range l.b {
			row[k] += b
		}
	}
}

// headScratch is one goroutine's buffers for attention: the scores of one
// head of one sequence and its values transposed.
type headScratch struct {
	scores, vT []float32
}

func newHeadScratch(par, maxL, dh int) []headScratch {
	hs := make([]headScratch, max(1, par))
	for i := range hs {
		hs[i] = headScratch{scores: make([]float32, maxL*maxL), vT: make([]float32, dh*maxL)}
	}
	return hs
}

// attention writes to ctx the attention of every head of every sequence,
// from the stacked queries, keys and values in qkv, heads split over the
// goroutines that scratch has buffers for.
func (m *Model) attention(ctx, qkv []float32, starts []int, scratch []headScratch) {
	nh := m.cfg.Heads
	jobs := (len(starts) - 1) * nh
	if len(scratch) == 1 {
		for j := range jobs {
			m.head(ctx, qkv, starts, j/nh, j%nh, scratch[0])
		}
		return
	}
	var wg sync.WaitGroup
	for g := range scratch {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := g; j < jobs; j += len(scratch) {
				m.head(ctx, qkv, starts, j/nh, j%nh, scratch[g])
			}
		}()
	}
	wg.Wait()
}

// head is softmax(q·kᵀ/√d)·v for head hd of sequence s.
func (m *Model) head(ctx, qkv []float32, starts []int, s, hd int, sc headScratch) {
	H := m.cfg.Hidden
	dh := H / m.cfg.Heads
	st, L := starts[s], starts[s+1]-starts[s]
	base := st*3*H + hd*dh
	q, k, v := qkv[base:], qkv[base+H:], qkv[base+2*H:]
	scores := sc.scores[:L*L]
	kernel.MulT(scores, L, q, 3*H, k, 3*H, L, L, dh)
	scale := float32(1 / math.Sqrt(float64(dh)))
	for i := range L {
		kernel.Softmax(scores[i*L:(i+1)*L], scale)
	}
	vT := sc.vT[:dh*L]
	for j := range L {
		row := v[j*3*H : j*3*H+dh]
		for d, x := range row {
			vT[d*L+j] = x
		}
	}
	kernel.MulT(ctx[st*H+hd*dh:], H, scores, L, vT, L, L, dh, L)
}

// layerNormRows replaces each row of h (n values) by the layer norm of
// h + add (add may be nil).
func layerNormRows(h, add []float32, ln layerNorm, n int, eps float64) {
	for r := 0; r < len(h); r += n {
		row := h[r : r+n]
		if add != nil {
			for k, x := range add[r : r+n] {
				row[k] += x
			}
		}
		var mean float64
		for _, x := range row {
			mean += float64(x)
		}
		mean /= float64(n)
		var vr float64
		for _, x := range row {
			d := float64(x) - mean
			vr += d * d
		}
		inv := 1 / math.Sqrt(vr/float64(n)+eps)
		for k, x := range row {
			row[k] = float32((float64(x)-mean)*inv)*ln.g[k] + ln.b[k]
		}
	}
}

// activate applies the hidden activation to every value of x.
func activate(x []float32, act string) {
	switch act {
	case "gelu":
		kernel.GELU(x)
	case "gelu_new", "gelu_pytorch_tanh":
		const c = 0.7978845608028654 // √(2/π)
		for i, v := range x {
			f := float64(v)
			x[i] = float32(0.5 * f * (1 + math.Tanh(c*(f+0.044715*f*f*f))))
		}
	case "relu":
		for i, v := range x {
			x[i] = max(v, 0)
		}
	}
}
