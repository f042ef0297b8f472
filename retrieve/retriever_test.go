package retrieve_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount/tokentest"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/ragkit/ragkit/window"
)

// vectorOnly hides every method of a Memory but those of VectorStore: a
// store without keyword search.
type vectorOnly struct{ m *memory.Store }

func (s vectorOnly) Upsert(ctx context.Context, r ...vectorstore.Record) error {
	return s.m.Upsert(ctx, r...)
}
func (s vectorOnly) Query(ctx context.Context, v []float32, k int, f vectorstore.Filter) ([]vectorstore.Hit, error) {
	return s.m.Query(ctx, v, k, f)
}
func (s vectorOnly) Range(ctx context.Context, d string, from, to int) ([]vectorstore.Record, error) {
	return s.m.Range(ctx, d, from, to)
}
func (s vectorOnly) DeleteDocument(ctx context.Context, d string) error {
	return s.m.DeleteDocument(ctx, d)
}

// twoSearches is a store with vector and keyword search but not
// vectorstore.HybridQuerier: a Retriever runs the searches side by side.
type twoSearches struct{ vectorOnly }

func (s twoSearches) QueryKeywords(ctx context.Context, q string, k int, f vectorstore.Filter) ([]vectorstore.Hit, error) {
	return s.m.QueryKeywords(ctx, q, k, f)
}

func newRetriever(t *testing.T, cfg retrieve.Config) *retrieve.Retriever {
	t.Helper()
	r, err := retrieve.New(cfg)
	require.NoError(t, err)
	return r
}

func TestConfigErrors(t *testing.T) {
	store, emb := folder(t, 40, threeNotes...)
	for _, tt := range []struct {
		name string
		cfg  retrieve.Config
		msg  string
	}{
		{"no store", retrieve.Config{Embedder: emb}, "Store is nil"},
		{"no embedder", retrieve.Config{Store: store}, "Embedder is nil"},
		{"search out of range", retrieve.Config{Store: store, Embedder: emb, Search: 7}, "Search is Search(7)"},
		{"keywords without keyword search", retrieve.Config{Store: vectorOnly{store}, Search: retrieve.Keywords}, "Search is Keywords"},
		{"negative passages", retrieve.Config{Store: store, Embedder: emb, Passages: -1}, "Passages is -1"},
		{"negative depth", retrieve.Config{Store: store, Embedder: emb, Depth: -2}, "Depth is -2"},
		{"one weight", retrieve.Config{Store: store, Embedder: emb, Fusion: retrieve.FusionConfig{Weights: []float64{1}}}, "Fusion.Weights has 1 weights"},
		{"NaN weight", retrieve.Config{Store: store, Embedder: emb, Fusion: retrieve.FusionConfig{Weights: []float64{1, math.NaN()}}}, "Fusion.Weights[1] is NaN"},
		{"negative K", retrieve.Config{Store: store, Embedder: emb, Fusion: retrieve.FusionConfig{K: -1}}, "Fusion.K is -1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := retrieve.New(tt.cfg)
			require.Nil(t, r)
			require.ErrorIs(t, err, retrieve.ErrConfig)
			require.ErrorContains(t, err, "retrieve: invalid configuration: "+tt.msg)
		})
	}
	t.Run("keywords need no embedder", func(t *testing.T) {
		r := newRetriever(t, retrieve.Config{Store: store, Search: retrieve.Keywords})
		ps, err := r.Retrieve(bg, "vacation days")
		require.NoError(t, err)
		require.Equal(t, "vacation.md", ps[0].DocID)
	})
	t.Run("defaults resolved", func(t *testing.T) {
		cfg := newRetriever(t, retrieve.Config{Store: store, Embedder: emb}).Config()
		assert.Equal(t, retrieve.DefaultPassages, cfg.Passages)
		assert.Equal(t, retrieve.DefaultDepth, cfg.Depth)
		assert.Equal(t, retrieve.DefaultFusion(), cfg.Fusion)
		assert.Equal(t, 200, newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Passages: 200}).Config().Depth, "deep enough for the passages")
	})
}

func TestSearchString(t *testing.T) {
	assert.Equal(t, "Hybrid", retrieve.Hybrid.String())
	assert.Equal(t, "Keywords", retrieve.Keywords.String())
	assert.Equal(t, "Search(-1)", retrieve.Search(-1).String())
}

// TestStoreWithoutKeywordSearch: Hybrid over a store without keyword search
// is the vector search alone, not an error.
func TestStoreWithoutKeywordSearch(t *testing.T) {
	store, emb := folder(t, 40, twelveNotes...)
	const q = "Who has to approve a code review before merging?"
	hybrid, err := newRetriever(t, retrieve.Config{Store: vectorOnly{store}, Embedder: emb}).Retrieve(bg, q)
	require.NoError(t, err)
	vector, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Search: retrieve.Vector}).Retrieve(bg, q)
	require.NoError(t, err)
	require.Equal(t, vector, hybrid)
	for _, p := range hybrid {
		require.Len(t, p.Hits, 1)
		require.Less(t, p.Score, float32(1.0001), "cosine scores, not fused ones")
	}
	both, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb}).Retrieve(bg, q)
	require.NoError(t, err)
	require.NotEqual(t, vector, both, "with keyword search the ranking differs")
}

// TestHybridPaths: a store that runs both searches in one call and one
// that runs them side by side give the same passages.
func TestHybridPaths(t *testing.T) {
	store, emb := folder(t, 40, twelveNotes...)
	for _, q := range []string{"Who has to approve a code review before merging?", "how often do performance reviews happen", "pension"} {
		one, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb}).Retrieve(bg, q)
		require.NoError(t, err)
		two, err := newRetriever(t, retrieve.Config{Store: twoSearches{vectorOnly{store}}, Embedder: emb}).Retrieve(bg, q)
		require.NoError(t, err)
		for i := range two { // Query copies the vectors; the Retriever drops them
			for _, h := range two[i].Hits {
				require.Nil(t, h.Vector)
			}
		}
		require.Equal(t, one, two, q)
	}
}

// TestRetrieveVector: the vector variant gives what Retrieve gives, and a
// vector of the wrong dimension a clear error before any search.
func TestRetrieveVector(t *testing.T) {
	store, emb := folder(t, 40, threeNotes...)
	r := newRetriever(t, retrieve.Config{Store: store, Embedder: emb})
	const q = "How many vacation days?"
	want, err := r.Retrieve(bg, q)
	require.NoError(t, err)
	vec, err := emb.Embed(bg, []string{q})
	require.NoError(t, err)
	got, err := r.RetrieveVector(bg, q, vec[0])
	require.NoError(t, err)
	require.Equal(t, want, got)

	_, err = r.RetrieveVector(bg, q, []float32{1, 0, 0})
	require.ErrorIs(t, err, vectorstore.ErrDimensionMismatch)
	require.ErrorContains(t, err, "query has 3, store has 2048")
	_, err = r.RetrieveVector(bg, q, nil)
	require.ErrorIs(t, err, vectorstore.ErrInvalidArgument)
	// So does a store of vector search alone.
	_, err = newRetriever(t, retrieve.Config{Store: vectorOnly{store}, Embedder: emb}).RetrieveVector(bg, q, []float32{1, 0, 0})
	require.ErrorIs(t, err, vectorstore.ErrDimensionMismatch)
}

func TestRetrieveErrors(t *testing.T) {
	store, emb := folder(t, 40, threeNotes...)
	r := newRetriever(t, retrieve.Config{Store: store, Embedder: emb})
	for _, q := range []string{"", " \n\t"} {
		_, err := r.Retrieve(bg, q)
		require.ErrorIs(t, err, vectorstore.ErrInvalidArgument)
	}
	down := errors.New("embedder down")
	broken := newRetriever(t, retrieve.Config{Store: store, Embedder: embedFunc(func([]string) ([][]float32, error) { return nil, down })})
	_, err := broken.Retrieve(bg, "vacation")
	require.ErrorIs(t, err, down)
	none := newRetriever(t, retrieve.Config{Store: store, Embedder: embedFunc(func([]string) ([][]float32, error) { return nil, nil })})
	_, err = none.Retrieve(bg, "vacation")
	require.ErrorContains(t, err, "returned 0 vectors for one question")
	failing := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Widener: widenFunc(func([]vectorstore.Hit) ([]window.Window, error) { return nil, down })})
	_, err = failing.Retrieve(bg, "vacation")
	require.ErrorIs(t, err, down)
}

type embedFunc func([]string) ([][]float32, error)

func (f embedFunc) Embed(_ context.Context, texts []string) ([][]float32, error) { return f(texts) }

// widenFunc is a Widener of a test's own.
type widenFunc func(hits []vectorstore.Hit) ([]window.Window, error)

func (f widenFunc) Widen(_ context.Context, _ window.Source, hits []vectorstore.Hit) ([]window.Window, error) {
	return f(hits)
}

// cancelling is a store whose reads cancel the query's context: a
// Retriever stops with the context's error wherever it is.
type cancelling struct {
	*memory.Store
	cancel context.CancelFunc
	at     string
}

func (c cancelling) QueryHybrid(ctx context.Context, v []float32, text string, k int, f vectorstore.Filter) ([]vectorstore.Hit, []vectorstore.Hit, error) {
	if c.at == "search" {
		c.cancel()
	}
	return c.Store.QueryHybrid(ctx, v, text, k, f)
}

func (c cancelling) Range(ctx context.Context, docID string, from, to int) ([]vectorstore.Record, error) {
	if c.at == "range" {
		c.cancel()
	}
	return c.Store.Range(ctx, docID, from, to)
}

func TestCancellation(t *testing.T) {
	store, emb := folder(t, 40, threeNotes...)
	ctx, cancel := context.WithCancel(bg)
	cancel()
	_, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb}).Retrieve(ctx, "vacation days")
	require.ErrorIs(t, err, context.Canceled)
	for _, at := range []string{"search", "range"} {
		for _, w := range wideners(t, store) {
			t.Run(at+"/"+w.name, func(t *testing.T) {
				ctx, cancel := context.WithCancel(bg)
				defer cancel()
				src := cancelling{Store: store, cancel: cancel, at: at}
				r := newRetriever(t, retrieve.Config{Store: src, Embedder: emb, Widener: w.w, Filter: w.filter})
				_, err := r.Retrieve(ctx, "vacation days")
				if w.w == nil && at == "range" {
					require.NoError(t, err, "no widener reads no range")
					return
				}
				require.ErrorIs(t, err, context.Canceled)
			})
		}
	}
}

type namedWidener struct {
	name   string
	w      retrieve.Widener
	filter vectorstore.Filter
}

// wideners returns no widener, sentence windows and segments, over store.
func wideners(t *testing.T, store *memory.Store) []namedWidener {
	t.Helper()
	e, err := window.NewExpander(window.ExpanderConfig{Source: store, Size: 2})
	require.NoError(t, err)
	x, err := window.NewExtractor(window.ExtractorConfig{Source: store})
	require.NoError(t, err)
	return []namedWidener{{name: "hits"}, {name: "windows", w: e}, {name: "segments", w: x}}
}

// TestFilterEveryPath: a record the filter excludes reaches no passage,
// by any search, and not as the neighbour a window or a segment reads.
func TestFilterEveryPath(t *testing.T) {
	emb := &lexical.Embedder{}
	store := &memory.Store{}
	var recs []vectorstore.Record
	for d, doc := range []string{"a", "b"} {
		for i := range 9 {
			team := "red"
			if (i+d)%3 == 1 {
				team = "blue"
			}
			text := fmt.Sprintf("Note %d of %s for the %s team: the budget review is on day %d.", i, doc, team, i)
			vec, err := emb.Embed(bg, []string{text})
			require.NoError(t, err)
			recs = append(recs, vectorstore.Record{ID: fmt.Sprintf("%s#%d", doc, i), DocID: doc, Index: i,
				Start: 100 * i, End: 100*i + len(text), Text: text, Vector: vec[0],
				Metadata: map[string]string{"team": team}})
		}
	}
	require.NoError(t, store.Upsert(bg, recs...))
	filter := vectorstore.Filter{Metadata: map[string]string{"team": "red"}}
	eachPath(t, store, func(t *testing.T, s vectorstore.VectorStore, search retrieve.Search, w namedWidener) {
		r := newRetriever(t, retrieve.Config{Store: s, Embedder: emb, Search: search, Filter: filter, Widener: w.w, Passages: 20})
		ps, err := r.Retrieve(bg, "blue team budget review day")
		require.NoError(t, err)
		require.NotEmpty(t, ps)
		for _, p := range ps {
			require.NotContains(t, p.Text, "blue", "passage %s#%d-%d", p.DocID, p.First, p.Last)
			for _, rec := range recs { // no span that holds an excluded record
				if rec.Metadata["team"] == "blue" {
					requireNotSpanned(t, p, rec)
				}
			}
			for _, h := range p.Hits {
				require.Equal(t, "red", h.Metadata["team"])
			}
		}
		if w.w != nil {
			require.True(t, slices.ContainsFunc(ps, func(p retrieve.Passage) bool { return p.Last > p.First }), "some passage is wider than a hit")
		}
	})
}

// requireNotSpanned fails when the passage p spans the record rec (an
// excluded one): of its document, their byte ranges overlapping.
func requireNotSpanned(t *testing.T, p retrieve.Passage, rec vectorstore.Record) {
	t.Helper()
	if rec.DocID == p.DocID && p.End > p.Start {
		require.False(t, p.Start < rec.End && rec.Start < p.End, "passage %s [%d, %d) spans %s", p.DocID, p.Start, p.End, rec.ID)
	}
}

// eachPath runs f as a subtest for every search, every kind of store
// (one answering both searches, two searches side by side, vectors only)
// and every widener over store: the paths a passage can take.
func eachPath(t *testing.T, store *memory.Store, f func(t *testing.T, s vectorstore.VectorStore, search retrieve.Search, w namedWidener)) {
	t.Helper()
	stores := map[string]vectorstore.VectorStore{"memory": store, "side by side": twoSearches{vectorOnly{store}}, "vector only": vectorOnly{store}}
	for _, search := range []retrieve.Search{retrieve.Vector, retrieve.Keywords, retrieve.Hybrid} {
		for name, s := range stores {
			if _, ok := s.(vectorstore.KeywordQuerier); !ok && search == retrieve.Keywords {
				continue
			}
			for _, w := range wideners(t, store) {
				t.Run(fmt.Sprintf("%v/%s/%s", search, name, w.name), func(t *testing.T) { f(t, s, search, w) })
			}
		}
	}
}

// TestRankingRule checks the rule of Passage on windows of a Widener of
// the test's own: the strongest hit first, ties at the top broken by the
// hits that follow, then by more hits, then by document order.
func TestRankingRule(t *testing.T) {
	store, emb := folder(t, 40, threeNotes...)
	hit := func(doc string, idx int, score float32) vectorstore.Hit {
		return vectorstore.Hit{Record: vectorstore.Record{ID: fmt.Sprintf("%s#%d", doc, idx), DocID: doc, Index: idx, Text: "x"}, Score: score}
	}
	win := func(doc string, first int, hits ...vectorstore.Hit) window.Window {
		var value float64
		for range hits {
			value++ // as a segment's value grows with its hits
		}
		return window.Window{DocID: doc, First: first, Last: first + 3, Text: doc + " text", Value: value, Hits: hits}
	}
	for _, tt := range []struct {
		name    string
		windows []window.Window
		want    []string
	}{
		{"the best hit beats many weaker ones", []window.Window{
			win("many", 0, hit("many", 0, 0.5), hit("many", 1, 0.5), hit("many", 2, 0.5), hit("many", 3, 0.49)),
			win("best", 0, hit("best", 2, 0.51)),
		}, []string{"best", "many"}},
		{"a tie at the top goes to the stronger next hit", []window.Window{
			win("weak", 0, hit("weak", 0, 0.9), hit("weak", 1, 0.1)),
			win("strong", 0, hit("strong", 1, 0.9), hit("strong", 2, 0.5)),
		}, []string{"strong", "weak"}},
		{"equal hits, then more of them", []window.Window{
			win("one", 0, hit("one", 0, 0.9)),
			win("two", 0, hit("two", 0, 0.9), hit("two", 1, 0.2)),
		}, []string{"two", "one"}},
		{"hits in any order", []window.Window{
			win("late", 0, hit("late", 0, 0.2), hit("late", 1, 0.8)),
			win("early", 0, hit("early", 0, 0.7)),
		}, []string{"late", "early"}},
		{"full ties in document order", []window.Window{
			win("b", 4, hit("b", 5, 0.5)), win("b", 0, hit("b", 1, 0.5)), win("a", 9, hit("a", 9, 0.5)),
		}, []string{"a", "b", "b"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := widenFunc(func([]vectorstore.Hit) ([]window.Window, error) { return tt.windows, nil })
			ps, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Widener: w}).Retrieve(bg, "vacation")
			require.NoError(t, err)
			require.Equal(t, tt.want, passageDocs(ps))
			for _, p := range ps {
				require.Equal(t, p.Hits[0].Score, p.Score, "a passage's score is its best hit's")
				for i := 1; i < len(p.Hits); i++ {
					require.GreaterOrEqual(t, p.Hits[i-1].Score, p.Hits[i].Score)
				}
			}
			if tt.name == "full ties in document order" {
				require.Equal(t, []int{9, 0, 4}, []int{ps[0].First, ps[1].First, ps[2].First})
			}
		})
	}
}

// TestTiesInDocumentOrder: records of equal score come back in document
// order, whatever their IDs, by every search.
func TestTiesInDocumentOrder(t *testing.T) {
	emb := &lexical.Embedder{}
	store := &memory.Store{}
	text := "The pump runs at night."
	vec, err := emb.Embed(bg, []string{text})
	require.NoError(t, err)
	// IDs in the reverse of document order.
	for i, place := range []struct{ doc string }{{"c"}, {"b"}, {"a"}} {
		for j := range 2 {
			require.NoError(t, store.Upsert(bg, vectorstore.Record{ID: fmt.Sprintf("z%d-%d", 9-i, 9-j), DocID: place.doc, Index: 5 - j, Text: text, Vector: vec[0]}))
		}
	}
	for _, search := range []retrieve.Search{retrieve.Vector, retrieve.Keywords, retrieve.Hybrid} {
		ps, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Search: search, Passages: 6}).Retrieve(bg, "when does the pump run")
		require.NoError(t, err)
		var got []string
		for _, p := range ps {
			got = append(got, fmt.Sprintf("%s%d", p.DocID, p.First))
		}
		require.Equal(t, []string{"a4", "a5", "b4", "b5", "c4", "c5"}, got, "%v", search)
	}
}

func TestPassagesAndDepth(t *testing.T) {
	store, emb := folder(t, 40, twelveNotes...)
	// 16 chunks in all: 30 passages are all of them.
	for _, tt := range []struct{ passages, depth, want int }{{1, 0, 1}, {3, 0, 3}, {5, 2, 2}, {30, 0, 16}} {
		ps, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Passages: tt.passages, Depth: tt.depth}).Retrieve(bg, "review")
		require.NoError(t, err)
		require.Len(t, ps, tt.want, "%+v", tt)
	}
}

func TestTokens(t *testing.T) {
	store, emb := folder(t, 40, threeNotes...)
	r := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Tokenizer: tokentest.Words{}})
	ps, err := r.Retrieve(bg, "vacation days")
	require.NoError(t, err)
	for _, p := range ps {
		require.Equal(t, len(strings.Fields(p.Text)), p.Tokens)
	}
	ps, err = newRetriever(t, retrieve.Config{Store: store, Embedder: emb}).Retrieve(bg, "vacation days")
	require.NoError(t, err)
	require.Zero(t, ps[0].Tokens, "nothing counts without a tokenizer")
}

func TestItems(t *testing.T) {
	ps := []retrieve.Passage{
		{DocID: "travel.md", Title: "Travel policy", Section: []string{"Hotels", "Asia"}, First: 3, Last: 5, Text: "Hotels in Asia."},
		{DocID: "notes.txt", First: 2, Last: 2, Text: "A note."},
	}
	items, err := retrieve.Items(ps, retrieve.ItemConfig{Label: retrieve.Citation, Role: "user"})
	require.NoError(t, err)
	require.Equal(t, []budget.Item{
		{Text: "[Travel policy, Hotels > Asia]\nHotels in Asia.", ID: "travel.md#3-5", Rank: 2, Role: "user",
			Keep: []segment.Span{{Start: 0, End: len("[Travel policy, Hotels > Asia]")}}}, // the label: no hits
		{Text: "[notes.txt]\nA note.", ID: "notes.txt#2", Rank: 1, Role: "user", Keep: []segment.Span{{Start: 0, End: len("[notes.txt]")}}},
	}, items)
	items, err = retrieve.Items(ps, retrieve.ItemConfig{Label: func(retrieve.Passage) string { return "" }})
	require.NoError(t, err)
	require.Equal(t, "Hotels in Asia.", items[0].Text)
	items, err = retrieve.Items(nil, retrieve.ItemConfig{})
	require.NoError(t, err)
	require.Empty(t, items)

	for _, tt := range []struct {
		name  string
		p     retrieve.Passage
		label func(retrieve.Passage) string
		err   error
	}{
		{"empty text", retrieve.Passage{DocID: "d", Text: " \n"}, nil, retrieve.ErrEmptyText},
		{"invalid text", retrieve.Passage{DocID: "d", Text: "a\xff"}, nil, retrieve.ErrInvalidUTF8},
		{"invalid label", retrieve.Passage{DocID: "d", Text: "a"}, func(p retrieve.Passage) string { return p.DocID[:1] + "\xff" }, retrieve.ErrInvalidUTF8},
	} {
		t.Run(tt.name, func(t *testing.T) {
			label := tt.label
			if label != nil {
				label = func(p retrieve.Passage) string {
					if p.DocID == "d" {
						return tt.label(p)
					}
					return ""
				}
			}
			_, err := retrieve.Items([]retrieve.Passage{ps[0], tt.p}, retrieve.ItemConfig{Label: label})
			require.ErrorIs(t, err, tt.err)
			require.ErrorContains(t, err, "passage 1 (d#0)")
		})
	}
}

// TestItemsKeepTheAnswerUnderATightBudget: the first regression's budget
// of 120 tokens dropped the answer when the incident report came first.
func TestItemsKeepTheAnswerUnderATightBudget(t *testing.T) {
	store, emb := folder(t, 40, threeNotes...)
	x, err := window.NewExtractor(window.ExtractorConfig{Source: store})
	require.NoError(t, err)
	ps, err := newRetriever(t, retrieve.Config{Store: store, Embedder: emb, Widener: x}).Retrieve(bg, "How many vacation days?")
	require.NoError(t, err)
	items, err := retrieve.Items(ps, retrieve.ItemConfig{Label: retrieve.Citation})
	require.NoError(t, err)
	tok := tokentest.Words{}
	a, err := budget.New(budget.Config{Tokenizer: tok, Limit: 1000})
	require.NoError(t, err)
	res, err := a.Assemble(budget.Section{Name: "context", MaxTokens: 120, Strategy: budget.DropLowestRank, Items: items})
	require.NoError(t, err)
	require.Contains(t, res.Text, "25 vacation days")
	require.Less(t, tok.Count(res.Text), tok.Count(strings.Join([]string{items[0].Text, items[1].Text, items[2].Text}, "\n")), "the budget dropped something")
}

func TestCitation(t *testing.T) {
	tests := []struct {
		p    retrieve.Passage
		want string
	}{
		{retrieve.Passage{DocID: "a.md"}, "[a.md]"},
		{retrieve.Passage{DocID: "a.md", Title: "Travel policy"}, "[Travel policy]"},
		{retrieve.Passage{Title: "Travel policy", Section: []string{"Hotels", "Asia"}}, "[Travel policy, Hotels > Asia]"},
		{retrieve.Passage{Title: "Travel policy", Section: []string{"Travel policy", "Hotels"}}, "[Travel policy, Hotels]"},
		{retrieve.Passage{Title: "Travel policy", Section: []string{"Travel policy"}}, "[Travel policy]"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, retrieve.Citation(tt.p))
	}
}

// panicking is a store, an embedder and a label that panic, as a caller's
// own may.
type panicking struct{ *memory.Store }

func (panicking) Query(context.Context, []float32, int, vectorstore.Filter) ([]vectorstore.Hit, error) {
	panic("store bug")
}

type panickingEmbedder struct{}

func (panickingEmbedder) Embed(context.Context, []string) ([][]float32, error) { panic("embedder bug") }

// TestCallersPanics: a panic in the caller's embedder, store or label is
// an error wrapping ErrPanic, not a crash (issue 24: errors, never panics,
// whatever a caller's function does).
func TestCallersPanics(t *testing.T) {
	store, emb := folder(t, 40, threeNotes...)
	for name, cfg := range map[string]retrieve.Config{
		"embedder": {Store: store, Embedder: panickingEmbedder{}},
		"store":    {Store: panicking{store}, Embedder: emb, Search: retrieve.Vector},
	} {
		r, err := retrieve.New(cfg)
		require.NoError(t, err, name)
		_, err = r.Retrieve(bg, "How many vacation days?")
		require.ErrorIs(t, err, retrieve.ErrPanic, name)
		require.ErrorContains(t, err, "bug", name)
	}
	_, err := retrieve.Items([]retrieve.Passage{{DocID: "a", Text: "x"}},
		retrieve.ItemConfig{Label: func(retrieve.Passage) string { panic("label bug") }})
	require.ErrorIs(t, err, retrieve.ErrPanic)
}

// TestHugeDepth: Depth and Passages are bounds, not sizes to allocate (the
// quickstart's -k 4000000000 ran out of memory, issue 24).
func TestHugeDepth(t *testing.T) {
	store, emb := folder(t, 40, threeNotes...)
	r, err := retrieve.New(retrieve.Config{Store: store, Embedder: emb, Depth: math.MaxInt, Passages: math.MaxInt})
	require.NoError(t, err)
	allocs := testing.AllocsPerRun(2, func() {
		ps, err := r.Retrieve(bg, "How many vacation days?")
		require.NoError(t, err)
		require.NotEmpty(t, ps)
	})
	require.Less(t, allocs, 20000.0)
}
