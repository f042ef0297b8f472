package bert

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
)

// Bounds on what a weights file may declare, checked before anything is
// allocated from it.
const (
	maxHeader  = 100 << 20 // bytes of a safetensors JSON header
	maxTensors = 1 << 16   // tensors in one file
	maxRank    = 8         // dimensions of one tensor
)

// tensor is one entry of a safetensors file: its dtype, shape and bytes
// (a view of the mapped or read file).
type tensor struct {
	dtype string
	shape []int
	data  []byte
}

// safetensors is an opened weights file: its tensors by name, and the
// mapping or buffer they point into.
type safetensors struct {
	tensors map[string]tensor
	release func() error
}

// openSafetensors maps (or, where mapping is not available, reads) the
// safetensors file at path and checks its header: an 8-byte
// little-endian length, a JSON object of that length naming each tensor's
// dtype, shape and byte range, then the raw tensors. Every size and range
// is checked against the file before use.
func openSafetensors(path string) (*safetensors, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("bert: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("bert: %w", err)
	}
	size := fi.Size()
	if size < 8 {
		return nil, fmt.Errorf("%w: %s: %d bytes, too short for a safetensors file", ErrFormat, path, size)
	}
	if size > math.MaxInt {
		return nil, fmt.Errorf("%w: %s: %d bytes, too large to map", ErrFormat, path, size)
	}
	data, release, err := mapFile(f, int(size))
	if err != nil {
		return nil, fmt.Errorf("bert: %s: %w", path, err)
	}
	st, err := parseSafetensors(data)
	if err != nil {
		release()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	st.release = release
	return st, nil
}

// parseSafetensors reads the header of data, a whole safetensors file,
// and returns its tensors as views of data.
func parseSafetensors(data []byte) (*safetensors, error) {
	if len(data) < 8 {
		return nil, fmt.Errorf("%w: %d bytes, too short for a safetensors file", ErrFormat, len(data))
	}
	n := binary.LittleEndian.Uint64(data)
	if n > maxHeader || n > uint64(len(data)-8) {
		return nil, fmt.Errorf("%w: header of %d bytes in a file of %d", ErrFormat, n, len(data))
	}
	header, body := data[8:8+n], data[8+n:]
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(header, &entries); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrFormat, err)
	}
	if len(entries) > maxTensors {
		return nil, fmt.Errorf("%w: %d tensors, more than %d", ErrFormat, len(entries), maxTensors)
	}
	st := &safetensors{tensors: make(map[string]tensor, len(entries))}
	type span struct {
		name       string
		start, end uint64
	}
	spans := make([]span, 0, len(entries))
	for name, raw := range entries {
		if name == "__metadata__" {
			continue
		}
		var e struct {
			Dtype   string   `json:"dtype"`
			Shape   []int64  `json:"shape"`
			Offsets []uint64 `json:"data_offsets"`
		}
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("%w: tensor %q: %v", ErrFormat, name, err)
		}
		width, ok := dtypeSize[e.Dtype]
		if !ok {
			width = 0 // a dtype not decoded here is allowed until a weight needs it
		}
		if len(e.Shape) > maxRank || len(e.Offsets) != 2 {
			return nil, fmt.Errorf("%w: tensor %q: shape %v, offsets %v", ErrFormat, name, e.Shape, e.Offsets)
		}
		count := uint64(1)
		shape := make([]int, len(e.Shape))
		for k, d := range e.Shape {
			if d < 0 || uint64(d) > uint64(len(body)) {
				return nil, fmt.Errorf("%w: tensor %q: dimension %d", ErrFormat, name, d)
			}
			shape[k] = int(d)
			// count·d checked by division first: in a file over 4 GiB
			// the product of two dimensions within it can overflow.
			if d != 0 && count > uint64(len(body))/uint64(d) {
				return nil, fmt.Errorf("%w: tensor %q: shape %v larger than the file", ErrFormat, name, e.Shape)
			}
			if count *= uint64(d); count > uint64(len(body)) {
				return nil, fmt.Errorf("%w: tensor %q: shape %v larger than the file", ErrFormat, name, e.Shape)
			}
		}
		start, end := e.Offsets[0], e.Offsets[1]
		if start > end || end > uint64(len(body)) {
			return nil, fmt.Errorf("%w: tensor %q: bytes %d to %d of %d", ErrFormat, name, start, end, len(body))
		}
		if width > 0 && end-start != count*uint64(width) {
			return nil, fmt.Errorf("%w: tensor %q: %d bytes for %v of %s", ErrFormat, name, end-start, e.Shape, e.Dtype)
		}
		st.tensors[name] = tensor{dtype: e.Dtype, shape: shape, data: body[start:end:end]}
		spans = append(spans, span{name, start, end})
	}
	// Tensors must not overlap: a file that reuses bytes is not one the
	// library writes.
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	for k := 1; k < len(spans); k++ {
		if spans[k].start < spans[k-1].end {
			return nil, fmt.Errorf("%w: tensors %q and %q overlap", ErrFormat, spans[k-1].name, spans[k].name)
		}
	}
	return st, nil
}

// dtypeSize is the width of the dtypes whose values are decoded.
var dtypeSize = map[string]int{"F32": 4, "F16": 2, "BF16": 2}

// floats decodes t into n float32 values, checking that its shape is
// want.
func (t tensor) floats(name string, want ...int) ([]float32, error) {
	if len(t.shape) != len(want) {
		return nil, fmt.Errorf("%w: tensor %q has shape %v, want %v", ErrFormat, name, t.shape, want)
	}
	n := 1
	for k := range want {
		if t.shape[k] != want[k] {
			return nil, fmt.Errorf("%w: tensor %q has shape %v, want %v", ErrFormat, name, t.shape, want)
		}
		n *= want[k]
	}
	out := make([]float32, n)
	b := t.data
	switch t.dtype {
	case "F32":
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
	case "F16":
		for i := range out {
			out[i] = halfToFloat(binary.LittleEndian.Uint16(b[2*i:]))
		}
	case "BF16":
		for i := range out {
			out[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(b[2*i:])) << 16)
		}
	default:
		return nil, fmt.Errorf("%w: tensor %q has dtype %s (F32, F16 and BF16 are read)", ErrUnsupported, name, t.dtype)
	}
	return out, nil
}

// halfToFloat decodes an IEEE 754 binary16 value exactly.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // infinity or NaN
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp != 0: // normal
		return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
	case frac == 0:
		return math.Float32frombits(sign)
	}
	// Subnormal: frac * 2^-24, exact in float32.
	v := float32(frac) * (1.0 / (1 << 24))
	if sign != 0 {
		v = -v
	}
	return v
}
