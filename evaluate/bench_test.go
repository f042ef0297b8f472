package evaluate_test

import (
	"context"
	"os"
	"testing"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/evaluate"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/window"
)

// BenchmarkCompare is the measure of speed: 100 questions × 4
// configurations (hybrid, vector, keyword search; hybrid with a sentence
// window) over an index of about 1,200 chunks of 64 tokens (A Room with a
// View), offline (the Lexical embedder, the memory store), k = 5,
// summaries with 2,000 resamples. The index is built once, outside the
// loop; each question is the first sentence of a chunk, its target the
// chunk's span.
func BenchmarkCompare(b *testing.B) {
	ctx := context.Background()
	text, err := os.ReadFile("../testdata/corpora/room_with_a_view.txt")
	if err != nil {
		b.Fatal(err)
	}
	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	if err != nil {
		b.Fatal(err)
	}
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 64})
	if err != nil {
		b.Fatal(err)
	}
	store := &memory.Store{}
	emb := &lexical.Embedder{}
	ix, err := ingest.New(ingest.Config{Chunker: c, Embedder: emb, EmbedderName: "lexical", Store: store})
	if err != nil {
		b.Fatal(err)
	}
	doc := document.Document{ID: "room.txt", Text: string(text)}
	stats, err := ix.Index(ctx, doc)
	if err != nil {
		b.Fatal(err)
	}
	chunks, err := c.Split(doc.Text)
	if err != nil {
		b.Fatal(err)
	}
	var qs []evaluate.Question
	for i := 0; len(qs) < 100 && i < len(chunks); i += len(chunks) / 100 {
		ch := chunks[i]
		first := segment.Sentences(ch.Text)[0]
		qs = append(qs, evaluate.Question{
			Question: ch.Text[first.Start:first.End],
			Spans:    []evaluate.Span{{Doc: doc.ID, Start: ch.Start, End: ch.End}},
		})
	}
	windows, err := window.NewExpander(window.ExpanderConfig{Source: store, Size: 1})
	if err != nil {
		b.Fatal(err)
	}
	var configs []evaluate.Configuration
	for _, cfg := range []struct {
		name string
		rc   retrieve.Config
	}{
		{"hybrid", retrieve.Config{Search: retrieve.Hybrid}},
		{"vector", retrieve.Config{Search: retrieve.Vector}},
		{"keywords", retrieve.Config{Search: retrieve.Keywords}},
		{"hybrid+window", retrieve.Config{Search: retrieve.Hybrid, Widener: windows}},
	} {
		cfg.rc.Store, cfg.rc.Embedder, cfg.rc.Passages = store, emb, 5
		r, err := retrieve.New(cfg.rc)
		if err != nil {
			b.Fatal(err)
		}
		configs = append(configs, evaluate.Configuration{Name: cfg.name, Retriever: r})
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := evaluate.Compare(ctx, evaluate.Config{Tokenizer: tok, K: 5}, evaluate.SummaryConfig{}, configs, qs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(stats.TotalChunks), "chunks")
}
