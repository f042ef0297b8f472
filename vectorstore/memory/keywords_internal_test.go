package memory

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/stretchr/testify/require"
)

// TestKeywordIndexInvariants checks the index's bookkeeping after every
// write of a random sequence with much churn: the scores depend only on
// the live postings (the external tests check them), but the dead ones
// must be compacted away and the kids and lists reused, or the index
// grows without bound.
func TestKeywordIndexInvariants(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2))
	words := strings.Fields("alpha beta gamma delta epsilon the of 東京都 zeta eta theta café Café")
	text := func() string {
		w := make([]string, r.IntN(12))
		for i := range w {
			w[i] = words[r.IntN(len(words))]
		}
		return strings.Join(w, " ")
	}
	var m Store
	ctx := context.Background()
	maxKids := 0
	for step := range 3000 {
		switch r.IntN(4) {
		case 0, 1:
			recs := make([]vectorstore.Record, 1+r.IntN(5))
			for i := range recs {
				recs[i] = vectorstore.Record{ID: fmt.Sprint(r.IntN(40)), DocID: fmt.Sprint(r.IntN(5)), Text: text(), Vector: []float32{1, 2}}
				if r.IntN(2) == 0 {
					// the words of the notes count as the text's
					recs[i].Notes.Keywords = text()
				}
			}
			require.NoError(t, m.Upsert(ctx, recs...))
		case 2:
			require.NoError(t, m.Delete(ctx, fmt.Sprint(r.IntN(40))))
		case 3:
			require.NoError(t, m.DeleteDocument(ctx, fmt.Sprint(r.IntN(5))))
		}
		checkKeywordIndex(t, &m, step)
		maxKids = max(maxKids, len(m.kw.kids))
	}
	// 40 IDs at most are live; dead kids wait only for their lists.
	require.Less(t, maxKids, 200, "kids are not reused")
}

func checkKeywordIndex(t *testing.T, m *Store, step int) {
	t.Helper()
	kw := &m.kw
	require.Len(t, kw.bySlot, len(m.st.recs), "step %d", step)
	var total int64
	refs := make([]int32, len(kw.kids))
	live := map[string]int{} // term -> live postings, by analysis
	var a analyzer
	for slot, id := range kw.bySlot {
		kd := kw.kids[id]
		require.Equal(t, int32(slot), kd.slot, "step %d: slot of kid %d", step, id)
		a.analyzeRecord(&m.st.recs[slot])
		require.Equal(t, int32(len(a.ends)), kd.length, "step %d: length of kid %d", step, id)
		total += int64(kd.length)
		seen := map[string]bool{}
		for i := range a.ends {
			if term := string(a.term(i)); !seen[term] {
				seen[term] = true
				live[term]++
			}
		}
	}
	require.Equal(t, total, kw.total, "step %d: total", step)
	require.Len(t, kw.ids, len(kw.lists)-len(kw.freeLists), "step %d: lists in use", step)
	for term, l := range kw.ids {
		p := &kw.lists[l]
		require.Equal(t, term, p.term, "step %d", step)
		dead := 0
		var kids []int32
		for _, ps := range p.list {
			refs[ps.kid]++
			kids = append(kids, ps.kid)
			if kw.kids[ps.kid].slot < 0 {
				dead++
			}
		}
		require.Equal(t, dead, p.dead, "step %d: dead postings of %q", step, term)
		require.LessOrEqual(t, 2*p.dead, len(p.list), "step %d: list %q not compacted", step, term)
		require.Equal(t, live[term], p.live(), "step %d: df of %q", step, term)
		slices.Sort(kids)
		require.Len(t, slices.Compact(kids), len(p.list), "step %d: a kid twice in %q", step, term)
	}
	for id, kd := range kw.kids {
		require.Equal(t, refs[id], kd.refs, "step %d: refs of kid %d", step, id)
		if slices.Contains(kw.freeKids, int32(id)) {
			require.Equal(t, int32(-1), kd.slot, "step %d: free kid %d is live", step, id)
			require.Zero(t, kd.refs, "step %d: free kid %d is named", step, id)
		} else if kd.slot < 0 {
			require.Positive(t, kd.refs, "step %d: dead kid %d neither named nor free", step, id)
		}
	}
}
