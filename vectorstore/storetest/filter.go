package storetest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/stretchr/testify/require"
)

// filterValues are the values the property test writes and filters on:
// per key, well-formed values and some that a range must never take
// (text, a date alone, a day the month lacks, a lower-case t, a number
// with a space or a long exponent).
var filterValues = map[string][]string{
	"dept": {"hr", "it", "sales", "legal", "", "o'brien", `x"y\z`, "$1"},
	"year": {"2019", "2020", "2021.5", "2022", "2023", "2024", "2.024e3", "-7", "+3", ".5", "5.", "n/a", " 2022", "1e400", "NaN", "Inf", "0x10", "2e+02"},
	"at": {"2024-01-01T00:00:00Z", "2024-01-01T01:00:00+01:00", "2024-06-30T23:59:59.999999999Z",
		"2024-06-30T23:59:59.9999995Z", "2025-03-01T09:30:00-05:00", "2024-02-30T00:00:00Z",
		"2024-01-01", "2024-01-01t00:00:00z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "soon"},
	"tag":        {"a", "b", "c"},
	`it's "odd"`: {"1", "2020", "2024-01-01T00:00:00Z", "a"},
}

// filterKeys are the keys of filterValues; the last one holds quotes, as a
// key a store must pass as a parameter, never in its query's text.
var filterKeys = []string{"dept", "year", "at", "tag", `it's "odd"`}

// filterRecords returns n records with random metadata from filterValues
// (each key present or not), in docs documents.
func filterRecords(r *rand.Rand, n, docs, dim int) []vectorstore.Record {
	out := make([]vectorstore.Record, n)
	for i := range out {
		md := map[string]string{}
		for _, k := range filterKeys {
			if r.IntN(4) > 0 {
				vs := filterValues[k]
				md[k] = vs[r.IntN(len(vs))]
			}
		}
		d := r.IntN(docs)
		out[i] = vectorstore.Record{
			ID: fmt.Sprintf("r%03d", i), DocID: fmt.Sprintf("d%d", d), Index: i,
			Text: fmt.Sprintf("unit %d of document %d", i, d), Vector: randVec(r, dim), Metadata: md,
			Source: filterSources[r.IntN(len(filterSources))], Section: filterSections[r.IntN(len(filterSections))],
			// Notes and a title that name filterValues' keys and values:
			// a filter on Metadata must never match them.
			Title: "dept", Notes: vectorstore.Notes{Keywords: "tag a", Embed: "year", Gap: " hr"},
		}
	}
	return out
}

// filterSources and filterSections are the provenance the property test
// writes and filters on: no source, sources with quotes, and section paths
// that share their first headings.
var (
	filterSources  = []string{"", "docs/a.md", "docs/b.md", `it's "odd".txt`}
	filterSections = [][]string{nil, {"Install"}, {"Install", "Linux"}, {"Install", "Linux", "Debian"}, {"Use"}, {"Linux"}, {`a"b`, "c'd"}}
)

// randomFilter returns a random filter over filterValues' keys, at most
// depth levels deep.
func randomFilter(r *rand.Rand, docs int) vectorstore.Filter {
	var f vectorstore.Filter
	if r.IntN(4) == 0 {
		for range 1 + r.IntN(3) {
			f.DocIDs = append(f.DocIDs, fmt.Sprintf("d%d", r.IntN(docs+1)))
		}
	}
	if r.IntN(4) == 0 {
		for range 1 + r.IntN(2) {
			f.Sources = append(f.Sources, filterSources[r.IntN(len(filterSources))])
		}
	}
	if r.IntN(4) == 0 {
		f.Section = filterSections[r.IntN(len(filterSections))]
	}
	if r.IntN(4) == 0 {
		f.Metadata = map[string]string{"tag": filterValues["tag"][r.IntN(3)]}
	}
	if r.IntN(8) > 0 {
		f.Where = randomCond(r, 3)
	}
	return f
}

var years = []float64{math.Inf(-1), -7, 0.5, 3, 200, 2019, 2020, 2021.5, 2022, 2024, math.Inf(1)}

var instants = []time.Time{
	{},
	time.Date(2023, 12, 31, 23, 0, 0, 0, time.UTC),
	time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC),
	time.Date(2024, 6, 30, 23, 59, 59, 999999999, time.UTC),
	time.Date(2024, 6, 30, 23, 59, 59, 999999500, time.UTC),
	time.Date(2025, 3, 1, 14, 30, 0, 0, time.UTC),
	time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
}

func randomCond(r *rand.Rand, depth int) vectorstore.Cond {
	pick := func(vs []string) []string {
		var out []string
		for range r.IntN(3) + 1 {
			out = append(out, vs[r.IntN(len(vs))])
		}
		return out
	}
	leaf := r.IntN(7)
	if depth == 0 || leaf < 4 {
		key := filterKeys[r.IntN(len(filterKeys))]
		if r.IntN(10) == 0 {
			key = "missing"
		}
		switch r.IntN(5) {
		case 0:
			return vectorstore.In(key, pick(filterValues["dept"])...)
		case 1:
			return vectorstore.Not(vectorstore.In(key, pick(filterValues[filterKeys[r.IntN(len(filterKeys))]])...))
		case 2:
			return vectorstore.Exists(key)
		case 3:
			lo, hi := years[r.IntN(len(years))], years[r.IntN(len(years))]
			if r.IntN(2) == 0 {
				key = "year"
			}
			return vectorstore.Between(key, lo, hi)
		default:
			from, to := instants[r.IntN(len(instants))], instants[r.IntN(len(instants))]
			if r.IntN(2) == 0 {
				key = "at"
			}
			return vectorstore.TimeBetween(key, from, to)
		}
	}
	subs := make([]vectorstore.Cond, r.IntN(4))
	for i := range subs {
		subs[i] = randomCond(r, depth-1)
	}
	switch r.IntN(3) {
	case 0:
		return vectorstore.And(subs...)
	case 1:
		return vectorstore.Or(subs...)
	}
	return vectorstore.Not(randomCond(r, depth-1))
}

// filters is the property test of filters: random records, random filters
// (in, not in, exists, numeric and time ranges over values that parse and
// values that do not, and, or, not, with document IDs and metadata
// pairs), and every query path checked against the brute-force
// evaluation of Filter.Match: Query, QueryKeywords and QueryHybrid (if the
// store has them) return exactly the matching records. Range gives back
// every record with the metadata written, before and after the writes
// that change them, so that a caller filtering a Range with Match (as the
// Retriever's windows do) sees what the queries see. It also checks that
// a filter beyond the limits is refused.
func (s suite) filters(t *testing.T) {
	const dim, docs = 8, 6
	r := rand.New(rand.NewPCG(27, 1))
	recs := filterRecords(r, 240, docs, dim)
	st := s.store(t, dim, recs...)
	kq, _ := st.(vectorstore.KeywordQuerier)
	hq, _ := st.(vectorstore.HybridQuerier)
	check := func(i int) {
		f := randomFilter(r, docs)
		name := fmt.Sprintf("filter %d %+v", i, f)
		q := randVec(r, dim)
		all := bruteForce(recs, q, f)
		k := len(recs)
		if i%3 == 0 {
			k = 7
		}
		got, err := st.Query(bg, q, k, f)
		require.NoError(t, err, name)
		s.checkHits(t, name, got, all, k)
		want := hitIDs(all)
		slices.Sort(want)
		if kq != nil {
			hits, err := kq.QueryKeywords(bg, "unit", len(recs), f)
			require.NoError(t, err, name)
			require.Equal(t, want, sortedIDs(hits), "%s: keyword hits", name)
		}
		if hq != nil {
			vh, kh, err := hq.QueryHybrid(bg, q, "unit", len(recs), f)
			require.NoError(t, err, name)
			require.Equal(t, want, sortedIDs(vh), "%s: hybrid vector hits", name)
			require.Equal(t, want, sortedIDs(kh), "%s: hybrid keyword hits", name)
		}
	}
	s.rangeHolds(t, st, recs, docs)
	for i := range 150 {
		check(i)
	}
	// After writes that move records, delete some and change the metadata
	// of others, the filters see the store as it is now.
	require.NoError(t, st.DeleteDocument(bg, "d0"))
	changed := filterRecords(r, 60, docs, dim)
	require.NoError(t, st.Upsert(bg, changed...))
	recs = slices.DeleteFunc(recs, func(rec vectorstore.Record) bool { return rec.DocID == "d0" || rec.ID < "r060" })
	recs = append(recs, changed...)
	s.rangeHolds(t, st, recs, docs)
	for i := range 60 {
		check(150 + i)
	}

	deep := vectorstore.Exists("tag")
	for range vectorstore.MaxFilterDepth {
		deep = vectorstore.Not(deep)
	}
	wide := vectorstore.In("tag", make([]string, vectorstore.MaxFilterTerms)...)
	for _, f := range []vectorstore.Filter{{Where: deep}, {Where: wide}, {Where: vectorstore.Exists("")},
		{Where: vectorstore.Between("year", math.NaN(), 1)}, {Where: vectorstore.In("tag", "\xff")}} {
		_, err := st.Query(bg, randVec(r, dim), 3, f)
		require.ErrorIs(t, err, vectorstore.ErrInvalidArgument, "Query with a refused filter")
		if kq != nil {
			_, err := kq.QueryKeywords(bg, "unit", 3, f)
			require.ErrorIs(t, err, vectorstore.ErrInvalidArgument, "QueryKeywords with a refused filter")
		}
		if hq != nil {
			_, _, err := hq.QueryHybrid(bg, randVec(r, dim), "unit", 3, f)
			require.ErrorIs(t, err, vectorstore.ErrInvalidArgument, "QueryHybrid with a refused filter")
		}
	}
}

// rangeHolds checks that Range returns, document by document, exactly
// the records of recs with their metadata.
func (s suite) rangeHolds(t *testing.T, st vectorstore.VectorStore, recs []vectorstore.Record, docs int) {
	t.Helper()
	// A store may give back empty metadata as nil.
	metadata := func(rec vectorstore.Record) map[string]string {
		if len(rec.Metadata) == 0 {
			return nil
		}
		return rec.Metadata
	}
	want := map[string]map[string]string{}
	for _, rec := range recs {
		want[rec.ID] = metadata(rec)
	}
	got := map[string]map[string]string{}
	for d := range docs {
		rs, err := st.Range(bg, fmt.Sprintf("d%d", d), 0, 1<<30)
		if err != nil {
			require.ErrorIs(t, err, vectorstore.ErrNotFound)
			continue
		}
		for _, rec := range rs {
			got[rec.ID] = metadata(rec)
		}
	}
	require.Equal(t, want, got, "Range: the records and their metadata")
}

func sortedIDs(hits []vectorstore.Hit) []string {
	ids := hitIDs(hits)
	slices.Sort(ids)
	if ids == nil {
		ids = []string{}
	}
	return ids
}
