package vectorstore

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Filter restricts a query. A record matches when every part does:
//
//   - DocIDs: its DocID is one of them (if any are given);
//   - Sources: its Source is one of them (if any are given);
//   - Section: its Section path starts with this one (if one is given):
//     Section: []string{"Install"} keeps the units under the heading
//     "Install" and its subsections;
//   - Metadata: its Metadata holds every key of Metadata with exactly that
//     value (sugar for an [And] of [Eq]s);
//   - Where: the record's Metadata satisfies the condition (the zero
//     [Cond] is no condition).
//
// The zero Filter matches every record. Metadata and Where read only the
// caller's Metadata, and the record's provenance only through Sources and
// Section: a filter on a caller's key can never match a field or a note
// of the library's, whatever the key is called.
//
// A filter is also an access boundary: no store returns a record it
// excludes, from any search. A filter that breaks the limits of [Cond]
// ([MaxFilterDepth], [MaxFilterTerms]) or holds a key or value that is
// not valid UTF-8 or a NaN bound is refused by a query with an error
// wrapping [ErrInvalidArgument], and matches nothing through
// [Filter.Match].
type Filter struct {
	DocIDs   []string
	Sources  []string
	Section  []string
	Metadata map[string]string
	Where    Cond
}

// IsZero reports whether f restricts nothing.
func (f Filter) IsZero() bool {
	return len(f.DocIDs) == 0 && len(f.Sources) == 0 && len(f.Section) == 0 && len(f.Metadata) == 0 && f.Where.op == opAll
}

// Match reports whether r passes the filter; a filter that [Filter.Check]
// refuses matches nothing. Adapters that cannot push a filter down to
// their database can apply it to the results with Match. It compares
// r.DocID and r.Source with each of DocIDs and Sources in turn: for a
// long list, test membership in a set of your own first.
func (f Filter) Match(r Record) bool {
	if len(f.DocIDs) > 0 && !slices.Contains(f.DocIDs, r.DocID) {
		return false
	}
	if len(f.Sources) > 0 && !slices.Contains(f.Sources, r.Source) {
		return false
	}
	if !inSection(r.Section, f.Section) {
		return false
	}
	if !matchMetadata(f.Metadata, r.Metadata) {
		return false
	}
	if f.Where.op == opAll {
		return true
	}
	return f.Where.valid() && f.Where.match(r.Metadata)
}

// inSection reports whether a record's section path lies in section: it
// starts with it, heading by heading. Every path lies in the empty one.
func inSection(path, section []string) bool {
	return len(path) >= len(section) && slices.Equal(path[:len(section)], section)
}

// Check returns an error wrapping [ErrInvalidArgument] if a store would
// refuse f: a Where deeper than [MaxFilterDepth] or with more than
// [MaxFilterTerms] terms, an empty key, a key or value that is not valid
// UTF-8, or a NaN bound of a [Between].
func (f Filter) Check() error {
	if f.Where.valid() {
		return nil
	}
	if err := f.Where.check(); err != nil {
		return fmt.Errorf("%w: filter: %v", ErrInvalidArgument, err)
	}
	return nil
}

// matchMetadata reports whether have holds every pair of want.
func matchMetadata(want, have map[string]string) bool {
	for k, v := range want {
		if got, ok := have[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// Limits of a [Cond]: a filter a caller builds from a request cannot make
// a query's work or memory grow without bound.
const (
	// MaxFilterDepth is the deepest nesting of And, Or and Not a filter
	// may have: a leaf alone is depth 1.
	MaxFilterDepth = 32
	// MaxFilterTerms is the most terms a filter may have, counting each
	// condition and each value of an [In].
	MaxFilterTerms = 4096
)

// Cond is a condition on a record's Metadata, made by [Eq], [In],
// [Exists], [Between], [TimeBetween], [And], [Or] and [Not]. The zero Cond is
// no condition: every record satisfies it. Conds are values; they may be
// shared and reused.
//
// Metadata values are strings. [Between] reads a value as a number and
// [TimeBetween] as a time, by the rules of [ParseNumber] and [ParseTime]; a
// value that does not parse (or a missing key) never satisfies a range, as
// in every store, so that "year in 2020..2024" never lets "n/a" through.
type Cond struct {
	op     condOp
	key    string
	values []string // In
	lo, hi float64  // Between
	from   timeKey  // TimeBetween
	to     timeKey
	conds  []Cond // And, Or; Not has one

	// What Check needs of the tree, kept by the constructors so that
	// Check and Match cost the same for a filter of 4,096 terms as of
	// one: its height, its terms (at most MaxFilterTerms+1) and whether
	// some leaf is malformed. A zero Cond holds zeros: see summary.
	height, terms int32
	malformed     bool
}

// summary returns c's height, terms and malformation, the zero Cond
// counting as one term of height 1 as Check counts it.
func (c *Cond) summary() (height, terms int32, malformed bool) {
	if c.op == opAll {
		return 1, 1, false
	}
	return c.height, c.terms, c.malformed
}

// leaf returns c, a condition on one key, with its summary.
func leaf(c Cond) Cond {
	c.height, c.terms = 1, int32(min(1+len(c.values), MaxFilterTerms+1))
	c.malformed = c.leafErr() != nil
	return c
}

// node returns c, an And, Or or Not of c.conds, with its summary.
func node(c Cond) Cond {
	c.height, c.terms = 1, 1
	for i := range c.conds {
		h, t, bad := c.conds[i].summary()
		c.height = max(c.height, min(h, MaxFilterDepth)+1)
		c.terms = min(c.terms+t, MaxFilterTerms+1)
		c.malformed = c.malformed || bad
	}
	return c
}

// valid reports whether Check accepts c, in constant time.
func (c *Cond) valid() bool {
	h, t, bad := c.summary()
	return h <= MaxFilterDepth && t <= MaxFilterTerms && !bad
}

type condOp uint8

const (
	opAll condOp = iota // the zero Cond: true
	opIn
	opExists
	opBetween
	opTimeBetween
	opAnd
	opOr
	opNot
)

// Eq is satisfied by a record whose Metadata holds key with exactly value.
func Eq(key, value string) Cond { return In(key, value) }

// In is satisfied by a record whose Metadata holds key with one of values.
// With no values it is satisfied by none. Not(In(key, values...)) is
// satisfied by a record that lacks key or holds it with another value; to
// require the key, write And(Exists(key), Not(In(key, ...))).
func In(key string, values ...string) Cond {
	return leaf(Cond{op: opIn, key: key, values: slices.Clone(values)})
}

// Exists is satisfied by a record whose Metadata holds key, whatever its
// value.
func Exists(key string) Cond { return leaf(Cond{op: opExists, key: key}) }

// Between is satisfied by a record whose Metadata holds key with a number
// (by [ParseNumber]) from lo to hi, both included. An infinite bound is
// open: Between("year", 2020, math.Inf(1)) is "2020 or later". For a strict
// bound use math.Nextafter: x > 5 is Between(key, math.Nextafter(5,
// math.Inf(1)), math.Inf(1)). A NaN bound is refused by [Filter.Check].
func Between(key string, lo, hi float64) Cond {
	return leaf(Cond{op: opBetween, key: key, lo: lo, hi: hi})
}

// TimeBetween is satisfied by a record whose Metadata holds key with a time
// (by [ParseTime]) from from to to, both included, compared as instants
// whatever their offsets. A zero time is an open bound: TimeBetween(key,
// t, time.Time{}) is "t or later". For a strict bound add a nanosecond.
func TimeBetween(key string, from, to time.Time) Cond {
	c := Cond{op: opTimeBetween, key: key, from: minTime, to: maxTime}
	if !from.IsZero() {
		c.from = keyOf(from)
	}
	if !to.IsZero() {
		c.to = keyOf(to)
	}
	return leaf(c)
}

// And is satisfied when every one of conds is; with none, always.
func And(conds ...Cond) Cond { return node(Cond{op: opAnd, conds: slices.Clone(conds)}) }

// Or is satisfied when one of conds is at least; with none, never.
func Or(conds ...Cond) Cond { return node(Cond{op: opOr, conds: slices.Clone(conds)}) }

// Not is satisfied when c is not.
func Not(c Cond) Cond { return node(Cond{op: opNot, conds: []Cond{c}}) }

// timeKey is an instant that orders by comparison of its fields.
type timeKey struct {
	sec  int64
	nsec int32
}

var (
	minTime = timeKey{sec: math.MinInt64}
	maxTime = timeKey{sec: math.MaxInt64, nsec: 999999999}
)

func keyOf(t time.Time) timeKey { return timeKey{sec: t.Unix(), nsec: int32(t.Nanosecond())} }

func (a timeKey) compare(b timeKey) int {
	switch {
	case a.sec != b.sec:
		if a.sec < b.sec {
			return -1
		}
		return 1
	case a.nsec != b.nsec:
		if a.nsec < b.nsec {
			return -1
		}
		return 1
	}
	return 0
}

// match reports whether md satisfies c, which check accepted.
func (c *Cond) match(md map[string]string) bool {
	switch c.op {
	case opAll:
		return true
	case opIn:
		v, ok := md[c.key]
		return ok && slices.Contains(c.values, v)
	case opExists:
		_, ok := md[c.key]
		return ok
	case opBetween:
		v, ok := md[c.key]
		if !ok {
			return false
		}
		x, ok := ParseNumber(v)
		return ok && x >= c.lo && x <= c.hi
	case opTimeBetween:
		v, ok := md[c.key]
		if !ok {
			return false
		}
		t, ok := ParseTime(v)
		if !ok {
			return false
		}
		k := keyOf(t)
		return k.compare(c.from) >= 0 && k.compare(c.to) <= 0
	case opAnd:
		for i := range c.conds {
			if !c.conds[i].match(md) {
				return false
			}
		}
		return true
	case opOr:
		for i := range c.conds {
			if c.conds[i].match(md) {
				return true
			}
		}
		return false
	case opNot:
		return !c.conds[0].match(md)
	}
	return false
}

// check returns what breaks the limits or rules in c.
func (c *Cond) check() error {
	terms := 0
	return c.walk(1, &terms)
}

func (c *Cond) walk(depth int, terms *int) error {
	if depth > MaxFilterDepth {
		return fmt.Errorf("nested deeper than MaxFilterDepth (%d)", MaxFilterDepth)
	}
	*terms += 1 + len(c.values)
	if *terms > MaxFilterTerms {
		return fmt.Errorf("more than MaxFilterTerms (%d) terms", MaxFilterTerms)
	}
	switch c.op {
	case opAll, opAnd, opOr, opNot:
		if c.op == opNot && len(c.conds) != 1 {
			return fmt.Errorf("Not of %d conditions", len(c.conds)) // only a hand-made Cond gets here
		}
		for i := range c.conds {
			if err := c.conds[i].walk(depth+1, terms); err != nil {
				return err
			}
		}
		return nil
	}
	return c.leafErr()
}

// leafErr says what is wrong with c, a condition on one key, or nil.
func (c *Cond) leafErr() error {
	if c.key == "" {
		return fmt.Errorf("empty key")
	}
	if !utf8.ValidString(c.key) {
		return fmt.Errorf("key %q %v", c.key, errUTF8)
	}
	for _, v := range c.values {
		if !utf8.ValidString(v) {
			return fmt.Errorf("key %q: value %q %v", c.key, v, errUTF8)
		}
	}
	if c.op == opBetween && (math.IsNaN(c.lo) || math.IsNaN(c.hi)) {
		return fmt.Errorf("key %q: range bound is NaN", c.key)
	}
	return nil
}

// Parts of a Cond, for stores that translate filters into their own query
// language: [Cond.Kind], [Cond.Key], [Cond.Len], [Cond.Value], [Cond.Part],
// [Cond.Bounds] and [Cond.TimeBounds].

// CondKind says which constructor made a [Cond].
type CondKind int

// The kinds of [Cond].
const (
	KindAll         CondKind = iota // the zero Cond
	KindIn                          // In, Eq
	KindExists                      // Exists
	KindBetween                     // Between
	KindTimeBetween                 // TimeBetween
	KindAnd                         // And
	KindOr                          // Or
	KindNot                         // Not
)

var kindNames = [...]string{"All", "In", "Exists", "Between", "TimeBetween", "And", "Or", "Not"}

func (k CondKind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "CondKind(" + strconv.Itoa(int(k)) + ")"
}

// Kind returns which constructor made c.
func (c Cond) Kind() CondKind { return CondKind(c.op) }

// Key returns the metadata key of a leaf (In, Exists, Between, TimeBetween),
// or "".
func (c Cond) Key() string { return c.key }

// Bounds returns the bounds of a Between (either may be infinite).
func (c Cond) Bounds() (lo, hi float64) { return c.lo, c.hi }

// TimeBounds returns the bounds of a TimeBetween, in UTC; a bound that is
// open is the zero time.
func (c Cond) TimeBounds() (from, to time.Time) {
	if c.from != minTime {
		from = time.Unix(c.from.sec, int64(c.from.nsec)).UTC()
	}
	if c.to != maxTime {
		to = time.Unix(c.to.sec, int64(c.to.nsec)).UTC()
	}
	return from, to
}

// Len returns the number of values of an In, or of conditions of an And,
// Or or Not. With [Cond.Value] and [Cond.Part] a store walks a filter on
// every query without copying it.
func (c Cond) Len() int { return max(len(c.values), len(c.conds)) }

// Value returns the i-th value of an In, 0 <= i < [Cond.Len].
func (c Cond) Value(i int) string { return c.values[i] }

// Part returns the i-th condition of an And, Or or Not, 0 <= i < [Cond.Len].
func (c Cond) Part(i int) Cond { return c.conds[i] }

// maxNumberLen bounds the text of a number, so that every number that
// parses is a normal float64 (no overflow to infinity, no underflow) in
// any store's arithmetic, and a database can parse it alike.
const maxNumberLen = 64

// ParseNumber reads a metadata value as [Between] does: a decimal number of
// at most 64 bytes, an optional sign, digits with an optional fraction
// ("12", "-3.5", ".5", "5."), and an optional exponent of one or two
// digits ("1e6", "2.5E-3"), rounded to the nearest float64. Anything else
// ("", " 12", "1,000", "0x10", "NaN", "Inf", "1e400") does not parse, and
// ok is false: such a value never satisfies a Between. The same rule is the
// regular expression [NumberPattern], which a database adapter applies
// before its cast.
func ParseNumber(s string) (x float64, ok bool) {
	if !isNumber(s) {
		return 0, false
	}
	x, err := strconv.ParseFloat(s, 64)
	return x, err == nil
}

// NumberPattern is the POSIX regular expression of the values
// [ParseNumber] accepts (without the length limit of 64 bytes).
const NumberPattern = `^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]{1,2})?$`

func isNumber(s string) bool {
	if len(s) == 0 || len(s) > maxNumberLen {
		return false
	}
	i := 0
	if s[i] == '+' || s[i] == '-' {
		i++
	}
	digits := 0
	for i < len(s) && isDigit(s[i]) {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for i < len(s) && isDigit(s[i]) {
			i++
			exp++
		}
		if exp == 0 || exp > 2 {
			return false
		}
	}
	return i == len(s)
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// ParseTime reads a metadata value as [TimeBetween] does: an RFC 3339 time
// with an upper-case T and a Z or a numeric offset, seconds from 00 to 59,
// up to 9 digits of fraction, a year from 0001 to 9999 and an offset of
// at most 15:59 ("2026-03-01T09:30:00Z", "2026-03-01T10:30:00.5+01:00"),
// the form the loader package and the adapters write. Anything else (a
// date alone, a lower-case t, a day the month does not have) does not
// parse, and ok is false: such a value never satisfies a TimeBetween.
func ParseTime(s string) (t time.Time, ok bool) {
	if !isTime(s) {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}

// TimePattern is the POSIX regular expression of the layout [ParseTime]
// accepts; a value that matches it may still name a day its month lacks
// (February 30), which ParseTime refuses too.
const TimePattern = `^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{1,9})?(Z|[+-](0[0-9]|1[0-5]):[0-5][0-9])$`

// isTime checks the layout of TimePattern, and a year other than 0000.
func isTime(s string) bool {
	// 2006-01-02T15:04:05 is 19 bytes; then an optional fraction and the zone.
	if len(s) < 20 || len(s) > 35 {
		return false
	}
	if !isDigit(s[0]) || !isDigit(s[1]) || !twoDigits(s, 2, 99) || s[:4] == "0000" {
		return false
	}
	if s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return false
	}
	if !twoDigits(s, 5, 12) || s[5:7] == "00" || !twoDigits(s, 8, 31) || s[8:10] == "00" ||
		!twoDigits(s, 11, 23) || !twoDigits(s, 14, 59) || !twoDigits(s, 17, 59) {
		return false
	}
	zone := s[19:]
	if zone[0] == '.' {
		n := 1
		for n < len(zone) && isDigit(zone[n]) {
			n++
		}
		if n == 1 || n > 10 {
			return false
		}
		zone = zone[n:]
	}
	if zone == "Z" {
		return true
	}
	return len(zone) == 6 && (zone[0] == '+' || zone[0] == '-') && zone[3] == ':' &&
		twoDigits(zone, 1, 15) && twoDigits(zone, 4, 59)
}

// twoDigits reports whether s[i:i+2] are two digits of a number at most limit.
func twoDigits(s string, i, limit int) bool {
	return isDigit(s[i]) && isDigit(s[i+1]) && int(s[i]-'0')*10+int(s[i+1]-'0') <= limit
}

// String returns c in a form for people, such as and(in("dept", "hr",
// "it"), between("year", 2020, 2024)); the zero Cond is "all".
func (c Cond) String() string {
	var b strings.Builder
	c.write(&b)
	return b.String()
}

func (c *Cond) write(b *strings.Builder) {
	name := strings.ToLower(c.Kind().String())
	if c.op == opAll {
		b.WriteString(name)
		return
	}
	b.WriteString(name)
	b.WriteByte('(')
	switch c.op {
	case opAnd, opOr, opNot:
		for i := range c.conds {
			if i > 0 {
				b.WriteString(", ")
			}
			c.conds[i].write(b)
		}
	default:
		b.WriteString(strconv.Quote(c.key))
		switch c.op {
		case opIn:
			for _, v := range c.values {
				b.WriteString(", ")
				b.WriteString(strconv.Quote(v))
			}
		case opBetween:
			fmt.Fprintf(b, ", %v, %v", c.lo, c.hi)
		case opTimeBetween:
			from, to := c.TimeBounds()
			fmt.Fprintf(b, ", %s, %s", timeBound(from), timeBound(to))
		}
	}
	b.WriteByte(')')
}

func timeBound(t time.Time) string {
	if t.IsZero() {
		return "open"
	}
	return t.Format(time.RFC3339Nano)
}
