package memory_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// A store with the approximate index: it is trained once the store holds
// MinRecords records, and a query then scans the Probes lists nearest to
// it. A filter is applied inside the scan, so a filtered query still
// returns as many hits as match.
func ExampleIndexConfig() {
	ctx := context.Background()
	store, _ := memory.New(memory.Config{
		Compact: true,
		Index:   memory.IndexConfig{IVF: true, MinRecords: 1000, Probes: 4},
	})
	// 4,000 vectors around 40 centres, in documents of ten.
	r := rand.New(rand.NewPCG(1, 2))
	centres := make([][]float32, 40)
	for i := range centres {
		centres[i] = make([]float32, 32)
		for j := range centres[i] {
			centres[i][j] = float32(r.NormFloat64())
		}
	}
	var recs []vectorstore.Record
	for i := range 4000 {
		v := make([]float32, 32)
		for j, c := range centres[i%40] {
			v[j] = c + 0.5*float32(r.NormFloat64())
		}
		recs = append(recs, vectorstore.Record{ID: fmt.Sprintf("r%04d", i), DocID: fmt.Sprintf("d%03d", i/10), Vector: v,
			Metadata: map[string]string{"shelf": fmt.Sprint(i % 3)}})
	}
	store.Upsert(ctx, recs...)

	hits, _ := store.Query(ctx, recs[123].Vector, 3, vectorstore.Filter{})
	fmt.Println(hits[0].ID, len(hits))
	filtered, _ := store.Query(ctx, recs[123].Vector, 5, vectorstore.Filter{Metadata: map[string]string{"shelf": "1"}})
	fmt.Println(len(filtered), filtered[0].Metadata["shelf"])
	// Output:
	// r0123 3
	// 5 1
}
