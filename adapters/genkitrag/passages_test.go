package genkitrag_test

import (
	"context"
	"errors"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/ragkit/ragkit/adapters/genkitrag"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
)

func TestPassageRetriever(t *testing.T) {
	ctx := context.Background()
	cfg, _, mem := setup(t)
	r, err := retrieve.New(retrieve.Config{Store: mem, Embedder: cfg.Embedder, Passages: 3})
	if err != nil {
		t.Fatal(err)
	}
	question := "meal allowance euros"
	want, err := r.Retrieve(ctx, question)
	if err != nil {
		t.Fatal(err)
	}
	g := genkit.Init(ctx)
	gr, err := genkitrag.DefinePassageRetriever(g, "passages", r)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := genkit.Retrieve(ctx, g, ai.WithRetriever(gr), ai.WithTextDocs(question))
	if err != nil || len(resp.Documents) != len(want) {
		t.Fatalf("%v, %v", resp, err)
	}
	ps, err := genkitrag.Passages(resp.Documents)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		w := want[i]
		if p.Text != w.Text || p.Score != w.Score || p.DocID != w.DocID || p.First != w.First || len(p.Hits) != 1 || p.Hits[0].ID != w.Hits[0].ID {
			t.Errorf("passage %d: %+v; want %+v", i, p, w)
		}
		if resp.Documents[i].Metadata[meta.ScoreKindKey] != "Fused" {
			t.Errorf("kind %v", resp.Documents[i].Metadata[meta.ScoreKindKey])
		}
	}
	got, err := gr.Retrieve(ctx, &ai.RetrieverRequest{Query: ai.DocumentFromText(question, nil), Options: &genkitrag.RetrieverOptions{K: 1, Filter: map[string]any{"year": 2023}}})
	if err != nil || len(got.Documents) != 1 || got.Documents[0].Metadata[meta.DocIDKey] != "hotels" {
		t.Errorf("K and filter: %v, %v", got, err)
	}
	th := 0.01
	if _, err := gr.Retrieve(ctx, &ai.RetrieverRequest{Query: ai.DocumentFromText(question, nil), Options: &genkitrag.RetrieverOptions{ScoreThreshold: &th}}); !errors.Is(err, meta.ErrUnsupported) {
		t.Errorf("threshold on fused scores: %v", err)
	}
	filtered, _ := retrieve.New(retrieve.Config{Store: mem, Embedder: cfg.Embedder, Filter: vectorstore.Filter{DocIDs: []string{"meals"}}})
	fr, _ := genkitrag.NewPassageRetriever("filtered", filtered)
	// A filter on a Retriever that has one narrows it.
	for year, want := range map[int]int{2024: 1, 2023: 0} {
		got, err := fr.Retrieve(ctx, &ai.RetrieverRequest{Query: ai.DocumentFromText(question, nil), Options: &genkitrag.RetrieverOptions{Filter: map[string]any{"year": year}}})
		if err != nil || len(got.Documents) != want || want == 1 && got.Documents[0].Metadata[meta.DocIDKey] != "meals" {
			t.Errorf("second filter, year %d: %v, %v", year, got, err)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := gr.Retrieve(cctx, &ai.RetrieverRequest{Query: ai.DocumentFromText(question, nil)}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := genkitrag.NewPassageRetriever("x", nil); !errors.Is(err, genkitrag.ErrConfig) {
		t.Errorf("nil Retriever: %v", err)
	}
}
