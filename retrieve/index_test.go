package retrieve_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// TestIndexEqualsExact checks that a Retriever over a store with the
// approximate index, scanning every list, returns exactly what it returns
// over the exact store: the index changes which records a search scores,
// never how, so at full width nothing else may change.
func TestIndexEqualsExact(t *testing.T) {
	words := strings.Fields("river bank loan interest water flow credit stone bridge account fish boat rate money current deposit")
	r := rand.New(rand.NewPCG(7, 7))
	emb := &lexical.Embedder{}
	var recs []vectorstore.Record
	var texts []string
	for d := range 100 {
		for i := range 10 {
			var b strings.Builder
			for range 12 {
				b.WriteString(words[r.IntN(len(words))] + " ")
			}
			recs = append(recs, vectorstore.Record{ID: fmt.Sprintf("d%d#%d", d, i), DocID: fmt.Sprintf("d%d", d), Index: i,
				Text: b.String(), Metadata: map[string]string{"shelf": fmt.Sprint(d % 3)}})
			texts = append(texts, b.String())
		}
	}
	vecs, err := emb.Embed(bg, texts)
	require.NoError(t, err)
	for i := range recs {
		recs[i].Vector = vecs[i]
	}
	stores := map[string]*memory.Store{}
	for name, idx := range map[string]memory.IndexConfig{
		"exact": {},
		"index": {IVF: true, MinRecords: 1, Lists: 20, Probes: 20},
	} {
		m, err := memory.New(memory.Config{Compact: true, Index: idx})
		require.NoError(t, err)
		require.NoError(t, m.Upsert(bg, recs...))
		stores[name] = m
	}
	for _, search := range []retrieve.Search{retrieve.Vector, retrieve.Hybrid} {
		for _, filter := range []vectorstore.Filter{{}, {Metadata: map[string]string{"shelf": "1"}}} {
			got := map[string][]retrieve.Passage{}
			for name, m := range stores {
				rt, err := retrieve.New(retrieve.Config{Store: m, Embedder: emb, Search: search, Filter: filter, Passages: 8})
				require.NoError(t, err)
				for _, q := range []string{"river bank water", "loan interest rate", "stone bridge boat fish"} {
					ps, err := rt.Retrieve(bg, q)
					require.NoError(t, err)
					got[name] = append(got[name], ps...)
				}
			}
			require.NotEmpty(t, got["exact"])
			require.Equal(t, got["exact"], got["index"], "search %v, filter %+v", search, filter)
		}
	}
}
