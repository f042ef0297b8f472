package window_test

import (
	"context"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/window"
)

const (
	benchDocs  = 1000
	benchUnits = 100 // per document: 100,000 units in all
	benchDim   = 384
	benchHits  = 100
)

var (
	benchOnce  sync.Once
	benchStore *memory.Store
	benchQuery []float32
)

// bigStore is a memory store of 100,000 sentence units (1,000 documents of
// 100) with random 384-dimensional vectors, and a query vector.
func bigStore(b *testing.B) (*memory.Store, []float32) {
	benchOnce.Do(func() {
		rng := rand.New(rand.NewPCG(7, 11))
		vec := func() []float32 {
			v := make([]float32, benchDim)
			for i := range v {
				v[i] = float32(rng.NormFloat64())
			}
			return v
		}
		m, err := memory.New(memory.Config{})
		require.NoError(b, err)
		for d := range benchDocs {
			id := "doc" + strconv.Itoa(d)
			units, err := sentenceUnits(id, numbered(benchUnits))
			require.NoError(b, err)
			require.Len(b, units, benchUnits)
			for i := range units {
				units[i].Vector = vec()
			}
			require.NoError(b, m.Upsert(context.Background(), units...))
		}
		benchStore, benchQuery = m, vec()
	})
	return benchStore, benchQuery
}

// BenchmarkExpand expands the 100 hits of a query over a store of 100,000
// units, next to the query that found them, and reports the Range calls
// per Expand (one per document of the hits).
func BenchmarkExpand(b *testing.B) {
	store, q := bigStore(b)
	ctx := context.Background()
	hits, err := store.Query(ctx, q, benchHits, vectorstore.Filter{})
	require.NoError(b, err)
	docs := map[string]bool{}
	for _, h := range hits {
		docs[h.DocID] = true
	}
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(b, err)
	b.Run("Query", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := store.Query(ctx, q, benchHits, vectorstore.Filter{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	expand := func(name string, src window.Source, cfg window.ExpanderConfig, count *counting) {
		cfg.Source = src
		e, err := window.NewExpander(cfg)
		require.NoError(b, err)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			count.ranges.Store(0)
			n := 0
			for b.Loop() {
				if _, err := e.Expand(ctx, hits); err != nil {
					b.Fatal(err)
				}
				n++
			}
			require.Equal(b, int64(n*len(docs)), count.calls(), "one Range per document")
			b.ReportMetric(float64(count.calls())/float64(n), "ranges/op")
		})
	}
	c := &counting{store: store}
	expand("Expand/Range", c, window.ExpanderConfig{Size: 3}, c)
	expand("Expand/MaxTokens=96", c, window.ExpanderConfig{Size: 3, Tokenizer: tok, MaxTokens: 96}, c)
	x, err := window.NewExtractor(window.ExtractorConfig{Source: c, Documents: benchHits})
	require.NoError(b, err)
	b.Run("Extract", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := x.Extract(ctx, hits); err != nil {
				b.Fatal(err)
			}
		}
	})
}
