package meta

import (
	"fmt"
	"slices"

	"github.com/ragkit/ragkit/vectorstore"
)

// Filter maps a framework's metadata filter onto a vectorstore.Filter. Each
// key of m must hold exactly its value, encoded with [Encode]; [DocIDKey]
// selects documents instead, by one ID (a string) or several ([]string, or
// []any of strings). A nil or empty m is the zero Filter, which matches
// everything.
//
// What ragkit's filters cannot say gives an error wrapping [ErrUnsupported]:
// an operator (a map value such as {"$in": [...]}), a list of values for a
// metadata key, an empty list of documents, and [IDKey], [IndexKey],
// [LastKey], [StartKey], [EndKey], [TokensKey], [ScoreKey] and [ScoreKindKey], which
// are not metadata.
func Filter(m map[string]any) (vectorstore.Filter, error) {
	var f vectorstore.Filter
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
		switch v.(type) {
		case map[string]any, []any, []string:
			return vectorstore.Filter{}, fmt.Errorf("%w: filter on %q with a %T: ragkit filters match one value per key", ErrUnsupported, k, v)
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
	return f, nil
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
