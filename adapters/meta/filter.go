package meta

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/ragkit/ragkit/vectorstore"
)

// Filter maps a framework's metadata filter onto a vectorstore.Filter. Each
// key of m is a condition on that metadata key, all of which must hold:
//
//   - a value must be held exactly, encoded with [Encode] (Filter.Metadata);
//   - a list of values ([]any or []string) is one of them
//     (vectorstore.In), as is {"$in": list}; {"$eq": v} is v;
//   - {"$gt": x}, {"$gte": x}, {"$lt": x}, {"$lte": x}, with x a number
//     or a time.Time, compare the stored value as a number or a time
//     (vectorstore.Between and TimeBetween, whose rules say which stored
//     values parse: a value that does not never matches); several
//     operators in one map must all hold. The zero time.Time is refused
//     as an operand (it is no instant a stored time could be compared
//     with).
//
// [DocIDKey] selects documents instead, by one ID (a string) or several
// ([]string, or []any of strings). A nil or empty m is the zero Filter,
// which matches everything.
//
// What ragkit's filters cannot say alike gives an error wrapping
// [ErrUnsupported]: another operator ($ne, $nin, $exists, $and, $or: their
// handling of a missing key differs between frameworks), an empty list, a
// zero time.Time operand,
// and [IDKey], [IndexKey], [LastKey], [StartKey], [EndKey], [TokensKey],
// [ScoreKey] and [ScoreKindKey], which are not metadata.
func Filter(m map[string]any) (vectorstore.Filter, error) {
	var f vectorstore.Filter
	var where []vectorstore.Cond
	for _, k := range sortedKeys(m) {
		v := m[k]
		switch k {
		case DocIDKey:
			ids, err := docIDs(v)
			if err != nil {
				return vectorstore.Filter{}, err
			}
			f.DocIDs = ids
			continue
		case IDKey, IndexKey, LastKey, StartKey, EndKey, TokensKey, ScoreKey, ScoreKindKey, EmbedTextKey:
			return vectorstore.Filter{}, fmt.Errorf("%w: filter on %q: ragkit filters match documents and metadata only", ErrUnsupported, k)
		}
		switch v := v.(type) {
		case map[string]any:
			conds, err := operators(k, v)
			if err != nil {
				return vectorstore.Filter{}, err
			}
			where = append(where, conds...)
			continue
		case []any, []string:
			c, err := in(k, v)
			if err != nil {
				return vectorstore.Filter{}, err
			}
			where = append(where, c)
			continue
		}
		s, err := Encode(v)
		if err != nil {
			return vectorstore.Filter{}, fmt.Errorf("filter on %q: %w", k, err)
		}
		if f.Metadata == nil {
			f.Metadata = make(map[string]string, len(m))
		}
		f.Metadata[k] = s
	}
	if len(where) > 0 {
		f.Where = vectorstore.And(where...)
	}
	return f, nil
}

// in maps a list of values onto vectorstore.In.
func in(k string, list any) (vectorstore.Cond, error) {
	var vals []any
	switch l := list.(type) {
	case []any:
		vals = l
	case []string:
		for _, s := range l {
			vals = append(vals, s)
		}
	default:
		return vectorstore.Cond{}, fmt.Errorf("%w: filter on %q: $in takes a list, not a %T", ErrUnsupported, k, list)
	}
	if len(vals) == 0 {
		return vectorstore.Cond{}, fmt.Errorf("%w: filter on %q with an empty list", ErrUnsupported, k)
	}
	enc := make([]string, len(vals))
	for i, v := range vals {
		s, err := Encode(v)
		if err != nil {
			return vectorstore.Cond{}, fmt.Errorf("filter on %q: value %d: %w", k, i, err)
		}
		enc[i] = s
	}
	return vectorstore.In(k, enc...), nil
}

// operators maps a map of operators on key k.
func operators(k string, ops map[string]any) ([]vectorstore.Cond, error) {
	if len(ops) == 0 {
		return nil, fmt.Errorf("%w: filter on %q with no operator", ErrUnsupported, k)
	}
	var out []vectorstore.Cond
	for _, op := range sortedKeys(ops) {
		x := ops[op]
		var c vectorstore.Cond
		var err error
		switch op {
		case "$eq":
			var s string
			if s, err = Encode(x); err == nil {
				c = vectorstore.Eq(k, s)
			}
		case "$in":
			c, err = in(k, x)
		case "$gt", "$gte", "$lt", "$lte":
			c, err = compare(k, op, x)
		default:
			return nil, fmt.Errorf("%w: filter on %q: operator %q", ErrUnsupported, k, op)
		}
		if err != nil {
			return nil, fmt.Errorf("filter on %q: %s: %w", k, op, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// compare maps $gt, $gte, $lt and $lte onto a range with one open end; a
// strict bound is the next float64 (or nanosecond) past the operand.
func compare(k, op string, x any) (vectorstore.Cond, error) {
	if t, ok := x.(time.Time); ok {
		if t.IsZero() {
			// vectorstore.TimeBetween reads the zero time as an open
			// bound: {"$lte": time.Time{}} would match every time.
			return vectorstore.Cond{}, fmt.Errorf("%w: the zero time.Time as an operand", ErrUnsupported)
		}
		switch op {
		case "$gt":
			return vectorstore.TimeBetween(k, t.Add(1), time.Time{}), nil
		case "$gte":
			return vectorstore.TimeBetween(k, t, time.Time{}), nil
		case "$lt":
			return vectorstore.TimeBetween(k, time.Time{}, t.Add(-1)), nil
		}
		return vectorstore.TimeBetween(k, time.Time{}, t), nil
	}
	s, err := Encode(x)
	if err != nil {
		return vectorstore.Cond{}, err
	}
	if _, isString := x.(string); isString {
		return vectorstore.Cond{}, fmt.Errorf("%w: a string operand: give a number or a time.Time", ErrUnsupported)
	}
	n, ok := vectorstore.ParseNumber(s)
	if !ok {
		return vectorstore.Cond{}, fmt.Errorf("%w: operand %s is not a number ragkit compares", ErrUnsupported, s)
	}
	inf := math.Inf(1)
	switch op {
	case "$gt":
		return vectorstore.Between(k, math.Nextafter(n, inf), inf), nil
	case "$gte":
		return vectorstore.Between(k, n, inf), nil
	case "$lt":
		return vectorstore.Between(k, -inf, math.Nextafter(n, -inf)), nil
	}
	return vectorstore.Between(k, -inf, n), nil
}

func docIDs(v any) ([]string, error) {
	var ids []string
	switch v := v.(type) {
	case string:
		ids = []string{v}
	case []string:
		ids = slices.Clone(v)
	case []any:
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("%w: filter on %q: a document ID of type %T", ErrUnsupported, DocIDKey, e)
			}
			ids = append(ids, s)
		}
	default:
		return nil, fmt.Errorf("%w: filter on %q with a %T: give a string or a list of strings", ErrUnsupported, DocIDKey, v)
	}
	if len(ids) == 0 {
		// The zero Filter would match every document: the opposite of
		// what an empty list asks for.
		return nil, fmt.Errorf("%w: filter on %q with no document IDs", ErrUnsupported, DocIDKey)
	}
	return ids, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Combine returns the filter a call runs with when a component configured
// with the filter configured (a retrieve.Config.Filter, say) is given the
// filter call for one call: their intersection, the records both match. A
// filter is an access boundary, so the call's filter narrows the
// configured one and never replaces it; either may be the zero Filter,
// which leaves the other as it is. Every adapter combines filters by this
// rule and no other.
//
// DocIDs are intersected (no common ID matches nothing), Metadata pairs
// are merged (two values for one key match nothing) and the Where
// conditions are joined by vectorstore.And. The result may break the
// limits of vectorstore.Cond that neither part breaks alone, in which case
// the store refuses the query with an error wrapping
// vectorstore.ErrInvalidArgument.
func Combine(configured, call vectorstore.Filter) vectorstore.Filter {
	switch {
	case call.IsZero():
		return configured
	case configured.IsZero():
		return call
	}
	out := vectorstore.Filter{DocIDs: configured.DocIDs, Metadata: configured.Metadata}
	var where []vectorstore.Cond
	for _, w := range []vectorstore.Cond{configured.Where, call.Where} {
		if (vectorstore.Filter{Where: w}).IsZero() {
			continue
		}
		where = append(where, w)
	}
	switch {
	case len(call.DocIDs) == 0:
	case len(out.DocIDs) == 0:
		out.DocIDs = call.DocIDs
	default:
		var both []string
		for _, id := range configured.DocIDs {
			if slices.Contains(call.DocIDs, id) {
				both = append(both, id)
			}
		}
		if len(both) == 0 {
			// An empty DocIDs would match every document: say "none"
			// with a condition no record satisfies instead.
			both = configured.DocIDs
			where = append(where, vectorstore.Or())
		}
		out.DocIDs = both
	}
	if len(call.Metadata) > 0 {
		out.Metadata = make(map[string]string, len(configured.Metadata)+len(call.Metadata))
		for k, v := range configured.Metadata {
			out.Metadata[k] = v
		}
		for _, k := range sortedKeys(call.Metadata) {
			v := call.Metadata[k]
			if have, ok := out.Metadata[k]; ok && have != v {
				where = append(where, vectorstore.Eq(k, v)) // and the configured value: none
				continue
			}
			out.Metadata[k] = v
		}
	}
	switch len(where) {
	case 0:
	case 1:
		out.Where = where[0]
	default:
		out.Where = vectorstore.And(where...)
	}
	return out
}
