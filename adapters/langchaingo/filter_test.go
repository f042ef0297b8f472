package langchaingo_test

import (
	"context"
	"testing"

	"github.com/ragkit/ragkit/adapters/internal/testdoc"
	"github.com/ragkit/ragkit/adapters/langchaingo"
	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/tmc/langchaingo/schema"
	"github.com/tmc/langchaingo/vectorstores"
)

func docIDs(docs []schema.Document) []string {
	ids := make([]string, len(docs))
	for i, d := range docs {
		ids[i], _ = d.Metadata[meta.DocIDKey].(string)
	}
	return ids
}

// TestRetrieverFilterBoundary: a Retriever configured with a filter returns
// only what it matches.
func TestRetrieverFilterBoundary(t *testing.T) {
	ctx := context.Background()
	s, mem := newStore(t)
	if err := testdoc.IndexTenants(ctx, mem, s.Config().Embedder); err != nil {
		t.Fatal(err)
	}
	for _, f := range []vectorstore.Filter{
		testdoc.TenantFilter,
		{Where: vectorstore.And(vectorstore.Eq("tenant", "acme"), vectorstore.Between("year", 2024, 2024))},
	} {
		r, err := retrieve.New(retrieve.Config{Store: mem, Embedder: s.Config().Embedder, Filter: f, Passages: 8})
		if err != nil {
			t.Fatal(err)
		}
		docs, err := langchaingo.NewRetriever(r).GetRelevantDocuments(ctx, testdoc.TenantQuestion)
		if err == nil {
			err = testdoc.CheckTenantDocs(docIDs(docs), func(string, string) bool { return true })
		}
		if err != nil {
			t.Error(err)
		}
	}
}

// TestStoreFilterOperators: SimilaritySearch applies a call's filter made
// of operators or lists only.
func TestStoreFilterOperators(t *testing.T) {
	ctx := context.Background()
	s, mem := newStore(t)
	if err := testdoc.IndexTenants(ctx, mem, s.Config().Embedder); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		filter any
		keep   func(lang, year string) bool
	}{
		{"lang", map[string]any{"lang": "en"}, func(lang, _ string) bool { return lang == "en" }},
		{"$gt only", map[string]any{"year": map[string]any{"$gt": 2023}}, func(_, year string) bool { return year == "2024" }},
		{"$in only", map[string]any{"year": map[string]any{"$in": []any{"2023"}}}, func(_, year string) bool { return year == "2023" }},
		{"list only", map[string]any{"lang": []any{"de"}}, func(lang, _ string) bool { return lang == "de" }},
		{"ragkit filter", vectorstore.Filter{Where: vectorstore.Between("year", 2024, 2024)}, func(_, year string) bool { return year == "2024" }},
	} {
		f := c.filter
		if m, ok := f.(map[string]any); ok {
			f = testdoc.WithTenant(m)
		} else {
			vf := f.(vectorstore.Filter)
			vf.Metadata = map[string]string{"tenant": "acme"}
			f = vf
		}
		docs, err := s.SimilaritySearch(ctx, testdoc.TenantQuestion, 8, vectorstores.WithFilters(f))
		if err == nil {
			err = testdoc.CheckTenantDocs(docIDs(docs), c.keep)
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
