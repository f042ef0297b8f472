package bert

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// FuzzSafetensors checks that any bytes give tensors within the file or
// an error wrapping ErrFormat, never a panic, and that decoding each
// tensor at its shape stays within its bytes.
func FuzzSafetensors(f *testing.F) {
	for _, name := range []string{"embed/model.safetensors", "embed-f16/model.safetensors", "embed-bf16/model/model.safetensors"} {
		b, err := os.ReadFile(filepath.Join("testdata", "tiny", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 4096)])
	}
	hdr := func(s string) []byte { return append(binary.LittleEndian.AppendUint64(nil, uint64(len(s))), s...) }
	f.Add(hdr(`{"a":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}}`))
	f.Add(hdr(`{"a":{"dtype":"F16","shape":[1000000000000,1000000000000],"data_offsets":[0,0]}}`))
	f.Add(hdr(`{"a":{"dtype":"I64","shape":[],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := parseSafetensors(data)
		if err != nil {
			return
		}
		for name, ts := range st.tensors {
			if _, ok := dtypeSize[ts.dtype]; !ok {
				continue
			}
			v, err := ts.floats(name, ts.shape...)
			if err != nil {
				t.Fatalf("tensor %q: %v", name, err)
			}
			if len(v)*dtypeSize[ts.dtype] != len(ts.data) {
				t.Fatalf("tensor %q: %d values from %d bytes", name, len(v), len(ts.data))
			}
		}
	})
}
