package retrieve_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// A filter of Where conditions (not in, numeric and time ranges, exists,
// and, or, not) keeps every record it excludes out of every passage, by
// every search and widener: the windows and segments read through Range
// leave them out as the searches do.
func TestRichFilterEveryPath(t *testing.T) {
	emb := &lexical.Embedder{}
	store := &memory.Store{}
	var recs []vectorstore.Record
	for d, doc := range []string{"a", "b", "c"} {
		for i := range 12 {
			md := map[string]string{
				"clearance": []string{"public", "internal", "secret"}[(i+d)%3],
				"year":      fmt.Sprint(2018 + (i*5+d)%8),
				"at":        time.Date(2024, 1, 1+i, 0, 0, 0, 0, time.UTC).Format(time.RFC3339),
			}
			if (i+2*d)%4 == 0 {
				md["draft"] = "yes"
			}
			if i == 5 {
				md["year"] = "n/a" // never in a range
			}
			text := fmt.Sprintf("Unit u%s%d: the budget review of the quarter, note %d of %s.", doc, i, i, doc)
			vec, err := emb.Embed(bg, []string{text})
			require.NoError(t, err)
			recs = append(recs, vectorstore.Record{ID: fmt.Sprintf("%s#%d", doc, i), DocID: doc, Index: i,
				Start: 100 * i, End: 100*i + len(text), Text: text, Vector: vec[0], Metadata: md})
		}
	}
	require.NoError(t, store.Upsert(bg, recs...))
	filter := vectorstore.Filter{Where: vectorstore.And(
		vectorstore.Not(vectorstore.In("clearance", "secret")),
		vectorstore.Between("year", 2019, 2023),
		vectorstore.Or(
			vectorstore.Not(vectorstore.Exists("draft")),
			vectorstore.TimeBetween("at", time.Date(2024, 1, 8, 0, 0, 0, 0, time.UTC), time.Time{}),
		),
	)}
	var excluded, kept []vectorstore.Record
	for _, r := range recs {
		if filter.Match(r) {
			kept = append(kept, r)
		} else {
			excluded = append(excluded, r)
		}
	}
	require.NotEmpty(t, kept)
	require.Greater(t, len(excluded), len(kept)/2, "the filter excludes a good share")
	eachPath(t, store, func(t *testing.T, s vectorstore.VectorStore, search retrieve.Search, w namedWidener) {
		r := newRetriever(t, retrieve.Config{Store: s, Embedder: emb, Search: search, Filter: filter, Widener: w.w, Passages: 30})
		ps, err := r.Retrieve(bg, "budget review of the quarter note")
		require.NoError(t, err)
		require.NotEmpty(t, ps)
		for _, p := range ps {
			for _, rec := range excluded {
				marker := strings.Fields(rec.Text)[1] // "u<doc><i>:"
				require.NotContains(t, p.Text, marker, "passage %s#%d-%d holds excluded %s", p.DocID, p.First, p.Last, rec.ID)
				requireNotSpanned(t, p, rec)
			}
			for _, h := range p.Hits {
				require.True(t, filter.Match(h.Record), "hit %s", h.ID)
			}
		}
		if w.w != nil {
			require.True(t, slices.ContainsFunc(ps, func(p retrieve.Passage) bool { return p.Last > p.First }), "some passage is wider than a hit")
		}
	})
}
