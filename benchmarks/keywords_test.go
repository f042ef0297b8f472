package benchmarks

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/ragkit/ragkit/benchmarks/internal/corpus"
	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// BenchmarkKeywordIndexVsChunker compares building the keyword index of
// a text with chunking it: each iteration splits the text with ragkit's
// chunker (cl100k_base, at most 128 tokens) and then upserts the chunks
// into an empty Memory, once with their texts (which builds the keyword
// index) and once without; the vectors have one dimension, so that the
// upsert is mostly the index. The metrics are the medians of each
// (chunk-ns, index-ns, bare-ns) and of the ratio (upsert with texts
// minus without) / chunking, which a busy machine disturbs less than
// separate runs:
//
//	cd benchmarks && go test -run '^$' -bench KeywordIndexVsChunker -benchtime 5x -count 3 .
func BenchmarkKeywordIndexVsChunker(b *testing.B) {
	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	if err != nil {
		b.Fatal(err)
	}
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 128})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, name := range []string{"room_with_a_view.txt", "sherlock_1661.txt"} {
		text := corpus.MustLoad(name)
		chunks, err := c.Split(text)
		if err != nil {
			b.Fatal(err)
		}
		recs := make([]vectorstore.Record, len(chunks))
		bare := make([]vectorstore.Record, len(chunks))
		for i, ch := range chunks {
			recs[i] = vectorstore.Record{ID: fmt.Sprint(i), DocID: "d", Index: i, Text: ch.Text, Vector: []float32{1}}
			bare[i] = recs[i]
			bare[i].Text = ""
		}
		upsert := func(recs []vectorstore.Record) {
			var m memory.Store
			if err := m.Upsert(ctx, recs...); err != nil {
				b.Fatal(err)
			}
		}
		b.Run("corpus="+name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			var chunk, index, noText, ratio []float64
			for b.Loop() {
				t0 := time.Now()
				if _, err := c.Split(text); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				upsert(recs)
				t2 := time.Now()
				upsert(bare)
				t3 := time.Now()
				chunk = append(chunk, float64(t1.Sub(t0)))
				index = append(index, float64(t2.Sub(t1)))
				noText = append(noText, float64(t3.Sub(t2)))
				ratio = append(ratio, float64(t2.Sub(t1)-t3.Sub(t2))/float64(t1.Sub(t0)))
			}
			b.ReportMetric(median(chunk), "chunk-ns")
			b.ReportMetric(median(index), "index-ns")
			b.ReportMetric(median(noText), "bare-ns")
			b.ReportMetric(median(ratio), "index/chunk")
		})
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
