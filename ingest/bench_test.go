package ingest_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// countingLexical is the default embedder, counting its calls and texts.
// With a latency, each call also waits that long first, as a call to a
// hosted model waits for its round trip.
type countingLexical struct {
	lexical.Embedder
	latency      time.Duration
	calls, texts atomic.Int64
}

func (e *countingLexical) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.calls.Add(1)
	e.texts.Add(int64(len(texts)))
	time.Sleep(e.latency)
	return e.Embedder.Embed(ctx, texts)
}

// hundred is the 100-document corpus: the prose corpora and the CommonMark
// spec, cut into 100 documents of whole paragraphs.
func hundred(b *testing.B) []document.Document {
	var paras []string
	for _, name := range []string{"room_with_a_view.txt", "romeo_and_juliet.txt", "sherlock_1661.txt", "commonmark_spec.md"} {
		paras = append(paras, strings.Split(corpusText(b, name), "\n\n")...)
	}
	docs := make([]document.Document, 100)
	per := len(paras) / len(docs)
	for i := range docs {
		docs[i] = document.Document{
			ID:    fmt.Sprintf("doc-%03d", i),
			Title: fmt.Sprintf("Part %d", i+1),
			Text:  strings.Join(paras[i*per:(i+1)*per], "\n\n"),
		}
	}
	return docs
}

func size(docs []document.Document) int64 {
	n := 0
	for _, d := range docs {
		n += len(d.Text)
	}
	return int64(n)
}

// benchConfig is the pipeline measured: the balanced chunker at maxTokens
// (less room for the header), the default headers, the default embedder.
func benchConfig(b *testing.B, maxTokens, concurrency int) (ingest.Config, *countingLexical) {
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(b, err)
	headers, err := contextheader.New(contextheader.Config{Tokenizer: tok, MaxEmbedTokens: maxTokens})
	require.NoError(b, err)
	chunkMax, err := headers.ChunkMaxTokens()
	require.NoError(b, err)
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: chunkMax})
	require.NoError(b, err)
	emb := &countingLexical{}
	return ingest.Config{
		Chunker: c, Headers: headers, Embedder: emb, EmbedderName: "lexical-384",
		Store: &memory.Store{}, Concurrency: concurrency,
	}, emb
}

// reportShares reports the share of the steps' summed time spent in each.
func reportShares(b *testing.B, s ingest.Stats) {
	total := float64(s.ChunkTime + s.HeaderTime + s.EmbedTime + s.StoreTime)
	if total == 0 {
		return
	}
	b.ReportMetric(100*float64(s.ChunkTime)/total, "chunk-%")
	b.ReportMetric(100*float64(s.HeaderTime)/total, "header-%")
	b.ReportMetric(100*float64(s.EmbedTime)/total, "embed-%")
	b.ReportMetric(100*float64(s.StoreTime)/total, "store-%")
}

func addStats(a, s ingest.Stats) ingest.Stats {
	a.ChunkTime += s.ChunkTime
	a.HeaderTime += s.HeaderTime
	a.EmbedTime += s.EmbedTime
	a.StoreTime += s.StoreTime
	return a
}

// BenchmarkIndexFirst indexes a corpus of 100 documents into an empty
// store: the throughput of a first index and where its time goes, with
// the default embedder as it is and with the latency of a hosted one, one
// or two Embed calls in flight.
func BenchmarkIndexFirst(b *testing.B) {
	docs := hundred(b)
	for _, maxTokens := range []int{128, 512} {
		for _, latency := range []time.Duration{0, 20 * time.Millisecond} {
			for _, conc := range []int{1, 2} {
				name := fmt.Sprintf("tokens=%d/latency=%v/embed-calls-in-flight=%d", maxTokens, latency, conc)
				b.Run(name, func(b *testing.B) { benchIndexFirst(b, docs, maxTokens, latency, conc) })
			}
		}
	}
}

func benchIndexFirst(b *testing.B, docs []document.Document, maxTokens int, latency time.Duration, conc int) {
	cfg, emb := benchConfig(b, maxTokens, conc)
	emb.latency = latency
	b.ReportAllocs()
	b.SetBytes(size(docs))
	var sum ingest.Stats
	for b.Loop() {
		cfg.Store = &memory.Store{}
		ix, err := ingest.New(cfg)
		require.NoError(b, err)
		s, err := ix.Index(context.Background(), docs...)
		require.NoError(b, err)
		sum = addStats(sum, s)
	}
	reportShares(b, sum)
	b.ReportMetric(float64(emb.calls.Load())/float64(b.N), "embed-calls/op")
	b.ReportMetric(float64(emb.texts.Load())/float64(b.N), "embedded/op")
}

// BenchmarkReindexEdit re-indexes the 100 documents after one sentence of
// one of them changed (inserted and removed in turn, so that every run sees
// an edit): the Embed calls and texts it makes, and its time against
// BenchmarkIndexFirst; with a Version, unchanged documents are not chunked.
func BenchmarkReindexEdit(b *testing.B) {
	docs := hundred(b)
	original := docs[50].Text
	mid := len(original) / 2
	at := mid + strings.Index(original[mid:], ". ") + 2
	edited := original[:at] + "A sentence that was not there before changes this document. " + original[at:]
	for _, tt := range []struct {
		maxTokens int
		version   string
	}{{128, ""}, {512, ""}, {128, "v1"}, {512, "v1"}} {
		b.Run(fmt.Sprintf("tokens=%d/version=%q", tt.maxTokens, tt.version), func(b *testing.B) {
			cfg, emb := benchConfig(b, tt.maxTokens, 1)
			cfg.Version = tt.version
			ix, err := ingest.New(cfg)
			require.NoError(b, err)
			_, err = ix.Index(context.Background(), docs...)
			require.NoError(b, err)
			emb.calls.Store(0)
			emb.texts.Store(0)
			b.ReportAllocs()
			b.SetBytes(size(docs))
			var sum ingest.Stats
			n := 0
			for b.Loop() {
				n++
				docs[50].Text = original
				if n%2 == 1 {
					docs[50].Text = edited
				}
				s, err := ix.Index(context.Background(), docs...)
				require.NoError(b, err)
				sum = addStats(sum, s)
			}
			reportShares(b, sum)
			b.ReportMetric(float64(emb.calls.Load())/float64(b.N), "embed-calls/op")
			b.ReportMetric(float64(emb.texts.Load())/float64(b.N), "embedded/op")
			docs[50].Text = original
		})
	}
}
