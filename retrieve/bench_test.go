package retrieve_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/window"
)

// benchStore returns a store of n records, 100 units per document, with
// random vectors of dim and texts of words from a vocabulary of 5,000,
// and queries of a vector and five words each.
func benchStore(b *testing.B, n, dim int) (*memory.Store, []benchQuery) {
	b.Helper()
	r := rand.New(rand.NewPCG(uint64(n), 7))
	word := func() string { return fmt.Sprintf("w%d", int(r.ExpFloat64()*700)%5000) }
	vec := func() []float32 {
		v := make([]float32, dim)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		return v
	}
	store := &memory.Store{}
	recs := make([]vectorstore.Record, 0, 1000)
	for i := range n {
		words := make([]string, 12)
		for j := range words {
			words[j] = word()
		}
		text := strings.Join(words, " ") + "."
		doc, idx := i/100, i%100
		recs = append(recs, vectorstore.Record{ID: fmt.Sprintf("d%d#%d", doc, idx), DocID: fmt.Sprintf("d%d", doc), Index: idx,
			Start: 100 * idx, End: 100*idx + len(text), Text: text, Vector: vec()})
		if len(recs) == cap(recs) || i == n-1 {
			require.NoError(b, store.Upsert(bg, recs...))
			recs = recs[:0]
		}
	}
	qs := make([]benchQuery, 64)
	for i := range qs {
		qs[i] = benchQuery{text: strings.Join([]string{word(), word(), word(), word(), word()}, " "), vector: vec()}
	}
	return store, qs
}

type benchQuery struct {
	text   string
	vector []float32
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkRetrieveOverhead measures what a Retriever adds to the store's
// own query and the window or segment step it calls: each iteration times
// the parts by hand (the store's query for Depth hits, then the Widener
// over them) and RetrieveVector, in turn, on the same query; the metrics
// are the medians of each and of their ratio. The question's vector is
// given, so no embedding is timed.
func BenchmarkRetrieveOverhead(b *testing.B) {
	const n, dim = 100_000, 384
	store, qs := benchStore(b, n, dim)
	expander, err := window.NewExpander(window.ExpanderConfig{Source: store, Size: 2})
	require.NoError(b, err)
	extractor, err := window.NewExtractor(window.ExtractorConfig{Source: store})
	require.NoError(b, err)
	for _, tt := range []struct {
		name   string
		search retrieve.Search
		w      interface {
			retrieve.Widener
		}
	}{
		{"vector/windows", retrieve.Vector, expander},
		{"vector/segments", retrieve.Vector, extractor},
		{"hybrid/windows", retrieve.Hybrid, expander},
		{"hybrid/segments", retrieve.Hybrid, extractor},
	} {
		b.Run(fmt.Sprintf("n=%d/%s", n, tt.name), func(b *testing.B) {
			r, err := retrieve.New(retrieve.Config{Store: store, Embedder: &lexical.Embedder{}, Search: tt.search, Widener: tt.w})
			require.NoError(b, err)
			depth := r.Config().Depth
			var parts, search, widen, whole, ratio []float64
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				q := qs[i%len(qs)]
				i++
				t0 := time.Now()
				var hits []vectorstore.Hit
				if tt.search == retrieve.Hybrid {
					vh, kh, err := store.QueryHybrid(bg, q.vector, q.text, depth, vectorstore.Filter{})
					require.NoError(b, err)
					hits = append(vh, kh...) // what the Widener is given is as many hits
					hits = hits[:min(len(hits), depth)]
				} else {
					hits, err = store.Query(bg, q.vector, depth, vectorstore.Filter{})
					require.NoError(b, err)
				}
				t1 := time.Now()
				_, err := tt.w.Widen(bg, store, hits)
				require.NoError(b, err)
				t2 := time.Now()
				ps, err := r.RetrieveVector(bg, q.text, q.vector)
				t3 := time.Now()
				require.NoError(b, err)
				require.NotEmpty(b, ps)
				search = append(search, float64(t1.Sub(t0)))
				widen = append(widen, float64(t2.Sub(t1)))
				parts = append(parts, float64(t2.Sub(t0)))
				whole = append(whole, float64(t3.Sub(t2)))
				ratio = append(ratio, float64(t3.Sub(t2))/float64(t2.Sub(t0)))
			}
			b.ReportMetric(median(search), "search-ns")
			b.ReportMetric(median(widen), "widen-ns")
			b.ReportMetric(median(parts), "parts-ns")
			b.ReportMetric(median(whole), "retrieve-ns")
			b.ReportMetric(median(ratio), "retrieve/parts")
		})
	}
}

// BenchmarkDiversity: the cost of maximal marginal relevance per
// question, by where the passage vectors come from, against none, over
// the twelve notes with the Lexical embedder (Depth 16: every chunk is a
// candidate).
func BenchmarkDiversity(b *testing.B) {
	store, emb := folder(b, 40, twelveNotes...)
	for _, d := range []struct {
		name string
		div  retrieve.Diversity
	}{
		{"off", retrieve.Diversity{}},
		{"stored", retrieve.Diversity{Lambda: 0.5}},
		{"embedded", retrieve.Diversity{Lambda: 0.5, Vectors: retrieve.EmbeddedVectors}},
	} {
		b.Run(d.name, func(b *testing.B) {
			r, err := retrieve.New(retrieve.Config{Store: store, Embedder: emb, Passages: 5, Diversity: d.div})
			require.NoError(b, err)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Retrieve(bg, reviewQuestion); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkStatsOverhead measures what the stage timings of RetrieveQuery
// cost over Retrieve, which reads no clock: each iteration runs both on
// the same question, in alternating order so that neither always runs
// second (with warm caches); the metrics are the medians of each and of
// their ratio. "notes" is the worst case, a tiny index whose searches are
// fastest; "n=20000" a store of random vectors queried by the Lexical
// embedder's (a realistic cost per stage, not a meaningful ranking).
func BenchmarkStatsOverhead(b *testing.B) {
	notes, notesEmb := folder(b, 40, twelveNotes...)
	big, qs := benchStore(b, 20_000, 384)
	bigEmb, err := lexical.New(lexical.Config{Dimension: 384})
	require.NoError(b, err)
	questions := make([]string, len(qs))
	for i, q := range qs {
		questions[i] = q.text
	}
	for _, tt := range []struct {
		name      string
		store     *memory.Store
		emb       vectorstore.Embedder
		questions []string
	}{
		{"notes", notes, notesEmb, []string{reviewQuestion, "When are reviews due?", "How is the work reviewed?"}},
		{"n=20000", big, bigEmb, questions},
	} {
		b.Run(tt.name, func(b *testing.B) {
			r, err := retrieve.New(retrieve.Config{Store: tt.store, Embedder: tt.emb})
			require.NoError(b, err)
			var off, on, ratio []float64
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				q := tt.questions[i%len(tt.questions)]
				var dOff, dOn time.Duration
				for k := range 2 {
					t0 := time.Now()
					if (i+k)%2 == 0 {
						_, err = r.Retrieve(bg, q)
						dOff = time.Since(t0)
					} else {
						_, err = r.RetrieveQuery(bg, retrieve.Query{Question: q})
						dOn = time.Since(t0)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				i++
				off = append(off, float64(dOff))
				on = append(on, float64(dOn))
				ratio = append(ratio, float64(dOn)/float64(dOff))
			}
			b.ReportMetric(median(off), "off-ns")
			b.ReportMetric(median(on), "on-ns")
			b.ReportMetric(median(ratio), "on/off")
		})
	}
}
