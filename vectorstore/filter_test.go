package vectorstore_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

func TestParseNumber(t *testing.T) {
	for _, tt := range []struct {
		in string
		x  float64
		ok bool
	}{
		{"2024", 2024, true}, {"-3.5", -3.5, true}, {"+3", 3, true}, {".5", 0.5, true}, {"5.", 5, true},
		{"1e6", 1e6, true}, {"2.5E-3", 2.5e-3, true}, {"-0", 0, true},
		{"", 0, false}, {" 12", 0, false}, {"12 ", 0, false}, {"1,000", 0, false}, {"0x10", 0, false},
		{"NaN", 0, false}, {"Inf", 0, false}, {"1e400", 0, false}, {"1e", 0, false}, {".", 0, false},
		{"1_000", 0, false}, {"--1", 0, false}, {strings.Repeat("9", 65), 0, false},
	} {
		x, ok := vectorstore.ParseNumber(tt.in)
		require.Equal(t, tt.ok, ok, "ParseNumber(%q)", tt.in)
		require.Equal(t, tt.x, x, "ParseNumber(%q)", tt.in)
	}
}

func TestParseTime(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want time.Time
	}{
		{"2026-03-01T09:30:00Z", time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)},
		{"2026-03-01T10:30:00.5+01:00", time.Date(2026, 3, 1, 9, 30, 0, 5e8, time.UTC)},
		{"2024-02-29T00:00:00.123456789-15:59", time.Date(2024, 2, 29, 15, 59, 0, 123456789, time.UTC)},
		{"0001-01-01T00:00:00Z", time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)},
	} {
		got, ok := vectorstore.ParseTime(tt.in)
		require.True(t, ok, tt.in)
		require.True(t, tt.want.Equal(got), "ParseTime(%q) = %v, want %v", tt.in, got, tt.want)
	}
	for _, in := range []string{"", "2026-03-01", "2026-03-01t09:30:00Z", "2026-03-01T09:30:00z",
		"2026-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "2026-03-01T24:00:00Z", "2026-03-01T09:30:60Z",
		"2026-03-01T09:30:00", "2026-03-01T09:30:00+16:00", "2026-03-01T09:30:00.Z", "0000-01-01T00:00:00Z",
		"2026-03-01T09:30:00.1234567890Z", "2026-03-01 09:30:00Z", "soon"} {
		_, ok := vectorstore.ParseTime(in)
		require.False(t, ok, "ParseTime(%q)", in)
	}
}

// A filter beyond the limits, or with a bad key, value or bound, is
// refused by Check with ErrInvalidArgument and matches nothing.
func TestFilterCheck(t *testing.T) {
	rec := vectorstore.Record{ID: "a", DocID: "d", Metadata: map[string]string{"k": "1"}}
	ok := vectorstore.Exists("k")
	for range vectorstore.MaxFilterDepth - 1 {
		ok = vectorstore.And(ok)
	}
	require.NoError(t, vectorstore.Filter{Where: ok}.Check(), "a filter at MaxFilterDepth")
	require.True(t, vectorstore.Filter{Where: ok}.Match(rec))
	for name, c := range map[string]vectorstore.Cond{
		"too deep":    vectorstore.And(ok),
		"too many":    vectorstore.In("k", make([]string, vectorstore.MaxFilterTerms)...),
		"empty key":   vectorstore.Not(vectorstore.Exists("")),
		"bad key":     vectorstore.Not(vectorstore.Exists("\xff")),
		"bad value":   vectorstore.Not(vectorstore.In("k", "\xff")),
		"NaN bound":   vectorstore.Not(vectorstore.Between("k", math.NaN(), 2)),
		"NaN bound 2": vectorstore.Not(vectorstore.Between("k", 0, math.NaN())),
	} {
		f := vectorstore.Filter{Where: c}
		err := f.Check()
		require.ErrorIs(t, err, vectorstore.ErrInvalidArgument, name)
		require.False(t, f.Match(rec), "%s: a refused filter matched", name)
	}
}

// Check and Match read the limits from what the constructors kept, not
// from a walk of the filter: they agree with the walk at each limit and
// one past it, whatever mix of And, Or, Not, zero Conds and In values
// makes the depth and the terms.
func TestFilterLimitsWithoutWalk(t *testing.T) {
	nest := func(c vectorstore.Cond, n int, wrap func(vectorstore.Cond) vectorstore.Cond) vectorstore.Cond {
		for range n {
			c = wrap(c)
		}
		return c
	}
	and := func(c vectorstore.Cond) vectorstore.Cond { return vectorstore.And(c, vectorstore.Cond{}) }
	values := func(n int) []string { return make([]string, n) }
	for name, tc := range map[string]struct {
		c  vectorstore.Cond
		ok bool
	}{
		"depth 32 by Not":          {nest(vectorstore.Exists("k"), 31, vectorstore.Not), true},
		"depth 33 by Not":          {nest(vectorstore.Exists("k"), 32, vectorstore.Not), false},
		"depth 32, zero Cond leaf": {nest(vectorstore.Cond{}, 31, and), true},
		"depth 33, zero Cond leaf": {nest(vectorstore.Or(vectorstore.Cond{}), 31, and), false},
		"terms 4096":               {vectorstore.Or(vectorstore.In("k", values(4093)...), vectorstore.Cond{}), true},
		"terms 4097":               {vectorstore.Or(vectorstore.In("k", values(4094)...), vectorstore.Cond{}), false},
		"terms 4097 in halves":     {vectorstore.And(vectorstore.In("k", values(2047)...), vectorstore.Not(vectorstore.In("k", values(2046)...))), false},
		"bad leaf deep inside":     {nest(vectorstore.Or(vectorstore.Exists("k"), vectorstore.Between("k", math.NaN(), 1)), 5, vectorstore.Not), false},
	} {
		f := vectorstore.Filter{Where: tc.c}
		require.Equal(t, tc.ok, f.Check() == nil, "%s: Check %v", name, f.Check())
		require.Equal(t, tc.ok, vectorstore.CheckByWalk(f) == nil, "%s: the walk", name)
		rec := vectorstore.Record{ID: "a", DocID: "d", Metadata: map[string]string{"k": ""}}
		if !tc.ok {
			require.False(t, f.Match(rec), name)
		}
	}
}

// The parts of a Cond read back as they were given.
func TestCondParts(t *testing.T) {
	c := vectorstore.And(vectorstore.In("dept", "hr", "it"), vectorstore.Between("year", 2020, 2024),
		vectorstore.TimeBetween("at", time.Date(2024, 1, 1, 1, 0, 0, 0, time.FixedZone("", 3600)), time.Time{}))
	require.Equal(t, vectorstore.KindAnd, c.Kind())
	require.Equal(t, 3, c.Len())
	parts := []vectorstore.Cond{c.Part(0), c.Part(1), c.Part(2)}
	require.Equal(t, "In", parts[0].Kind().String())
	require.Equal(t, 2, parts[0].Len())
	require.Equal(t, []string{"hr", "it"}, []string{parts[0].Value(0), parts[0].Value(1)})
	require.Equal(t, "k", vectorstore.Not(vectorstore.In("k", "v")).Part(0).Key())
	lo, hi := parts[1].Bounds()
	require.Equal(t, [2]float64{2020, 2024}, [2]float64{lo, hi})
	from, to := parts[2].TimeBounds()
	require.Equal(t, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), from)
	require.True(t, to.IsZero())
	require.Equal(t, vectorstore.KindNot, vectorstore.Not(vectorstore.In("k")).Kind())
	require.Equal(t, vectorstore.KindAll, vectorstore.Cond{}.Kind())
}

var numberRE = regexp.MustCompile(vectorstore.NumberPattern)

// ParseNumber accepts exactly NumberPattern within 64 bytes, and what it
// accepts is strconv's reading, finite, and zero or a normal float64.
func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"2024", "-3.5e-2", ".5", "5.", "1e400", "NaN", "0x1p3", "1_0", strings.Repeat("1", 64)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, ok := vectorstore.ParseNumber(s)
		if want := len(s) <= 64 && numberRE.MatchString(s); ok != want {
			t.Fatalf("ParseNumber(%q) ok=%v, pattern says %v", s, ok, want)
		}
		if !ok {
			return
		}
		y, err := strconv.ParseFloat(s, 64)
		if err != nil || x != y {
			t.Fatalf("ParseNumber(%q) = %v, strconv: %v, %v", s, x, y, err)
		}
		if a := math.Abs(x); math.IsInf(x, 0) || (a != 0 && a < 0x1p-1022) {
			t.Fatalf("ParseNumber(%q) = %v: not a normal number", s, x)
		}
	})
}

var timeRE = regexp.MustCompile(vectorstore.TimePattern)

// ParseTime accepts only TimePattern's layout (year 0000 aside), as
// time.Parse reads it, and what it accepts formats back to the same
// instant.
func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"2026-03-01T09:30:00Z", "2026-03-01T10:30:00.5+01:00", "2026-02-30T00:00:00Z", "0000-01-01T00:00:00Z", "2026-03-01t09:30:00z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tm, ok := vectorstore.ParseTime(s)
		if !ok {
			if timeRE.MatchString(s) && !strings.HasPrefix(s, "0000") {
				if _, err := time.Parse(time.RFC3339Nano, s); err == nil {
					t.Fatalf("ParseTime(%q) refused a time of the pattern that time.Parse reads", s)
				}
			}
			return
		}
		if !timeRE.MatchString(s) || strings.HasPrefix(s, "0000") {
			t.Fatalf("ParseTime(%q) accepted a value outside the pattern", s)
		}
		back, ok := vectorstore.ParseTime(tm.Format(time.RFC3339Nano))
		if !ok || !back.Equal(tm) {
			t.Fatalf("ParseTime(%q) = %v; formatted back: %v, %v", s, tm, back, ok)
		}
	})
}

// filterDecoder turns fuzz bytes into a Cond, so that the fuzzer explores
// the shapes of filters.
type filterDecoder struct {
	b    []byte
	vals []string
}

func (d *filterDecoder) next() byte {
	if len(d.b) == 0 {
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

var fuzzKeys = []string{"a", "b", "year", "at", ""}

func (d *filterDecoder) key() string   { return fuzzKeys[int(d.next())%len(fuzzKeys)] }
func (d *filterDecoder) value() string { return d.vals[int(d.next())%len(d.vals)] }

func (d *filterDecoder) number() float64 {
	switch c := d.next(); c % 8 {
	case 0:
		return math.Inf(-1)
	case 1:
		return math.Inf(1)
	case 2:
		return math.NaN()
	default:
		return float64(int8(c)) / 4
	}
}

func (d *filterDecoder) time() time.Time {
	c := d.next()
	if c%5 == 0 {
		return time.Time{}
	}
	return time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(int8(c)) * 90 * time.Minute)
}

func (d *filterDecoder) cond() vectorstore.Cond {
	switch d.next() % 9 {
	case 0:
		return vectorstore.In(d.key(), d.value(), d.value())
	case 1:
		return vectorstore.Not(vectorstore.In(d.key(), d.value()))
	case 2:
		return vectorstore.Exists(d.key())
	case 3:
		return vectorstore.Between(d.key(), d.number(), d.number())
	case 4:
		return vectorstore.TimeBetween(d.key(), d.time(), d.time())
	case 5, 6:
		subs := make([]vectorstore.Cond, d.next()%4)
		for i := range subs {
			subs[i] = d.cond()
		}
		if len(d.b)%2 == 0 {
			return vectorstore.And(subs...)
		}
		return vectorstore.Or(subs...)
	case 7:
		return vectorstore.Not(d.cond())
	}
	return vectorstore.Cond{}
}

// FuzzFilter evaluates fuzzed filters over records whose metadata holds
// fuzzed values: Check never panics, a refused filter is refused by
// every query and matches nothing, and an accepted one selects through
// Memory's index, in vector, keyword and hybrid queries, exactly the
// records Match selects.
func FuzzFilter(f *testing.F) {
	f.Add([]byte{5, 2, 0, 0, 1, 3, 2, 3, 4}, "2024", "2024-01-01T00:00:00Z", "x")
	f.Add([]byte{7, 3, 2, 6, 9}, "1.5", "2024-01-02T03:00:00+01:00", "")
	f.Add([]byte{6, 3, 0, 1, 2, 7, 4, 3, 11, 12}, "-0.25", "soon", "n/a")
	f.Fuzz(func(t *testing.T, data []byte, v1, v2, v3 string) {
		vals := []string{v1, v2, v3, "0", "1.25", "2024-01-01T00:00:00Z", "2024-01-01T03:00:00+02:00"}
		d := &filterDecoder{b: data, vals: vals}
		var recs []vectorstore.Record
		for i := range 12 {
			md := map[string]string{}
			for j, k := range fuzzKeys {
				if (i+j)%3 != 0 {
					md[k] = vals[(i*7+j)%len(vals)]
				}
			}
			recs = append(recs, vectorstore.Record{ID: fmt.Sprint(i), DocID: fmt.Sprint(i % 3), Index: i,
				Text: "unit", Vector: []float32{1, float32(i)}, Metadata: md,
				Source: []string{"", "a.md", "b.md"}[i%3], Section: [][]string{nil, {"A"}, {"A", "B"}, {"B"}}[i%4]})
		}
		if vectorstore.CheckRecords("", 0, recs...) != nil {
			return // a fuzzed value that is not valid UTF-8
		}
		filter := vectorstore.Filter{Where: d.cond()}
		if len(data) > 0 && data[0]%4 == 0 {
			filter.DocIDs = []string{"0", "2"}
		}
		if len(data) > 0 && data[0]%3 == 0 {
			filter.Sources = []string{"a.md", ""}[:1+int(data[0]/3%2)]
		}
		if len(data) > 0 && data[0]%5 < 2 {
			filter.Section = [][]string{{"A"}, {"A", "B"}}[data[0]%5]
		}
		bg := context.Background()
		m, err := memory.New(memory.Config{})
		require.NoError(t, err)
		require.NoError(t, m.Upsert(bg, recs...))
		hits, err := m.Query(bg, []float32{1, 0.5}, len(recs), filter)
		khits, kerr := m.QueryKeywords(bg, "unit", len(recs), filter)
		vh, kh, herr := m.QueryHybrid(bg, []float32{1, 0.5}, "unit", len(recs), filter)
		if cerr, werr := filter.Check(), vectorstore.CheckByWalk(filter); (cerr == nil) != (werr == nil) {
			t.Fatalf("filter %+v: Check %v, a walk of the filter %v", filter, cerr, werr)
		}
		if cerr := filter.Check(); cerr != nil {
			for _, err := range []error{cerr, err, kerr, herr} {
				if !errors.Is(err, vectorstore.ErrInvalidArgument) {
					t.Fatalf("filter %+v: Check %v, error %v", filter, cerr, err)
				}
			}
			for _, r := range recs {
				if filter.Match(r) {
					t.Fatalf("refused filter %+v matched %s", filter, r.ID)
				}
			}
			return
		}
		if err != nil || kerr != nil || herr != nil {
			t.Fatalf("filter %+v: %v, %v, %v", filter, err, kerr, herr)
		}
		var want []string
		for _, r := range recs {
			if filter.Match(r) {
				want = append(want, r.ID)
			}
		}
		for name, got := range map[string][]vectorstore.Hit{"vector": hits, "keyword": khits, "hybrid vector": vh, "hybrid keyword": kh} {
			ids := make([]string, 0, len(got))
			for _, h := range got {
				ids = append(ids, h.ID)
			}
			slices.Sort(ids)
			slices.Sort(want)
			if !slices.Equal(ids, want) && (len(ids) > 0 || len(want) > 0) {
				t.Fatalf("filter %+v, %s query: got %v, want %v", filter, name, ids, want)
			}
		}
	})
}

func TestCondString(t *testing.T) {
	c := vectorstore.And(vectorstore.In("dept", "hr", "it"), vectorstore.Between("year", 2020, math.Inf(1)),
		vectorstore.Not(vectorstore.In("x")), vectorstore.TimeBetween("at", time.Date(2024, 1, 1, 0, 0, 0, 5, time.UTC), time.Time{}), vectorstore.Exists("k"))
	require.Equal(t, `and(in("dept", "hr", "it"), between("year", 2020, +Inf), not(in("x")), timebetween("at", 2024-01-01T00:00:00.000000005Z, open), exists("k"))`, c.String())
	require.Equal(t, "all", vectorstore.Cond{}.String())
}

// BenchmarkFilterMatch matches records against a filter of one condition
// and of MaxFilterTerms terms that a record settles at its first term: a
// Match costs what the terms it reads cost, not a walk of the whole filter.
func BenchmarkFilterMatch(b *testing.B) {
	rec := vectorstore.Record{ID: "a", DocID: "d", Metadata: map[string]string{"lang": "en"}}
	big := vectorstore.Or(vectorstore.Eq("lang", "en"), vectorstore.In("tag", make([]string, vectorstore.MaxFilterTerms-4)...))
	for name, f := range map[string]vectorstore.Filter{"terms=1": {Where: vectorstore.Eq("lang", "en")}, "terms=4096": {Where: big}} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if !f.Match(rec) {
					b.Fatal("no match")
				}
			}
		})
	}
}
