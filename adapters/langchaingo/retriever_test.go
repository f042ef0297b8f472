package langchaingo_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ragkit/ragkit/adapters/internal/testdoc"
	"github.com/ragkit/ragkit/adapters/langchaingo"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/window"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms/fake"
	"github.com/tmc/langchaingo/schema"
)

var _ schema.Retriever = (*langchaingo.Retriever)(nil)

// newRetriever indexes the policy through the Store and returns a ragkit
// Retriever over it that widens hits into sentence windows.
func newRetriever(t *testing.T) *retrieve.Retriever {
	t.Helper()
	ctx := context.Background()
	s, _ := langchaingo.NewSplitter(langchaingo.SplitterConfig{Chunker: newChunker(t, 30)})
	docs, err := s.SplitDocuments(ctx, []schema.Document{{PageContent: testdoc.Policy, Metadata: map[string]any{meta.DocIDKey: "travel"}}})
	if err != nil {
		t.Fatal(err)
	}
	store, mem := newStore(t)
	if _, err := store.AddDocuments(ctx, docs); err != nil {
		t.Fatal(err)
	}
	tok, _ := tokencount.Encoding("cl100k_base")
	ex, err := window.NewExpander(window.ExpanderConfig{Source: mem, Size: 1, Tokenizer: tok})
	if err != nil {
		t.Fatal(err)
	}
	r, err := retrieve.New(retrieve.Config{Store: mem, Embedder: store.Config().Embedder, Widener: ex, Passages: 2})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRetriever(t *testing.T) {
	ctx := context.Background()
	r := newRetriever(t)
	question := "meal allowance in Switzerland"
	want, err := r.Retrieve(ctx, question)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := langchaingo.NewRetriever(r).GetRelevantDocuments(ctx, question)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != len(want) || len(docs) == 0 {
		t.Fatalf("%d documents, %d passages", len(docs), len(want))
	}
	for i, d := range docs {
		if d.PageContent != want[i].Text || d.Score != want[i].Score || d.Metadata[meta.ScoreKindKey] != "Fused" {
			t.Errorf("document %d: %q %v %v", i, d.PageContent, d.Score, d.Metadata)
		}
	}
	// Back to passages: everything but the hits a window held.
	back, err := langchaingo.Passages(docs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range back {
		w := want[i]
		if w.First != w.Last {
			w.Hits = nil
		}
		if diff := cmp.Diff(w, back[i], cmp.Comparer(func(a, b vectorstore.Hit) bool { return a.ID == b.ID && a.Score == b.Score })); diff != "" {
			t.Errorf("passage %d (-retriever +adapter):\n%s", i, diff)
		}
	}
	// langchaingo's QA chain runs on it.
	answer, err := chains.Run(ctx, chains.NewRetrievalQAFromLLM(fake.NewFakeLLM([]string{"60 euros"}), langchaingo.NewRetriever(r)), question)
	if err != nil || answer != "60 euros" {
		t.Errorf("RetrievalQA: %q, %v", answer, err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := langchaingo.NewRetriever(r).GetRelevantDocuments(cctx, question); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
