package memory_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ragkit/ragkit/internal/testcorpus"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/stretchr/testify/require"
)

// proseSentences returns the sentences of the three books of testdata,
// each on one line.
var proseSentences = sync.OnceValues(func() ([]string, error) {
	var out []string
	for _, name := range []string{"room_with_a_view.txt", "sherlock_1661.txt", "romeo_and_juliet.txt"} {
		text, err := testcorpus.Load(name)
		if err != nil {
			return nil, err
		}
		for _, s := range segment.Sentences(text) {
			if w := strings.Fields(s.Text(text)); len(w) > 0 {
				out = append(out, strings.Join(w, " "))
			}
		}
	}
	return out, nil
})

// wordRecords returns n records of about 100 words each, made of
// sentences of the books drawn at random, with their Lexical vectors if
// dim is not 0 (and a vector of 8 random components otherwise), 100
// records to a document. A real corpus is not this large; the sentences
// give the records a real distribution of words.
func wordRecords(tb testing.TB, n, dim int) []vectorstore.Record {
	tb.Helper()
	sents, err := proseSentences()
	require.NoError(tb, err)
	r := rand.New(rand.NewPCG(uint64(n), 100))
	recs := make([]vectorstore.Record, n)
	texts := make([]string, n)
	for i := range recs {
		var b strings.Builder
		for words := 0; words < 100; {
			s := sents[r.IntN(len(sents))]
			words += strings.Count(s, " ") + 1
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(s)
		}
		texts[i] = b.String()
		recs[i] = vectorstore.Record{ID: fmt.Sprintf("u%07d", i), DocID: fmt.Sprintf("doc%05d", i/100), Index: i % 100, Text: texts[i]}
	}
	if dim == 0 {
		for i := range recs {
			recs[i].Vector = randVec(r, 8)
		}
		return recs
	}
	l, err := lexical.New(lexical.Config{Dimension: dim})
	require.NoError(tb, err)
	vecs, err := l.Embed(bg, texts)
	require.NoError(tb, err)
	for i := range recs {
		recs[i].Vector = vecs[i]
	}
	return recs
}

// excerpts returns n queries of the given number of words taken from the
// middle of random records.
func excerpts(recs []vectorstore.Record, n, words int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, 7))
	out := make([]string, n)
	for i := range out {
		w := strings.Fields(recs[r.IntN(len(recs))].Text)
		at := r.IntN(len(w) - words + 1)
		out[i] = strings.Join(w[at:at+words], " ")
	}
	return out
}

// BenchmarkKeywordQuery times a keyword query and a vector query
// (Query of the Lexical vector of the same
// text) on one store of records of about 100 words, in turn, query by
// query, k = 10. The metrics are the medians of each and of their ratio,
// which a busy machine disturbs less than the means. Queries are 8-word
// excerpts of the records and 3-word ones.
func BenchmarkKeywordQuery(b *testing.B) {
	const dim = 384
	l, err := lexical.New(lexical.Config{Dimension: dim})
	require.NoError(b, err)
	for _, n := range []int{1000, 10_000, 100_000} {
		recs := wordRecords(b, n, dim)
		m := newMemory(b, memory.Config{}, recs...)
		for _, words := range []int{3, 8} {
			texts := excerpts(recs, 64, words, uint64(n))
			vecs, err := l.Embed(bg, texts)
			require.NoError(b, err)
			b.Run(fmt.Sprintf("n=%d/words=%d", n, words), func(b *testing.B) {
				b.ReportAllocs()
				var kw, vec, ratio []float64
				i := 0
				for b.Loop() {
					q := i % len(texts)
					i++
					t0 := time.Now()
					_, err := m.QueryKeywords(bg, texts[q], 10, vectorstore.Filter{})
					t1 := time.Now()
					require.NoError(b, err)
					_, err = m.Query(bg, vecs[q], 10, vectorstore.Filter{})
					t2 := time.Now()
					require.NoError(b, err)
					kw = append(kw, float64(t1.Sub(t0)))
					vec = append(vec, float64(t2.Sub(t1)))
					ratio = append(ratio, float64(t1.Sub(t0))/float64(t2.Sub(t1)))
				}
				b.ReportMetric(median(kw), "keyword-ns")
				b.ReportMetric(median(vec), "vector-ns")
				b.ReportMetric(median(ratio), "keyword/vector")
			})
		}
		m.Close()
	}
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	x = slices.Clone(x)
	slices.Sort(x)
	return x[len(x)/2]
}

// BenchmarkKeywordIndex times an Upsert of records of about 100 words
// into an empty store, with their texts (which builds the keyword index)
// and without, and reports what the index adds per record, in time and in
// heap: the records have 8-dimensional vectors, so that the vectors cost
// little, and the texts are shared with the caller, as they are when the
// caller keeps its documents.
func BenchmarkKeywordIndex(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		recs := wordRecords(b, n, 0)
		bare := slices.Clone(recs)
		var bytes int64
		for i := range bare {
			bare[i].Text = ""
			bytes += int64(len(recs[i].Text))
		}
		for _, tt := range []struct {
			name string
			recs []vectorstore.Record
		}{{"texts", recs}, {"no-texts", bare}} {
			b.Run(fmt.Sprintf("n=%d/%s", n, tt.name), func(b *testing.B) {
				before := heapInUse()
				m := newMemory(b, memory.Config{}, tt.recs...)
				heap := heapInUse() - before
				runtime.KeepAlive(m)
				m = nil
				b.ReportAllocs()
				b.SetBytes(bytes)
				for b.Loop() {
					var m memory.Store
					require.NoError(b, m.Upsert(context.Background(), tt.recs...))
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/record")
				b.ReportMetric(float64(heap)/float64(n), "heap-B/record")
			})
		}
	}
}

// heapInUse returns the bytes of live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
