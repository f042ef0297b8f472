package genkitrag_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/ragkit/ragkit/adapters/genkitrag"
	"github.com/ragkit/ragkit/adapters/internal/testdoc"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

func docIDs(docs []*ai.Document) []string {
	ids := make([]string, len(docs))
	for i, d := range docs {
		ids[i], _ = d.Metadata[meta.DocIDKey].(string)
	}
	return ids
}

func tenants(t *testing.T) (genkitrag.Config, *memory.Store) {
	t.Helper()
	cfg, _, _ := setup(t)
	mem := new(memory.Store)
	cfg.Store = mem
	if err := testdoc.IndexTenants(context.Background(), mem, cfg.Embedder); err != nil {
		t.Fatal(err)
	}
	return cfg, mem
}

// TestPassageRetrieverFilterBoundary: a request's filter narrows a
// Retriever's configured filter, never replaces it, and one made of
// operators or lists only applies.
func TestPassageRetrieverFilterBoundary(t *testing.T) {
	ctx := context.Background()
	cfg, mem := tenants(t)
	r, err := retrieve.New(retrieve.Config{Store: mem, Embedder: cfg.Embedder, Filter: testdoc.TenantFilter, Passages: 8})
	if err != nil {
		t.Fatal(err)
	}
	gr, err := genkitrag.NewPassageRetriever("passages", r)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range testdoc.FilterCases {
		resp, err := gr.Retrieve(ctx, &ai.RetrieverRequest{Query: ai.DocumentFromText(testdoc.TenantQuestion, nil), Options: &genkitrag.RetrieverOptions{Filter: c.Filter}})
		if err == nil {
			err = testdoc.CheckTenantDocs(docIDs(resp.Documents), c.Keep)
		}
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
	}
	resp, err := gr.Retrieve(ctx, &ai.RetrieverRequest{Query: ai.DocumentFromText(testdoc.TenantQuestion, nil), Options: &genkitrag.RetrieverOptions{K: 8, Filter: map[string]any{"tenant": "globex"}}})
	if err != nil || len(resp.Documents) != 0 {
		t.Errorf("tenant globex: %v, %v", resp, err)
	}
}

// TestRetrieverFilterOperators: a store retriever applies a request's
// filter made of operators or lists only.
func TestRetrieverFilterOperators(t *testing.T) {
	ctx := context.Background()
	cfg, _ := tenants(t)
	gr, err := genkitrag.NewRetriever("store", cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range testdoc.FilterCases {
		resp, err := gr.Retrieve(ctx, &ai.RetrieverRequest{Query: ai.DocumentFromText(testdoc.TenantQuestion, nil), Options: &genkitrag.RetrieverOptions{K: 8, Filter: testdoc.WithTenant(c.Filter)}})
		if err == nil {
			err = testdoc.CheckTenantDocs(docIDs(resp.Documents), c.Keep)
		}
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
	}
}

// TestPassagesScoreBeyondFloat32: a document score that no float32 holds
// is refused, not turned into +Inf.
func TestPassagesScoreBeyondFloat32(t *testing.T) {
	for _, s := range []any{1e39, json.Number("1e39"), json.Number("1e999")} {
		d := ai.DocumentFromText("text", map[string]any{meta.DocIDKey: "a", meta.ScoreKey: s})
		if ps, err := genkitrag.Passages([]*ai.Document{d}); !errors.Is(err, meta.ErrUnsupported) {
			t.Errorf("score %v: %+v, %v", s, ps, err)
		}
	}
}
