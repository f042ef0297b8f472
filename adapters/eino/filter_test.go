package eino_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/cloudwego/eino/components/retriever"
	"github.com/cloudwego/eino/schema"
	"github.com/ragkit/ragkit/adapters/eino"
	"github.com/ragkit/ragkit/adapters/internal/testdoc"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/retrieve"
)

func docIDs(docs []*schema.Document) []string {
	ids := make([]string, len(docs))
	for i, d := range docs {
		ids[i], _ = d.MetaData[meta.DocIDKey].(string)
	}
	return ids
}

// TestPassageRetrieverFilterBoundary: a call's filter narrows a Retriever's
// configured filter, never replaces it, and one made of operators or lists
// only applies.
func TestPassageRetrieverFilterBoundary(t *testing.T) {
	ctx := context.Background()
	p := newParts(t)
	if err := testdoc.IndexTenants(ctx, p.mem, p.lex); err != nil {
		t.Fatal(err)
	}
	r, err := retrieve.New(retrieve.Config{Store: p.mem, Embedder: p.lex, Filter: testdoc.TenantFilter, Passages: 8})
	if err != nil {
		t.Fatal(err)
	}
	pr := eino.NewPassageRetriever(r)
	for _, c := range testdoc.FilterCases {
		docs, err := pr.Retrieve(ctx, testdoc.TenantQuestion, eino.WithFilter(c.Filter))
		if err == nil {
			err = testdoc.CheckTenantDocs(docIDs(docs), c.Keep)
		}
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
	}
	// Another tenant's filter intersected with acme's matches nothing.
	docs, err := pr.Retrieve(ctx, testdoc.TenantQuestion, eino.WithFilter(map[string]any{"tenant": "globex"}), retriever.WithTopK(8))
	if err != nil || len(docs) != 0 {
		t.Errorf("tenant globex: %q, %v", docIDs(docs), err)
	}
}

// TestRetrieverFilterOperators: a store Retriever applies a call's filter
// made of operators or lists only.
func TestRetrieverFilterOperators(t *testing.T) {
	ctx := context.Background()
	p := newParts(t)
	if err := testdoc.IndexTenants(ctx, p.mem, p.lex); err != nil {
		t.Fatal(err)
	}
	for _, c := range testdoc.FilterCases {
		docs, err := p.rt.Retrieve(ctx, testdoc.TenantQuestion, eino.WithFilter(testdoc.WithTenant(c.Filter)), retriever.WithTopK(8))
		if err == nil {
			err = testdoc.CheckTenantDocs(docIDs(docs), c.Keep)
		}
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
	}
}

// TestPassagesScoreBeyondFloat32: a document score that no float32 holds
// is refused, not turned into +Inf.
func TestPassagesScoreBeyondFloat32(t *testing.T) {
	for _, s := range []float64{1e39, math.Inf(-1)} {
		d := (&schema.Document{ID: "a", Content: "text", MetaData: map[string]any{meta.DocIDKey: "a"}}).WithScore(s)
		if ps, err := eino.Passages([]*schema.Document{d}); !errors.Is(err, meta.ErrUnsupported) {
			t.Errorf("score %v: %+v, %v", s, ps, err)
		}
	}
}
