package memory_test

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTerms(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		keep       bool
		want       []string
	}{
		{"case and punctuation", "Hello, World! HELLO world.", false, []string{"hello", "world", "hello", "world"}},
		{"stop words left out", "The cat and the hat", false, []string{"cat", "hat"}},
		{"stop words kept", "The cat and the hat", true, []string{"the", "cat", "and", "the", "hat"}},
		{"only stop words", "to be or not to be", false, nil},
		{"apostrophes dropped", "Don’t say don't; O'Brien's", false, []string{"dont", "say", "dont", "obriens"}},
		{"identifiers stay whole", "ERR_CONN_RESET in v1.2.3 at x.com", false, []string{"err_conn_reset", "v1.2.3", "x.com"}},
		{"numbers", "Application 24/01234 cost 1,000.50", false, []string{"application", "24", "01234", "cost", "1,000.50"}},
		{"accents kept, case folded", "Café ZÜRICH naïve", false, []string{"café", "zürich", "naïve"}},
		{"final sigma", "ΣΊΣΥΦΟΣ σίσυφος", false, []string{"σίσυφοσ", "σίσυφοσ"}},
		{"symbols only", "* * * -- @ #", false, nil},
		{"empty", "", false, nil},
		{"han bigrams", "東京都", false, []string{"東京", "京都"}},
		{"lone han", "猫", false, []string{"猫"}},
		{"han and hiragana in one run", "東京の天気", false, []string{"東京", "京の", "の天", "天気"}},
		{"katakana word, han run", "東京タワー", false, []string{"東京", "タワー"}},
		{"space breaks a run", "東京 都", false, []string{"東京", "都"}},
		{"mixed scripts", "Hello 世界 abc日本def", false, []string{"hello", "世界", "abc", "日本", "def"}},
		{"hangul words", "한국어 텍스트", false, []string{"한국어", "텍스트"}},
		{"thai pairs", "ไทย", false, []string{"ไท", "ทย"}},
		{"a thai mark alone is no term", "ุ ไ", false, []string{"ไ"}},
		{"cut at a narrow no-break space", "Α\u202f0 12\u202f345 km", false, []string{"α", "0", "12", "345", "km"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := memory.Terms(tt.text, tt.keep)
			if len(tt.want) == 0 {
				require.Empty(t, got)
				return
			}
			require.Equal(t, tt.want, got)
		})
	}
}

// TestStemmedTerms: by default English words are indexed and queried as
// their Porter2 stems, so that the forms of a word find each other.
func TestStemmedTerms(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		cfg        memory.KeywordConfig
		want       []string
	}{
		{"forms meet", "Expects expected expecting speakers spoke", memory.KeywordConfig{}, []string{"expect", "expect", "expect", "speaker", "spoke"}},
		{"after folding", "Hotels NIGHTLY O'Brien's", memory.KeywordConfig{}, []string{"hotel", "night", "obrien"}},
		{"stop words first", "The running of the bulls", memory.KeywordConfig{}, []string{"run", "bull"}},
		{"other scripts as they are", "naïve Zürich 東京都 v1.2.3", memory.KeywordConfig{}, []string{"naïve", "zürich", "東京", "京都", "v1.2.3"}},
		{"NoStemming", "Expects expected speakers", memory.KeywordConfig{NoStemming: true}, []string{"expects", "expected", "speakers"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, memory.TermsOf(tt.text, tt.cfg))
		})
	}
}

// TestStemmedQuery: a query finds a record that uses another form of its
// words, and with NoStemming it does not.
func TestStemmedQuery(t *testing.T) {
	rec := vectorstore.Record{ID: "a", DocID: "d", Text: "The speaker expected applause.", Vector: []float32{1}}
	for _, tt := range []struct {
		cfg  memory.KeywordConfig
		hits int
	}{{memory.KeywordConfig{}, 1}, {memory.KeywordConfig{NoStemming: true}, 0}} {
		m := newMemory(t, memory.Config{Keywords: tt.cfg}, rec)
		hits, err := m.QueryKeywords(bg, "speakers expecting", 1, vectorstore.Filter{})
		require.NoError(t, err)
		require.Len(t, hits, tt.hits, "%+v", tt.cfg)
	}
}

// vocabulary mixes stop words, case and accents, CJK and identifiers, so
// that random texts exercise the analysis as well as the index.
var vocabulary = strings.Fields(`the of and a to alpha beta gamma delta epsilon zeta eta theta iota
	kappa lambda Alpha BETA café Café CAFÉ zürich 東京都 日本語 ERR_CONN_RESET 24/01234 v1.2.3
	don't don’t x y z moon sun star`)

func randomText(r *rand.Rand) string {
	words := make([]string, r.IntN(25))
	for i := range words {
		words[i] = vocabulary[r.IntN(len(vocabulary))]
	}
	return strings.Join(words, " ")
}

// bm25Ref is the reference: BM25 computed from its definition over the
// live records, term by term, with the analysis of the index.
func bm25Ref(recs map[string]vectorstore.Record, cfg memory.KeywordConfig, query string, f vectorstore.Filter) map[string]float64 {
	k1, b := cmp.Or(cfg.K1, 1.2), cmp.Or(cfg.B, 0.75)
	if cfg.NoSaturation {
		k1 = 0
	}
	if cfg.NoLengthNorm {
		b = 0
	}
	tf := map[string]map[string]int{}
	length := map[string]int{}
	df := map[string]int{}
	total := 0
	for id, r := range recs {
		tf[id] = map[string]int{}
		for _, term := range memory.TermsOf(r.Text, cfg) {
			if tf[id][term] == 0 {
				df[term]++
			}
			tf[id][term]++
			length[id]++
			total++
		}
	}
	n := float64(len(recs))
	avg := float64(total) / n
	var terms []string
	for _, term := range memory.TermsOf(query, cfg) {
		if !slices.Contains(terms, term) {
			terms = append(terms, term)
		}
	}
	scores := map[string]float64{}
	for id, r := range recs {
		if !f.Match(r) {
			continue
		}
		var s float64
		matched := false
		for _, term := range terms {
			c := float64(tf[id][term])
			if c == 0 {
				continue
			}
			matched = true
			d := float64(df[term])
			idf := math.Log(1 + (n-d+0.5)/(d+0.5))
			s += idf * c * (k1 + 1) / (c + k1*(1-b+b*float64(length[id])/avg))
		}
		if matched {
			scores[id] = s
		}
	}
	return scores
}

// checkKeywordHits checks hits against the reference scores: each score
// within 1e-6 (relative) of its reference, best first, and the k best
// records found (a record tied with the k'th within 1e-6 may stand in
// for it).
func checkKeywordHits(t *testing.T, what string, hits []vectorstore.Hit, ref map[string]float64, k int) {
	t.Helper()
	want := slices.Collect(func(yield func(string) bool) {
		for id := range ref {
			if !yield(id) {
				return
			}
		}
	})
	slices.SortFunc(want, func(a, b string) int {
		if c := cmp.Compare(ref[b], ref[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	require.Len(t, hits, min(k, len(want)), what)
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-6*max(1, math.Abs(b)) }
	for i, h := range hits {
		s, ok := ref[h.ID]
		require.True(t, ok, "%s: hit %q has no reference score", what, h.ID)
		require.True(t, near(float64(h.Score), s), "%s: hit %q scores %v, reference %v", what, h.ID, h.Score, s)
		require.Nil(t, h.Vector, what)
		if i > 0 {
			require.GreaterOrEqual(t, hits[i-1].Score, h.Score, "%s: not best first", what)
		}
	}
	got := hitIDs(hits)
	for _, id := range want[:len(hits)] {
		if !slices.Contains(got, id) {
			require.True(t, near(ref[id], float64(hits[len(hits)-1].Score)), "%s: missed %q (score %v)", what, id, ref[id])
		}
	}
}

// TestKeywordScoresMatchReference runs random writes of every kind against
// stores of several configurations and checks every keyword query against
// the reference BM25 over the records a model of the store holds.
func TestKeywordScoresMatchReference(t *testing.T) {
	for _, cfg := range []memory.KeywordConfig{
		{},
		{KeepStopWords: true},
		{K1: 2, B: 1},
		{NoSaturation: true, B: 0.3},
		{K1: 0.5, NoLengthNorm: true},
		{K1: 1e-12, B: 1e-10}, // tiny, not zero: used as they are
	} {
		for _, compact := range []bool{false, true} {
			t.Run(fmt.Sprintf("%+v/compact=%v", cfg, compact), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(cfg.K1*10+cfg.B*100), 1))
				m := newMemory(t, memory.Config{Compact: compact, Keywords: cfg})
				model := map[string]vectorstore.Record{}
				for step := range 400 {
					randomWrite(t, r, m, model)
					if step%4 != 0 {
						continue
					}
					for range 3 {
						q := randomText(r)
						if strings.TrimSpace(q) == "" {
							continue
						}
						f := randomFilter(r)
						k := 1 + r.IntN(12)
						hits, err := m.QueryKeywords(bg, q, k, f)
						require.NoError(t, err)
						checkKeywordHits(t, fmt.Sprintf("step %d, query %q, filter %+v", step, q, f), hits, bm25Ref(model, cfg, q, f), k)
					}
				}
			})
		}
	}
}

func randomFilter(r *rand.Rand) vectorstore.Filter {
	var f vectorstore.Filter
	if r.IntN(3) == 0 {
		f.DocIDs = []string{fmt.Sprintf("d%d", r.IntN(6)), fmt.Sprintf("d%d", r.IntN(6))}
	}
	if r.IntN(4) == 0 {
		f.Metadata = map[string]string{"parity": []string{"even", "odd"}[r.IntN(2)]}
	}
	return f
}

// randomWrite makes one random write to m, and the same to model: an
// Upsert (new records and replacements, some moving to another
// document), a Delete, a DeleteDocument or a ReplaceDocument.
func randomWrite(t *testing.T, r *rand.Rand, m *memory.Store, model map[string]vectorstore.Record) {
	t.Helper()
	rec := func(doc int) vectorstore.Record {
		id := fmt.Sprintf("r%d", r.IntN(60))
		if doc < 0 {
			doc = r.IntN(6)
		}
		return vectorstore.Record{
			ID: id, DocID: fmt.Sprintf("d%d", doc), Index: r.IntN(20), Text: randomText(r),
			Vector: randVec(r, 4), Metadata: map[string]string{"parity": []string{"even", "odd"}[r.IntN(2)]},
		}
	}
	switch op := r.IntN(10); {
	case op < 5:
		recs := make([]vectorstore.Record, 1+r.IntN(8))
		for i := range recs {
			recs[i] = rec(-1)
		}
		require.NoError(t, m.Upsert(bg, recs...))
		for _, rc := range recs {
			model[rc.ID] = rc
		}
	case op < 7:
		ids := []string{fmt.Sprintf("r%d", r.IntN(60)), fmt.Sprintf("r%d", r.IntN(60))}
		require.NoError(t, m.Delete(bg, ids...))
		for _, id := range ids {
			delete(model, id)
		}
	case op < 8:
		doc := fmt.Sprintf("d%d", r.IntN(6))
		require.NoError(t, m.DeleteDocument(bg, doc))
		deleteDoc(model, doc)
	default:
		d := r.IntN(6)
		doc := fmt.Sprintf("d%d", d)
		recs := make([]vectorstore.Record, r.IntN(6))
		for i := range recs {
			recs[i] = rec(d)
		}
		// An ID may be in another document: ReplaceDocument moves it.
		require.NoError(t, m.ReplaceDocument(bg, doc, recs...))
		deleteDoc(model, doc)
		for _, rc := range recs {
			model[rc.ID] = rc
		}
	}
	require.Equal(t, len(model), m.Len())
}

func deleteDoc(model map[string]vectorstore.Record, doc string) {
	for id, rc := range model {
		if rc.DocID == doc {
			delete(model, id)
		}
	}
}

func TestQueryKeywordsArguments(t *testing.T) {
	m := newMemory(t, memory.Config{}, v2Records()...)
	for _, tt := range []struct {
		name  string
		query string
		k     int
	}{
		{"empty", "", 5},
		{"white space", " \t\n\u3000", 5},
		{"invalid UTF-8", "caf\xe9", 5},
		{"k zero", "application", 0},
		{"k negative", "application", -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			hits, err := m.QueryKeywords(bg, tt.query, tt.k, vectorstore.Filter{})
			require.ErrorIs(t, err, vectorstore.ErrInvalidArgument)
			require.Nil(t, hits)
		})
	}
	for _, q := range []string{"the of and", "THE", "... !!! ---", "unknownword"} {
		t.Run("no hits: "+q, func(t *testing.T) {
			hits, err := m.QueryKeywords(bg, q, 5, vectorstore.Filter{})
			require.NoError(t, err)
			require.Empty(t, hits)
		})
	}
	t.Run("stop words kept", func(t *testing.T) {
		keep := newMemory(t, memory.Config{Keywords: memory.KeywordConfig{KeepStopWords: true}}, v2Records()...)
		hits, err := keep.QueryKeywords(bg, "the of and", 5, vectorstore.Filter{})
		require.NoError(t, err)
		require.Equal(t, "stop-0", hits[0].ID, "the record of only stop words is the best match")
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(bg)
		cancel()
		_, err := m.QueryKeywords(ctx, "application", 5, vectorstore.Filter{})
		require.ErrorIs(t, err, context.Canceled)
	})
	t.Run("empty store", func(t *testing.T) {
		var empty memory.Store
		hits, err := empty.QueryKeywords(bg, "application", 5, vectorstore.Filter{})
		require.NoError(t, err)
		require.Empty(t, hits)
	})
	t.Run("closed", func(t *testing.T) {
		c := newMemory(t, memory.Config{}, v2Records()...)
		require.NoError(t, c.Close())
		_, err := c.QueryKeywords(bg, "the", 5, vectorstore.Filter{})
		require.ErrorIs(t, err, memory.ErrClosed)
	})
}

func TestQueryKeywordsFindsTerms(t *testing.T) {
	m := newMemory(t, memory.Config{}, v2Records()...)
	for _, tt := range []struct {
		query string
		f     vectorstore.Filter
		want  []string
	}{
		{"application 24/01234", vectorstore.Filter{}, []string{"plan-0", "plan-1"}},
		{"environmental 24/01234", vectorstore.Filter{}, []string{"plan-1", "plan-0"}},
		{"err_conn_reset", vectorstore.Filter{}, []string{"log-0"}},
		{"ZÜRICH café", vectorstore.Filter{}, []string{"travel-0"}},
		{"東京の天気", vectorstore.Filter{}, []string{"travel-1"}},
		{"application", vectorstore.Filter{DocIDs: []string{"log", "plan"}, Metadata: map[string]string{"kind": "report"}}, []string{"plan-0", "plan-1"}},
		{"application", vectorstore.Filter{DocIDs: []string{"travel"}}, nil},
		{"application", vectorstore.Filter{Metadata: map[string]string{"kind": "memo"}}, nil},
	} {
		t.Run(tt.query, func(t *testing.T) {
			hits, err := m.QueryKeywords(bg, tt.query, 5, tt.f)
			require.NoError(t, err)
			require.Equal(t, tt.want, nilIfEmpty(hitIDs(hits)))
			for _, h := range hits {
				require.Positive(t, h.Score)
			}
		})
	}
}

// TestQueryKeywordsNarrowSpace: the word rules join "12\u202f345" (a
// French thousands separator) into one word; it must be found by "12 345"
// typed with a plain space.
func TestQueryKeywordsNarrowSpace(t *testing.T) {
	m := newMemory(t, memory.Config{},
		vectorstore.Record{ID: "fr", DocID: "d", Text: "Le montant est de 12\u202f345 euros.", Vector: []float32{1}},
		vectorstore.Record{ID: "other", DocID: "d", Index: 1, Text: "Rien.", Vector: []float32{1}},
	)
	hits, err := m.QueryKeywords(bg, "12 345", 5, vectorstore.Filter{})
	require.NoError(t, err)
	require.Equal(t, []string{"fr"}, hitIDs(hits))
}

// TestQueryKeywordsInvisibles: a word is found by its letters whatever
// invisible characters the word rules let into it: a combining mark
// after a space (attached to the space), a left-to-right mark, a soft
// hyphen.
func TestQueryKeywordsInvisibles(t *testing.T) {
	m := newMemory(t, memory.Config{},
		vectorstore.Record{ID: "mark", DocID: "d", Text: "x\u202f\u0711Zeta", Vector: []float32{1}},
		vectorstore.Record{ID: "lrm", DocID: "d", Index: 1, Text: "x\u202f\u200eTheta", Vector: []float32{1}},
		vectorstore.Record{ID: "shy", DocID: "d", Index: 2, Text: "co\u00adoperate", Vector: []float32{1}},
		vectorstore.Record{ID: "other", DocID: "d", Index: 3, Text: "eta", Vector: []float32{1}},
	)
	for query, want := range map[string]string{"zeta": "mark", "theta": "lrm", "cooperate": "shy"} {
		hits, err := m.QueryKeywords(bg, query, 5, vectorstore.Filter{})
		require.NoError(t, err)
		require.Equal(t, []string{want}, hitIDs(hits), query)
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// TestKeywordConfigErrors checks the K1 and B that memory.New refuses, and
// that Config reports the ones it takes so that memory.New makes the same.
func TestKeywordConfigErrors(t *testing.T) {
	for _, tt := range []struct {
		field string
		cfg   memory.KeywordConfig
	}{
		{"Keywords.K1", memory.KeywordConfig{K1: math.NaN()}},
		{"Keywords.K1", memory.KeywordConfig{K1: math.Inf(1)}},
		{"Keywords.K1", memory.KeywordConfig{K1: 1001}},
		{"Keywords.B", memory.KeywordConfig{B: 1.5}},
		{"Keywords.B", memory.KeywordConfig{B: math.NaN()}},
		{"Keywords.K1", memory.KeywordConfig{K1: -1}},
		{"Keywords.B", memory.KeywordConfig{B: -0.5}},
		{"Keywords.K1", memory.KeywordConfig{K1: math.Inf(-1)}},
		{"Keywords.K1", memory.KeywordConfig{K1: 1, NoSaturation: true}},
		{"Keywords.B", memory.KeywordConfig{B: 0.5, NoLengthNorm: true}},
	} {
		_, err := memory.New(memory.Config{Keywords: tt.cfg})
		require.ErrorIs(t, err, memory.ErrConfig)
		require.ErrorContains(t, err, "memory: invalid configuration: "+tt.field+" is ")
	}
	for _, tt := range []struct{ in, want memory.KeywordConfig }{
		{memory.KeywordConfig{}, defaultKeywords},
		{memory.KeywordConfig{NoSaturation: true, NoLengthNorm: true, KeepStopWords: true},
			memory.KeywordConfig{NoSaturation: true, NoLengthNorm: true, KeepStopWords: true}},
		{memory.KeywordConfig{K1: 1e-12, B: math.SmallestNonzeroFloat64}, memory.KeywordConfig{K1: 1e-12, B: math.SmallestNonzeroFloat64}},
		{memory.KeywordConfig{K1: 2, B: 1}, memory.KeywordConfig{K1: 2, B: 1}},
	} {
		m := newMemory(t, memory.Config{Keywords: tt.in})
		require.Equal(t, tt.want, m.Config().Keywords)
		again := newMemory(t, m.Config())
		require.Equal(t, m.Config(), again.Config())
	}
}

// TestKeywordsAfterLoad: the index is rebuilt from the texts on Load, so
// a loaded store, and the files written before the index existed, answer
// keyword queries as the store that was saved.
func TestKeywordsAfterLoad(t *testing.T) {
	queries := []string{"application 24/01234", "err_conn_reset retries", "café", "東京都", "the of", "first unit", "日本語", "same index"}
	check := func(t *testing.T, want, got *memory.Store) {
		t.Helper()
		for _, q := range queries {
			h1, err := want.QueryKeywords(bg, q, 10, vectorstore.Filter{})
			require.NoError(t, err)
			h2, err := got.QueryKeywords(bg, q, 10, vectorstore.Filter{})
			require.NoError(t, err)
			require.Equal(t, h1, h2, "query %q", q)
		}
	}
	for _, tt := range []struct {
		file    string
		compact bool
		recs    []vectorstore.Record
	}{
		{"v1.rkv", false, v1Records()},
		{"v1-compact.rkv", true, v1Records()},
		{"v2.rkv", false, v2Records()},
		{"v2-compact.rkv", true, v2Records()},
	} {
		t.Run(tt.file, func(t *testing.T) {
			if math.MaxInt < timestamp {
				t.Skip("the v1 files hold an Index that an int of this platform cannot")
			}
			got, err := memory.LoadFile(bg, "testdata/"+tt.file, memory.Config{})
			require.NoError(t, err)
			want := newMemory(t, memory.Config{Compact: tt.compact}, tt.recs...)
			check(t, want, got)
			again, err := memory.LoadFile(bg, "testdata/"+tt.file, memory.Config{Keywords: memory.KeywordConfig{KeepStopWords: true}})
			require.NoError(t, err)
			hits, err := again.QueryKeywords(bg, "the", 10, vectorstore.Filter{})
			require.NoError(t, err)
			assert.Equal(t, tt.recs[0].ID == "plan-0", len(hits) > 0, "stop words indexed as the load's configuration says")
		})
	}
	t.Run("round trip after writes", func(t *testing.T) {
		r := rand.New(rand.NewPCG(8, 8))
		m := newMemory(t, memory.Config{})
		model := map[string]vectorstore.Record{}
		for range 200 {
			randomWrite(t, r, m, model)
		}
		got, err := memory.Load(bg, strings.NewReader(string(saved(t, m))), memory.Config{})
		require.NoError(t, err)
		for range 50 {
			q := randomText(r)
			if strings.TrimSpace(q) == "" {
				continue
			}
			h1, err := m.QueryKeywords(bg, q, 10, vectorstore.Filter{})
			require.NoError(t, err)
			h2, err := got.QueryKeywords(bg, q, 10, vectorstore.Filter{})
			require.NoError(t, err)
			checkKeywordHits(t, q, h2, bm25Ref(model, memory.KeywordConfig{}, q, vectorstore.Filter{}), 10)
			require.Equal(t, hitIDs(h1), hitIDs(h2), "query %q", q)
		}
	})
}
