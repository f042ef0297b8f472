package bert

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ragkit/ragkit/bert/internal/kernel"
)

// weights are the model's parameters in float32, matrices row-major in
// PyTorch's layout (out × in), so that a linear layer is x·wᵀ.
type weights struct {
	word, pos, typ []float32 // embeddings: vocab, positions, types × hidden
	embLN          layerNorm
	layers         []layer
	// The classification head (BertForSequenceClassification), or nil.
	pooler, classifier *linear
}

type layer struct {
	qkv     linear // query, key and value stacked: 3·hidden × hidden
	out     linear
	attnLN  layerNorm
	inter   linear
	output  linear
	layerLN layerNorm
}

// linear is a linear layer: its weight packed for the kernel (out rows
// of in values), its bias.
type linear struct {
	p       *kernel.Packed
	b       []float32
	in, out int
}

type layerNorm struct{ g, b []float32 }

// tensorSet finds tensors by name across the files of one model, with or
// without the "bert." prefix that the task architectures put on the
// encoder's weights, and LayerNorm's old gamma and beta names.
type tensorSet struct {
	t map[string]tensor
}

func (s tensorSet) get(name string, shape ...int) ([]float32, error) {
	names := []string{name, "bert." + name}
	switch n := len(name); {
	case n > 7 && name[n-7:] == ".weight" && containsLN(name):
		names = append(names, name[:n-7]+".gamma", "bert."+name[:n-7]+".gamma")
	case n > 5 && name[n-5:] == ".bias" && containsLN(name):
		names = append(names, name[:n-5]+".beta", "bert."+name[:n-5]+".beta")
	}
	for _, nm := range names {
		if t, ok := s.t[nm]; ok {
			return t.floats(nm, shape...)
		}
	}
	return nil, fmt.Errorf("%w: no tensor %q in the weights", ErrFormat, name)
}

func containsLN(name string) bool { return strings.Contains(name, "LayerNorm") }

func (s tensorSet) linear(name string, out, in int) (linear, error) {
	w, err := s.get(name+".weight", out, in)
	if err != nil {
		return linear{}, err
	}
	b, err := s.get(name+".bias", out)
	if err != nil {
		return linear{}, err
	}
	return linear{p: kernel.Pack(w, out, in), b: b, in: in, out: out}, nil
}

func (s tensorSet) layerNorm(name string, n int) (layerNorm, error) {
	g, err := s.get(name+".weight", n)
	if err != nil {
		return layerNorm{}, err
	}
	b, err := s.get(name+".bias", n)
	return layerNorm{g: g, b: b}, err
}

// readWeights reads and converts the model's tensors from the
// safetensors files at paths, releasing each file when done.
func readWeights(c *config, paths []string) (*weights, error) {
	set := tensorSet{t: make(map[string]tensor)}
	for _, p := range paths {
		st, err := openSafetensors(p)
		if err != nil {
			return nil, err
		}
		defer st.release()
		for k, v := range st.tensors {
			set.t[k] = v
		}
	}
	h := c.Hidden
	w := &weights{}
	var err error
	if w.word, err = set.get("embeddings.word_embeddings.weight", c.Vocab, h); err != nil {
		return nil, err
	}
	if w.pos, err = set.get("embeddings.position_embeddings.weight", c.Positions, h); err != nil {
		return nil, err
	}
	if w.typ, err = set.get("embeddings.token_type_embeddings.weight", c.TypeVocab, h); err != nil {
		return nil, err
	}
	if w.embLN, err = set.layerNorm("embeddings.LayerNorm", h); err != nil {
		return nil, err
	}
	w.layers = make([]layer, c.Layers)
	for i := range w.layers {
		if w.layers[i], err = readLayer(set, c, "encoder.layer."+strconv.Itoa(i)+"."); err != nil {
			return nil, err
		}
	}
	if c.classifier {
		p, err := set.linear("pooler.dense", h, h)
		if err != nil {
			return nil, err
		}
		cl, err := set.linear("classifier", c.labels, h)
		if err != nil {
			return nil, err
		}
		w.pooler, w.classifier = &p, &cl
	}
	return w, nil
}

func readLayer(set tensorSet, c *config, pre string) (layer, error) {
	h := c.Hidden
	var l layer
	// Query, key and value stacked, packed as one matrix: one product.
	var w, b []float32
	for _, name := range []string{"query", "key", "value"} {
		wk, err := set.get(pre+"attention.self."+name+".weight", h, h)
		if err != nil {
			return l, err
		}
		bk, err := set.get(pre+"attention.self."+name+".bias", h)
		if err != nil {
			return l, err
		}
		w, b = append(w, wk...), append(b, bk...)
	}
	l.qkv = linear{p: kernel.Pack(w, 3*h, h), b: b, in: h, out: 3 * h}
	var err error
	if l.out, err = set.linear(pre+"attention.output.dense", h, h); err != nil {
		return l, err
	}
	if l.attnLN, err = set.layerNorm(pre+"attention.output.LayerNorm", h); err != nil {
		return l, err
	}
	if l.inter, err = set.linear(pre+"intermediate.dense", c.Intermediate, h); err != nil {
		return l, err
	}
	if l.output, err = set.linear(pre+"output.dense", h, c.Intermediate); err != nil {
		return l, err
	}
	l.layerLN, err = set.layerNorm(pre+"output.LayerNorm", h)
	return l, err
}
