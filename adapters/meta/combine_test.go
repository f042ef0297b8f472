package meta_test

import (
	"fmt"
	"testing"

	"github.com/ragkit/ragkit/adapters/meta"
	"github.com/ragkit/ragkit/vectorstore"
)

// TestCombineIsIntersection: a record passes the combination of two
// filters exactly when it passes both, for every pair of filters below.
func TestCombineIsIntersection(t *testing.T) {
	filters := []vectorstore.Filter{
		{},
		{DocIDs: []string{"a", "b"}},
		{DocIDs: []string{"b", "c"}},
		{DocIDs: []string{"c"}},
		{Metadata: map[string]string{"tenant": "acme"}},
		{Metadata: map[string]string{"tenant": "globex", "lang": "en"}},
		{Where: vectorstore.Eq("tenant", "acme")},
		{Where: vectorstore.Between("year", 2024, 2030)},
		{Where: vectorstore.Or(vectorstore.Eq("lang", "de"), vectorstore.Not(vectorstore.Exists("year")))},
		{DocIDs: []string{"a"}, Metadata: map[string]string{"lang": "en"}, Where: vectorstore.In("year", "2023")},
	}
	var records []vectorstore.Record
	for _, doc := range []string{"a", "b", "c"} {
		for _, tenant := range []string{"acme", "globex", ""} {
			for _, lang := range []string{"en", "de"} {
				for _, year := range []string{"2023", "2024", ""} {
					md := map[string]string{"lang": lang}
					if tenant != "" {
						md["tenant"] = tenant
					}
					if year != "" {
						md["year"] = year
					}
					records = append(records, vectorstore.Record{ID: fmt.Sprint(len(records)), DocID: doc, Metadata: md})
				}
			}
		}
	}
	for i, a := range filters {
		for j, b := range filters {
			c := meta.Combine(a, b)
			if err := c.Check(); err != nil {
				t.Fatalf("filters %d and %d: %v", i, j, err)
			}
			for _, r := range records {
				if got, want := c.Match(r), a.Match(r) && b.Match(r); got != want {
					t.Errorf("filters %d and %d, record %s %v: %v, want %v", i, j, r.DocID, r.Metadata, got, want)
				}
			}
		}
	}
}
