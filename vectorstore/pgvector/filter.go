package pgvector

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ragkit/ragkit/vectorstore"
)

// filterSQL returns the conditions of f joined by AND ("" for none), its
// arguments appended to args, and false if f can match no stored record
// (a document ID PostgreSQL text cannot hold is never stored). f must
// have passed Check. Every key, value and bound is a parameter; the SQL
// text is made only of this file's constants and parameter numbers.
func filterSQL(f vectorstore.Filter, args []any) (string, []any, bool) {
	b := sqlFilter{args: args}
	var conds []string
	if len(f.DocIDs) > 0 {
		docs := make([]string, 0, len(f.DocIDs))
		for _, d := range f.DocIDs {
			if storable(d) {
				docs = append(docs, d)
			}
		}
		if len(docs) == 0 {
			return "", nil, false
		}
		conds = append(conds, "doc_id = ANY("+b.arg(docs)+"::text[])")
	}
	if len(f.Sources) > 0 {
		srcs := make([]string, 0, len(f.Sources))
		for _, src := range f.Sources {
			if utf8.ValidString(src) && strings.IndexByte(src, 0) < 0 {
				srcs = append(srcs, src)
			}
		}
		if len(srcs) == 0 {
			return "", nil, false
		}
		conds = append(conds, "source = ANY("+b.arg(srcs)+"::text[])")
	}
	if len(f.Section) > 0 {
		for _, h := range f.Section {
			if !utf8.ValidString(h) || strings.IndexByte(h, 0) >= 0 {
				return "", nil, false
			}
		}
		// The path's first headings are the filter's: a slice of the
		// array compared with it (a shorter path gives a shorter slice).
		conds = append(conds, "section[1:"+b.arg(int64(len(f.Section)))+"::int] = "+b.arg(f.Section)+"::text[]")
	}
	if len(f.Metadata) > 0 {
		for k, v := range f.Metadata {
			if !utf8.ValidString(k) || !utf8.ValidString(v) || strings.IndexByte(k+v, 0) >= 0 {
				return "", nil, false
			}
		}
		js, _ := json.Marshal(f.Metadata) // a map of strings always marshals
		conds = append(conds, "metadata @> "+b.arg(string(js))+"::jsonb")
	}
	if f.Where.Kind() != vectorstore.KindAll {
		conds = append(conds, b.cond(f.Where))
	}
	return strings.Join(conds, " AND "), b.args, true
}

// sqlFilter builds the SQL of a filter's conditions.
type sqlFilter struct {
	args []any
}

// arg adds a parameter and returns its placeholder.
func (b *sqlFilter) arg(v any) string {
	b.args = append(b.args, v)
	return "$" + strconv.Itoa(len(b.args))
}

// maxContainments is the most values of an In written as JSONB
// containments, which the GIN index on metadata serves; a longer list is
// compared as text with = ANY. On PGlite, ten containments joined by OR
// ran four times slower than = ANY over the same values, while one
// containment ran three times faster than a scan (BenchmarkQueryFilter).
const maxContainments = 1

// cond returns the SQL of c: a condition that is TRUE or FALSE, never
// NULL, so that NOT inverts it as Cond's Not does (a missing key makes
// ->> NULL, which coalesce turns into FALSE).
func (b *sqlFilter) cond(c vectorstore.Cond) string {
	switch c.Kind() {
	case vectorstore.KindAll:
		return "TRUE"
	case vectorstore.KindAnd, vectorstore.KindOr:
		if c.Len() == 0 {
			if c.Kind() == vectorstore.KindAnd {
				return "TRUE"
			}
			return "FALSE"
		}
		parts := make([]string, c.Len())
		for i := range parts {
			parts[i] = b.cond(c.Part(i))
		}
		op := " AND "
		if c.Kind() == vectorstore.KindOr {
			op = " OR "
		}
		return "(" + strings.Join(parts, op) + ")"
	case vectorstore.KindNot:
		return "(NOT " + b.cond(c.Part(0)) + ")"
	}
	key := c.Key()
	if key == "" || strings.IndexByte(key, 0) >= 0 {
		return "FALSE" // no stored record has the key
	}
	switch c.Kind() {
	case vectorstore.KindIn:
		values := make([]string, c.Len())
		for i := range values {
			values[i] = c.Value(i)
		}
		return b.in(key, values)
	case vectorstore.KindExists:
		return "(metadata ? " + b.arg(key) + "::text)"
	case vectorstore.KindBetween:
		return b.numberRange(key, c)
	case vectorstore.KindTimeBetween:
		return b.timeRange(key, c)
	}
	return "FALSE" // a kind this package does not know matches nothing: a filter never lets too much through
}

// in is an In: containments the GIN index serves, or a text comparison
// for a long list.
func (b *sqlFilter) in(key string, values []string) string {
	var vals []string
	for _, v := range values {
		if strings.IndexByte(v, 0) < 0 {
			vals = append(vals, v)
		}
	}
	if len(vals) == 0 {
		return "FALSE"
	}
	if len(vals) > maxContainments {
		return "coalesce(metadata ->> " + b.arg(key) + "::text = ANY(" + b.arg(vals) + "::text[]), FALSE)"
	}
	parts := make([]string, len(vals))
	for i, v := range vals {
		js, _ := json.Marshal(map[string]string{key: v}) // strings always marshal
		parts[i] = "metadata @> " + b.arg(string(js)) + "::jsonb"
	}
	return "(" + strings.Join(parts, " OR ") + ")"
}

// numberRange is a Range: the value is cast to float8 only when it
// matches vectorstore.NumberPattern within 64 bytes, which every cast
// survives (at most 64 digits and a two-digit exponent stay far inside
// float8's range), so that a value that does not parse never matches
// and never fails the query, as in memory.Store.
func (b *sqlFilter) numberRange(key string, c vectorstore.Cond) string {
	lo, hi := c.Bounds()
	if math.IsInf(lo, 1) || math.IsInf(hi, -1) {
		return "FALSE" // before any parameter: each one must be used
	}
	v := "(metadata ->> " + b.arg(key) + "::text)"
	valid := "length(" + v + ") <= 64 AND " + v + " ~ " + b.arg(vectorstore.NumberPattern) + "::text"
	parts := []string{"TRUE"}
	if !math.IsInf(lo, -1) {
		parts = append(parts, v+"::float8 >= "+b.arg(lo)+"::float8")
	}
	if !math.IsInf(hi, 1) {
		parts = append(parts, v+"::float8 <= "+b.arg(hi)+"::float8")
	}
	// The pattern is tested once, before any cast; ELSE FALSE keeps a
	// missing key (NULL) from making the condition NULL.
	return "(CASE WHEN " + valid + " THEN " + strings.Join(parts, " AND ") + " ELSE FALSE END)"
}

// timeRange is a TimeRange. A value is read only when it matches
// vectorstore.TimePattern, its year is not 0000 and its day is one its
// month has, so the cast never fails; it is compared as the pair (its
// whole seconds as timestamptz, its fraction as nine digits of text),
// because timestamptz keeps microseconds and ParseTime nanoseconds.
func (b *sqlFilter) timeRange(key string, c vectorstore.Cond) string {
	from, to := c.TimeBounds()
	// PostgreSQL's timestamptz cannot hold every time.Time; no value
	// ParseTime accepts lies outside [minStored, maxStored].
	switch {
	case !from.IsZero() && from.After(maxStored), !to.IsZero() && to.Before(minStored):
		return "FALSE"
	}
	if from.Before(minStored) {
		from = time.Time{}
	}
	if to.After(maxStored) {
		to = time.Time{}
	}
	v := "(metadata ->> " + b.arg(key) + "::text)"
	valid := v + " ~ " + b.arg(vectorstore.TimePattern) + "::text AND substr(" + v + ", 1, 4) <> '0000'"
	lastDay := "extract(day from (substr(" + v + ", 1, 7) || '-01')::date + interval '1 month - 1 day')"
	secs := "regexp_replace(" + v + ", '\\.[0-9]+', '')::timestamptz"
	frac := "rpad(coalesce(substring(" + v + " from '\\.([0-9]+)'), ''), 9, '0')"
	parts := []string{"TRUE"}
	if !from.IsZero() {
		parts = append(parts, "("+secs+", "+frac+") >= ("+b.arg(from.Truncate(1e9))+"::timestamptz, "+b.arg(nanos(from.Nanosecond()))+"::text)")
	}
	if !to.IsZero() {
		parts = append(parts, "("+secs+", "+frac+") <= ("+b.arg(to.Truncate(1e9))+"::timestamptz, "+b.arg(nanos(to.Nanosecond()))+"::text)")
	}
	// Nested CASEs: the pattern is tested once, and the day only of a
	// value that has the layout; ELSE FALSE keeps a missing key (NULL)
	// from making the condition NULL.
	return "(CASE WHEN " + valid + " THEN CASE WHEN substr(" + v + ", 9, 2)::int <= " + lastDay +
		" THEN " + strings.Join(parts, " AND ") + " ELSE FALSE END ELSE FALSE END)"
}

func nanos(n int) string { return fmt.Sprintf("%09d", n) }

// The earliest and latest instants a value that ParseTime accepts can
// name: year 0001 at +15:59, and year 9999 at -15:59.
var (
	minStored = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Add(-16 * time.Hour)
	maxStored = time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC).Add(16 * time.Hour)
)
