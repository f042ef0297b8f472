package openai

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkDecodeEmbeddings compares the fast decoder with encoding/json
// on responses of 256 vectors.
func BenchmarkDecodeEmbeddings(b *testing.B) {
	for _, dim := range []int{384, 1536} {
		body := embeddingsBody(256, dim)
		b.Run(fmt.Sprintf("dim=%d/impl=fast", dim), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := decodeEmbeddings(body); !ok {
					b.Fatal("not decoded")
				}
			}
		})
		b.Run(fmt.Sprintf("dim=%d/impl=encoding_json", dim), func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				var r embeddingResponse
				if err := json.Unmarshal(body, &r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// embeddingsBody is an embeddings response of n random vectors as
// OpenAI sends it.
func embeddingsBody(n, dim int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	data := make([]any, n)
	for i := range data {
		v := make([]float32, dim)
		for j := range v {
			v[j] = r.Float32()*0.2 - 0.1
		}
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": v}
	}
	raw, _ := json.Marshal(map[string]any{"object": "list", "data": data, "model": "text-embedding-3-small",
		"usage": map[string]any{"prompt_tokens": n, "total_tokens": n}})
	return raw
}

// The fast decoder allocates each vector once, plus the growth of its
// two buffers, never per number.
func TestDecodeEmbeddingsAllocs(t *testing.T) {
	body := embeddingsBody(64, 384)
	allocs := testing.AllocsPerRun(10, func() { decodeEmbeddings(body) })
	if allocs > 64+24 { // the buffers grow by doubling: a few dozen, not one per number
		t.Errorf("%v allocations for 64 vectors", allocs)
	}
}
