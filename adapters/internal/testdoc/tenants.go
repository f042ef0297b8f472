package testdoc

import (
	"context"
	"fmt"
	"strings"

	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/vectorstore"
)

// TenantFilter is the filter a component is configured with in the tests of
// the filter boundary: tenant acme's records only.
var TenantFilter = vectorstore.Filter{Where: vectorstore.Eq("tenant", "acme")}

// TenantQuestion is a question every record of [IndexTenants] answers.
const TenantQuestion = "meal allowance euros"

// IndexTenants embeds with e and writes to s eight one-record documents,
// one per tenant (acme, globex), lang (en, de) and year (2023, 2024), each
// the document "<tenant>-<lang>-<year>" with that metadata.
func IndexTenants(ctx context.Context, s vectorstore.VectorStore, e vectorstore.Embedder) error {
	var recs []vectorstore.Record
	var texts []string
	for _, tenant := range []string{"acme", "globex"} {
		for _, lang := range []string{"en", "de"} {
			for _, year := range []string{"2023", "2024"} {
				id := tenant + "-" + lang + "-" + year
				text := fmt.Sprintf("The meal allowance of %s is 45 euros (%s, %s).", tenant, lang, year)
				recs = append(recs, vectorstore.Record{ID: id, DocID: id, Text: text,
					Metadata: map[string]string{"tenant": tenant, "lang": lang, "year": year}})
				texts = append(texts, text)
			}
		}
	}
	vs, err := e.Embed(ctx, texts)
	if err != nil {
		return err
	}
	for i := range recs {
		recs[i].Vector = vs[i]
	}
	return s.Upsert(ctx, recs...)
}

// CheckTenantDocs returns an error unless docIDs, the documents a call
// returned, are not empty and each is tenant acme's and has the metadata
// that keep requires (lang, year) of it, as [IndexTenants] named them.
func CheckTenantDocs(docIDs []string, keep func(lang, year string) bool) error {
	if len(docIDs) == 0 {
		return fmt.Errorf("no documents")
	}
	for _, id := range docIDs {
		parts := strings.Split(id, "-")
		if len(parts) != 3 || parts[0] != "acme" || !keep(parts[1], parts[2]) {
			return fmt.Errorf("document %q returned (all: %q)", id, docIDs)
		}
	}
	return nil
}

// WithTenant returns a copy of the framework filter m that also requires
// tenant acme, for a store, which has no filter of its own.
func WithTenant(m map[string]any) map[string]any {
	out := map[string]any{"tenant": "acme"}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// FilterCase is a framework filter given to one call, and what it keeps of
// tenant acme's documents (see [CheckTenantDocs]).
type FilterCase struct {
	Name   string
	Filter map[string]any
	Keep   func(lang, year string) bool
}

// FilterCases are the per-call filters of the filter boundary's tests:
// none, a value, an operator only, $in only, a list only, documents.
var FilterCases = []FilterCase{
	{"none", nil, func(string, string) bool { return true }},
	{"lang", map[string]any{"lang": "en"}, func(lang, _ string) bool { return lang == "en" }},
	{"$gt only", map[string]any{"year": map[string]any{"$gt": 2023}}, func(_, year string) bool { return year == "2024" }},
	{"$in only", map[string]any{"year": map[string]any{"$in": []any{"2023"}}}, func(_, year string) bool { return year == "2023" }},
	{"list only", map[string]any{"lang": []any{"de"}}, func(lang, _ string) bool { return lang == "de" }},
	{"documents", map[string]any{meta.DocIDKey: []any{"acme-en-2023", "globex-en-2023"}}, func(lang, year string) bool { return lang == "en" && year == "2023" }},
}
