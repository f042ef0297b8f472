package genkitrag_test

import (
	"context"
	"errors"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/ragkit/ragkit/adapters/genkitrag"
	"github.com/ragkit/ragkit/adapters/internal/testdoc"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

var _ vectorstore.Embedder = genkitrag.RagkitEmbedder(nil, nil)

func setup(t testing.TB) (genkitrag.Config, *genkitrag.Indexer, *memory.Store) {
	t.Helper()
	mem := new(memory.Store)
	lex, err := lexical.New(lexical.Config{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := genkitrag.Config{Store: mem, Embedder: lex, DocIDKey: "source"}
	x, err := genkitrag.NewIndexer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	docs := []*ai.Document{
		ai.DocumentFromText("The meal allowance is 45 euros a day.", map[string]any{"source": "meals", "year": 2024}),
		ai.DocumentFromText("Hotels cost at most 150 euros a night.", map[string]any{"source": "hotels", "year": 2023}),
		ai.DocumentFromText("Trains are taken for trips under four hours.", map[string]any{"source": "trains", "year": 2024}),
	}
	if err := x.Index(context.Background(), docs); err != nil {
		t.Fatal(err)
	}
	return cfg, x, mem
}

// The retriever is registered in a Genkit instance and called through
// genkit.Retrieve, with its options given by ai.WithConfig.
func TestDefineRetriever(t *testing.T) {
	ctx := context.Background()
	cfg, x, mem := setup(t)
	g := genkit.Init(ctx)
	r, err := genkitrag.DefineRetriever(g, "policy", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if genkit.LookupRetriever(g, "policy") == nil {
		t.Fatal("not registered")
	}
	resp, err := genkit.Retrieve(ctx, g, ai.WithRetriever(r), ai.WithTextDocs("meal allowance euros"), ai.WithConfig(&genkitrag.RetrieverOptions{K: 2}))
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Documents) != 2 {
		t.Fatalf("%d documents", len(resp.Documents))
	}
	d := resp.Documents[0]
	if d.Content[0].Text != "The meal allowance is 45 euros a day." || d.Metadata[meta.DocIDKey] != "meals" || d.Metadata["year"] != "2024" || d.Metadata[meta.ScoreKindKey] != "Cosine" {
		t.Errorf("first: %q %v", d.Content[0].Text, d.Metadata)
	}
	if s0, s1 := d.Metadata[meta.ScoreKey].(float64), resp.Documents[1].Metadata[meta.ScoreKey].(float64); s0 < s1 || s0 <= 0 {
		t.Errorf("scores %v %v", s0, s1)
	}
	ps, err := genkitrag.Passages(resp.Documents)
	if err != nil {
		t.Fatal(err)
	}
	var hits []vectorstore.Hit
	for _, p := range ps {
		if len(p.Hits) != 1 || p.Text != p.Hits[0].Text {
			t.Fatalf("passage %+v", p)
		}
		hits = append(hits, p.Hits[0])
	}
	qv, _ := cfg.Embedder.Embed(ctx, []string{"meal allowance euros"})
	want, _ := mem.Query(ctx, qv[0], 2, vectorstore.Filter{})
	if diff := cmp.Diff(want, hits, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(vectorstore.Record{}, "Vector")); diff != "" {
		t.Errorf("Passages (-store +adapter):\n%s", diff)
	}
	// Retrieved documents indexed again are the same records.
	if err := x.Index(ctx, resp.Documents); err != nil {
		t.Fatal(err)
	}
	if mem.Len() != 3 {
		t.Errorf("%d records after re-indexing retrieved documents", mem.Len())
	}
}

func TestRetrieverOptions(t *testing.T) {
	ctx := context.Background()
	cfg, _, _ := setup(t)
	r, err := genkitrag.NewRetriever("policy", cfg)
	if err != nil {
		t.Fatal(err)
	}
	query := ai.DocumentFromText("meal allowance euros", nil)
	all, err := r.Retrieve(ctx, &ai.RetrieverRequest{Query: query})
	if err != nil || len(all.Documents) != 3 {
		t.Fatalf("default K: %v", err)
	}
	s := func(i int) float64 { return all.Documents[i].Metadata[meta.ScoreKey].(float64) }
	th := (s(0) + s(1)) / 2
	got, err := r.Retrieve(ctx, &ai.RetrieverRequest{Query: query, Options: genkitrag.RetrieverOptions{ScoreThreshold: &th}})
	if err != nil || len(got.Documents) != 1 {
		t.Errorf("threshold: %v", err)
	}
	// Options as JSON, as the developer UI sends them.
	got, err = r.Retrieve(ctx, &ai.RetrieverRequest{Query: query, Options: map[string]any{"k": 5, "filter": map[string]any{"year": 2023}}})
	if err != nil || len(got.Documents) != 1 || got.Documents[0].Metadata[meta.DocIDKey] != "hotels" {
		t.Errorf("JSON options: %v, %v", got, err)
	}
	// Genkit checks options against the schema of RetrieverOptions.
	for name, opts := range map[string]any{"unknown field": map[string]any{"namespace": "x"}, "other type": "k=3"} {
		if _, err := r.Retrieve(ctx, &ai.RetrieverRequest{Query: query, Options: opts}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	for name, opts := range map[string]any{
		"threshold": genkitrag.RetrieverOptions{ScoreThreshold: ptr(1.5)},
		"operator":  &genkitrag.RetrieverOptions{Filter: map[string]any{"year": map[string]any{"$nin": []any{2023}}}},
	} {
		if _, err := r.Retrieve(ctx, &ai.RetrieverRequest{Query: query, Options: opts}); !errors.Is(err, meta.ErrUnsupported) {
			t.Errorf("%s: %v", name, err)
		}
	}
	media := &ai.Document{Content: []*ai.Part{ai.NewMediaPart("image/png", "data:...")}}
	if _, err := r.Retrieve(ctx, &ai.RetrieverRequest{Query: media}); !errors.Is(err, meta.ErrUnsupported) {
		t.Errorf("media query: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

func TestIndexerRefuses(t *testing.T) {
	ctx := context.Background()
	cfg, x, mem := setup(t)
	_ = cfg
	for name, d := range map[string]*ai.Document{
		"media":  {Content: []*ai.Part{ai.NewMediaPart("image/png", "data:...")}},
		"nested": ai.DocumentFromText("t", map[string]any{"tags": []any{"a"}}),
		"nil":    nil,
	} {
		if err := x.Index(ctx, []*ai.Document{d}); !errors.Is(err, meta.ErrUnsupported) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if mem.Len() != 3 {
		t.Errorf("refused writes changed the store: %d records", mem.Len())
	}
}

func TestEmbedders(t *testing.T) {
	ctx := context.Background()
	lex, _ := lexical.New(lexical.Config{Dimension: 16})
	e, err := genkitrag.NewEmbedder("lexical", lex)
	if err != nil {
		t.Fatal(err)
	}
	g := genkit.Init(ctx)
	genkit.RegisterAction(g, e)
	resp, err := genkit.Embed(ctx, g, ai.WithEmbedder(e), ai.WithTextDocs("a text", "b"))
	if err != nil || len(resp.Embeddings) != 2 || len(resp.Embeddings[0].Embedding) != 16 {
		t.Fatalf("genkit.Embed: %v", err)
	}
	back, err := genkitrag.RagkitEmbedder(e, nil).Embed(ctx, []string{"a text", "b"})
	want, _ := lex.Embed(ctx, []string{"a text", "b"})
	if err != nil || len(back) != 2 || back[0][0] != want[0][0] || back[1][3] != want[1][3] {
		t.Errorf("round trip: %v", err)
	}
	bad := ai.NewEmbedder("short", nil, func(context.Context, *ai.EmbedRequest) (*ai.EmbedResponse, error) {
		return &ai.EmbedResponse{Embeddings: []*ai.Embedding{{Embedding: []float32{1}}}}, nil
	})
	if _, err := genkitrag.RagkitEmbedder(bad, nil).Embed(ctx, []string{"a", "b"}); !errors.Is(err, meta.ErrEmbedding) {
		t.Errorf("short response: %v", err)
	}
}

func TestCancellation(t *testing.T) {
	cfg, x, _ := setup(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, _ := genkitrag.NewRetriever("policy", cfg)
	if _, err := r.Retrieve(ctx, &ai.RetrieverRequest{Query: ai.DocumentFromText("euros", nil)}); !errors.Is(err, context.Canceled) {
		t.Errorf("Retrieve: %v", err)
	}
	if err := x.Index(ctx, []*ai.Document{ai.DocumentFromText("new", nil)}); !errors.Is(err, context.Canceled) {
		t.Errorf("Index: %v", err)
	}
	e, _ := genkitrag.NewEmbedder("lexical", cfg.Embedder)
	if _, err := genkitrag.RagkitEmbedder(e, nil).Embed(ctx, []string{"a"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Embed: %v", err)
	}
}

func TestConfig(t *testing.T) {
	mem := new(memory.Store)
	lex, _ := lexical.New(lexical.Config{})
	if _, err := genkitrag.NewRetriever("", genkitrag.Config{Store: mem, Embedder: lex}); !errors.Is(err, genkitrag.ErrConfig) {
		t.Errorf("empty name: %v", err)
	}
	for _, cfg := range []genkitrag.Config{{}, {Store: mem}, {Store: mem, Embedder: lex, K: -1}} {
		if _, err := genkitrag.NewRetriever("r", cfg); !errors.Is(err, genkitrag.ErrConfig) {
			t.Errorf("NewRetriever(%+v): %v", cfg, err)
		}
	}
	if _, err := genkitrag.NewIndexer(genkitrag.Config{}); !errors.Is(err, genkitrag.ErrConfig) {
		t.Errorf("NewIndexer: %v", err)
	}
	if _, err := genkitrag.NewEmbedder("", lex); !errors.Is(err, genkitrag.ErrConfig) {
		t.Errorf("NewEmbedder: %v", err)
	}
}

func TestSplitter(t *testing.T) {
	ctx := context.Background()
	tok, _ := tokencount.Encoding("cl100k_base")
	c, _ := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 30, Format: document.Markdown})
	s, err := genkitrag.NewSplitter(genkitrag.SplitterConfig{Chunker: c})
	if err != nil {
		t.Fatal(err)
	}
	// A document of two text parts is their text, joined.
	half := len(testdoc.Policy) / 2
	in := &ai.Document{Content: []*ai.Part{ai.NewTextPart(testdoc.Policy[:half]), ai.NewTextPart(testdoc.Policy[half:])}, Metadata: map[string]any{meta.DocIDKey: "travel"}}
	docs, err := s.Split(ctx, []*ai.Document{in})
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) < 3 {
		t.Fatalf("%d chunks", len(docs))
	}
	for i, d := range docs {
		start, end := d.Metadata[meta.StartKey].(int), d.Metadata[meta.EndKey].(int)
		if testdoc.Policy[start:end] != d.Content[0].Text || d.Metadata[meta.IndexKey] != i || d.Metadata[meta.TokensKey] != tok.Count(d.Content[0].Text) {
			t.Errorf("chunk %d: %v", i, d.Metadata)
		}
	}
	media := &ai.Document{Content: []*ai.Part{ai.NewMediaPart("image/png", "data:...")}}
	if _, err := s.Split(ctx, []*ai.Document{media}); !errors.Is(err, meta.ErrUnsupported) {
		t.Errorf("media: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Split(cctx, []*ai.Document{in}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := genkitrag.NewSplitter(genkitrag.SplitterConfig{}); !errors.Is(err, genkitrag.ErrConfig) {
		t.Errorf("NewSplitter: %v", err)
	}
}
