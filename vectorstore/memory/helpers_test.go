package memory_test

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/stretchr/testify/require"
)

var bg = context.Background()

func randVec(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// makeRecords returns docs*perDoc records with random vectors; record j of
// document d has ID "d<d>-<j>", Index j and metadata {"parity": even|odd}
// by d.
func makeRecords(r *rand.Rand, docs, perDoc, dim int) []vectorstore.Record {
	var out []vectorstore.Record
	for d := range docs {
		for j := range perDoc {
			out = append(out, vectorstore.Record{
				ID:       fmt.Sprintf("d%d-%d", d, j),
				DocID:    fmt.Sprintf("d%d", d),
				Index:    j,
				Text:     fmt.Sprintf("unit %d of document %d", j, d),
				Vector:   randVec(r, dim),
				Metadata: map[string]string{"parity": []string{"even", "odd"}[d%2]},
			})
		}
	}
	return out
}

func newMemory(t testing.TB, cfg memory.Config, recs ...vectorstore.Record) *memory.Store {
	t.Helper()
	m, err := memory.New(cfg)
	require.NoError(t, err)
	if len(recs) > 0 {
		require.NoError(t, m.Upsert(bg, recs...))
	}
	return m
}

// bruteForce is the reference search: cosine similarity in float64 over
// every record that matches f, best first, ties by ID.
func bruteForce(recs []vectorstore.Record, q []float32, k int, f vectorstore.Filter) []vectorstore.Hit {
	return bruteForceBy(recs, q, k, f, cosine)
}

// bruteForceBy is bruteForce with another score.
func bruteForceBy(recs []vectorstore.Record, q []float32, k int, f vectorstore.Filter, score func(q, v []float32) float64) []vectorstore.Hit {
	var hits []vectorstore.Hit
	for _, r := range recs {
		if !f.Match(r) {
			continue
		}
		hits = append(hits, vectorstore.Hit{Record: r, Score: float32(score(q, r.Vector))})
	}
	slices.SortFunc(hits, func(a, b vectorstore.Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return hits[:min(k, len(hits))]
}

func cosine(a, b []float32) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	return ab / math.Sqrt(aa*bb)
}

// unitDot is the dot product of q, scaled to unit length, with v as it
// is: the score a compact store gives a vector that it stores rebuilt from
// its codes, which is within about 1e-4 of unit length.
func unitDot(q, v []float32) float64 {
	var qv, qq float64
	for i := range q {
		qv += float64(q[i]) * float64(v[i])
		qq += float64(q[i]) * float64(q[i])
	}
	return qv / math.Sqrt(qq)
}

func hitIDs(hits []vectorstore.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

func recordIDs(recs []vectorstore.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.ID
	}
	return out
}
