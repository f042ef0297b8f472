package eval

import (
	"context"
	"fmt"

	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/vectorstore"
)

// Searches lists the names of the searches [WithSearch] knows, in the
// order the command runs them: "vector" (the default of a [Method]),
// "keywords" and "hybrid".
func Searches() []string { return []string{"vector", "keywords", "hybrid"} }

// WithSearch returns m searching the way search names: "vector" returns m
// unchanged; "keywords" finds units by BM25 over their texts alone
// (memory.Store.QueryKeywords), ignoring the vectors; "hybrid" by
// both, fused by retrieve.Fuse with the defaults of a retrieve.Retriever
// (retrieve.DefaultFusion, each search contributing max(k,
// retrieve.DefaultDepth) candidates). The method keeps its units and its
// Retrieve, and is named m's name followed by "+keywords" or "+hybrid".
// Another name gives an error wrapping [ErrConfig].
//
// Keyword search reads the records' texts, which are the units' own text
// (not Unit.Embed): a contextual header helps the vector search only.
func WithSearch(m Method, search string) (Method, error) {
	switch search {
	case "vector":
		return m, nil
	case "keywords":
		m.Search = keywordSearch
	case "hybrid":
		m.Search = hybridSearch
	default:
		return Method{}, fmt.Errorf("%w: search %q is none of %v", ErrConfig, search, Searches())
	}
	m.Name += "+" + search
	return m, nil
}

func keywordSearch(ctx context.Context, ix *Index, q Query, k int) ([]vectorstore.Hit, error) {
	return ix.Store.QueryKeywords(ctx, q.Text, k, vectorstore.Filter{})
}

func hybridSearch(ctx context.Context, ix *Index, q Query, k int) ([]vectorstore.Hit, error) {
	vh, kh, err := ix.Store.QueryHybrid(ctx, q.Vector, q.Text, max(k, retrieve.DefaultDepth), vectorstore.Filter{})
	if err != nil {
		return nil, err
	}
	hits, err := retrieve.Fuse(retrieve.DefaultFusion(), vh, kh)
	return hits[:min(k, len(hits))], err
}
