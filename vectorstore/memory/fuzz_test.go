package memory_test

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/internal/stem"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// FuzzLoad feeds Load arbitrary bytes. It must never panic and must refuse
// with ErrCorrupt or ErrVersion what it does not accept; what it accepts
// must hold only records that Upsert accepts, and must save and load
// again to the same bytes.
// fuzzIndex trains the index from the first record on.
var fuzzIndex = memory.IndexConfig{IVF: true, MinRecords: 1}

func FuzzLoad(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 1))
	recs := makeRecords(r, 2, 3, 5)
	recs[0].Metadata = map[string]string{"k": "v", "x": "y"}
	recs[1].Start, recs[1].End = 4, 17
	for _, compact := range []bool{false, true} {
		m := newMemory(f, memory.Config{Compact: compact}, recs...)
		f.Add(saved(f, m))
	}
	f.Add(saved(f, newMemory(f, memory.Config{})))
	f.Add(saved(f, newMemory(f, memory.Config{Compact: true, Index: fuzzIndex}, recs...)))
	for _, name := range []string{"v1.rkv", "v1-compact.rkv", "v1-emptied.rkv", "v2.rkv", "v2-compact.rkv", "v2-ingest.rkv"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		require.NoError(f, err)
		f.Add(data)
	}
	f.Add([]byte("RAGKITVS"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// With the index on, a file's index section is installed; it must
		// be refused alike and, if accepted, be consistent.
		mi, errIndex := memory.Load(bg, bytes.NewReader(data), memory.Config{Index: fuzzIndex})
		if errIndex == nil {
			_, err := memory.CheckIndex(mi)
			require.NoError(t, err)
		}
		m, err := memory.Load(bg, bytes.NewReader(data), memory.Config{})
		require.Equal(t, err == nil, errIndex == nil, "with the index: %v, without: %v", errIndex, err)
		if err != nil {
			require.Nil(t, m, "store returned with an error")
			if !errors.Is(err, memory.ErrVersion) {
				require.ErrorIs(t, err, memory.ErrCorrupt)
			}
			return
		}
		out := saved(t, m)
		again, err := memory.Load(bg, bytes.NewReader(out), memory.Config{})
		require.NoError(t, err, "reloading a saved store")
		require.Equal(t, out, saved(t, again), "save, load, save is not stable")
		if m.Len() > 0 {
			rebuilt := newMemory(t, memory.Config{Dimension: m.Config().Dimension})
			require.NoError(t, rebuilt.Upsert(bg, allRecords(t, m)...), "Load accepted what Upsert refuses")
			require.Equal(t, m.Len(), rebuilt.Len())
		}
	})
}

// allRecords returns every record of m, with its vector, document by
// document.
func allRecords(t *testing.T, m *memory.Store) []vectorstore.Record {
	t.Helper()
	docs, err := m.DocumentIDs(bg)
	require.NoError(t, err)
	var recs []vectorstore.Record
	for _, d := range docs {
		rs, err := m.Range(bg, d, math.MinInt, math.MaxInt)
		require.NoError(t, err)
		recs = append(recs, rs...)
	}
	return recs
}

// FuzzKeywordTerms checks the analysis of the keyword index on arbitrary
// text: every term before stemming is a non-empty piece of the case-folded text (without
// apostrophes and format characters) holding a letter or a digit and no white space; leaving
// stop words out removes exactly the stop words; the same text gives the
// same terms; stemming maps each term to its stem and drops none; and a record is found by a query of its own text exactly
// when the text has a term.
func FuzzKeywordTerms(f *testing.F) {
	for _, s := range []string{"", "Hello, World!", "don't ’’' x'", "ΣΊΣΥΦΟΣ ς", "東京都の天気 abc日本def", "ไทย ภาษา", "the of and", "v1.2.3 ERR_X 24/01234", "\u0301\u0301 a"} {
		f.Add(s)
	}
	folded := func(s string) string {
		var b strings.Builder
		for _, r := range s {
			if r != '\'' && r != '’' && !unicode.Is(unicode.Cf, r) {
				b.WriteRune(unicode.ToLower(unicode.ToUpper(r)))
			}
		}
		return b.String()
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			return
		}
		all := memory.Terms(text, true)
		terms := memory.Terms(text, false)
		prev := text + " Zürich 東京都 " + text // leaves the analyzer's buffers longer and dirty
		require.Equal(t, terms, memory.TermsAfter(prev, text, false), "not deterministic")
		whole := folded(text)
		var kept []string
		for _, term := range all {
			require.NotEmpty(t, term)
			require.True(t, utf8.ValidString(term), "term %q", term)
			require.False(t, strings.ContainsFunc(term, unicode.IsSpace), "term %q holds a space", term)
			require.True(t, strings.ContainsFunc(term, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }), "term %q", term)
			require.Contains(t, whole, term)
			if len(memory.Terms(term, false)) > 0 { // not a stop word
				kept = append(kept, term)
			}
		}
		require.Equal(t, len(kept), len(terms), "stop words: %q from %q", terms, all)
		stemmed := memory.TermsOf(text, memory.KeywordConfig{})
		require.Len(t, stemmed, len(terms), "stemming keeps every term")
		for i, term := range terms {
			require.Equal(t, stem.English(term), stemmed[i])
		}
		m := newMemory(t, memory.Config{}, vectorstore.Record{ID: "a", DocID: "d", Text: text, Vector: []float32{1}})
		hits, err := m.QueryKeywords(bg, text, 1, vectorstore.Filter{})
		if strings.TrimFunc(text, unicode.IsSpace) == "" {
			require.ErrorIs(t, err, vectorstore.ErrInvalidArgument)
			return
		}
		require.NoError(t, err)
		require.Equal(t, len(terms) > 0, len(hits) == 1, "terms %q, hits %v", terms, hits)
	})
}
