package storetest

import (
	"math"
	"slices"
	"testing"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/stretchr/testify/require"
)

// keywordRecords are texts whose words do not share a stem, so that a
// store that stems and one that does not find the same records.
func keywordRecords() []vectorstore.Record {
	rec := func(id, doc, kind, text string, v ...float32) vectorstore.Record {
		return vectorstore.Record{ID: id, DocID: doc, Index: int(id[1] - '0'), Text: text, Vector: v, Metadata: map[string]string{"kind": kind}}
	}
	return []vectorstore.Record{
		rec("k0", "billing", "report", "invoice 4711 was paid by the customer", 1, 0),
		rec("k1", "billing", "memo", "the customer asked about invoice 4712", 1, 1),
		rec("k2", "logistics", "report", "shipping delayed by snow in Zurich", 0, 1),
		rec("k3", "logistics", "memo", "snow and ice closed the road", -1, 1),
		rec("k4", "misc", "memo", "the of and", -1, 0),
		rec("k5", "billing", "report", "invoice invoice invoice overdue", 1, -1),
	}
}

// keywords checks QueryKeywords, if the store has it: which records a
// query finds (by their Text and their Notes.Keywords), order,
// filters, k, no vectors, the errors, and that the index follows writes.
func (s suite) keywords(t *testing.T) {
	recs := keywordRecords()
	st := s.store(t, 2, recs...)
	kq, ok := st.(vectorstore.KeywordQuerier)
	if !ok {
		t.Skip("the store does not implement vectorstore.KeywordQuerier")
	}
	byID := map[string]vectorstore.Record{}
	for _, r := range recs {
		byID[r.ID] = r
	}
	find := func(query string, k int, f vectorstore.Filter) []string {
		t.Helper()
		hits, err := kq.QueryKeywords(bg, query, k, f)
		require.NoError(t, err, "query %q", query)
		for i, h := range hits {
			s.checkRecord(t, byID[h.ID], h.Record, false)
			require.False(t, math.IsNaN(float64(h.Score)), "query %q: hit %s", query, h.ID)
			if i > 0 {
				require.LessOrEqual(t, h.Score, hits[i-1].Score, "query %q: hits out of order at %d", query, i)
			}
		}
		return slices.Sorted(slices.Values(hitIDs(hits)))
	}
	none := vectorstore.Filter{}
	require.Equal(t, []string{"k0", "k1", "k5"}, find("invoice", 10, none))
	require.Equal(t, []string{"k0"}, find("4711", 10, none))
	require.Equal(t, []string{"k0", "k1", "k2", "k3", "k5"}, find("Invoice SNOW", 10, none), "a record needs one word of the query")
	require.Equal(t, []string{"k3"}, find("snow", 10, vectorstore.Filter{DocIDs: []string{"logistics", "misc"}, Metadata: map[string]string{"kind": "memo"}}))
	require.Empty(t, find("invoice", 10, vectorstore.Filter{DocIDs: []string{"logistics"}}))
	require.Len(t, find("invoice snow", 2, none), 2)
	for _, q := range []string{"the of and", "... !!! ---", "unknownword"} {
		require.Empty(t, find(q, 10, none), "query %q", q)
	}
	hits, err := kq.QueryKeywords(bg, "invoice", 1, none)
	require.NoError(t, err)
	require.Equal(t, []string{"k5"}, hitIDs(hits), "the record that says it three times in four words")

	for _, tt := range []struct {
		name, query string
		k           int
	}{
		{"empty", "", 5},
		{"white space", " \t\n", 5},
		{"invalid UTF-8", "caf\xe9", 5},
		{"k zero", "invoice", 0},
		{"k negative", "invoice", -1},
	} {
		hits, err := kq.QueryKeywords(bg, tt.query, tt.k, none)
		require.ErrorIs(t, err, vectorstore.ErrInvalidArgument, tt.name)
		require.Nil(t, hits, tt.name)
	}

	// The index follows Upsert and DeleteDocument.
	k2 := byID["k2"]
	k2.Text = "shipping delayed by rain in Zurich"
	byID["k2"] = k2
	require.NoError(t, st.Upsert(bg, k2))
	require.Equal(t, []string{"k3"}, find("snow", 10, none))
	require.Equal(t, []string{"k2"}, find("rain", 10, none))

	// The words of Notes.Keywords are found as the text's are, and
	// follow Upsert too.
	k3 := byID["k3"]
	k3.Notes.Keywords = "winter report from Geneva"
	byID["k3"] = k3
	require.NoError(t, st.Upsert(bg, k3))
	require.Equal(t, []string{"k3"}, find("geneva", 10, none))
	require.Equal(t, []string{"k3"}, find("snow", 10, none), "the text is still searched")
	k3.Notes.Keywords = "spring notes from Basel"
	byID["k3"] = k3
	require.NoError(t, st.Upsert(bg, k3))
	require.Empty(t, find("geneva", 10, none))
	require.Equal(t, []string{"k3"}, find("basel", 10, none))
	require.NoError(t, st.DeleteDocument(bg, "billing"))
	require.Empty(t, find("invoice", 10, none))
}
