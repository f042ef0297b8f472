package eval

import (
	"context"
	"fmt"

	"github.com/ragkit/ragkit/vectorstore"
)

// Searches lists the names of the searches [WithSearch] knows, in the
// order the command runs them: "vector" (the default of a [Method]),
// "keywords" and "hybrid".
func Searches() []string { return []string{"vector", "keywords", "hybrid"} }

// WithSearch returns m searching the way search names: "vector" returns m
// unchanged; "keywords" finds units by BM25 over their texts alone
// (vectorstore.Memory.QueryKeywords), ignoring the vectors; "hybrid" by
// both, fused by reciprocal rank fusion with the defaults of
// vectorstore.Hybrid (each search contributes max(k, 50) candidates). The
// method keeps its units and its Retrieve, and is named m's name followed
// by "+keywords" or "+hybrid". Another name gives an error wrapping
// [ErrConfig].
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
	h, err := vectorstore.NewHybrid(vectorstore.HybridConfig{Store: ix.Store, Embedder: embedded(q)})
	if err != nil {
		return nil, err
	}
	return h.Query(ctx, q.Text, k, vectorstore.Filter{})
}

// embedded is an Embedder that knows the vector of one query, which the
// evaluation has embedded already, so that a hybrid search does not call
// a remote embedder a second time.
type embedded Query

func (e embedded) Embed(_ context.Context, texts []string) ([][]float32, error) {
	if len(texts) != 1 || texts[0] != e.Text {
		return nil, fmt.Errorf("%w: the hybrid search embeds %q, not the question", ErrEmbed, texts)
	}
	return [][]float32{e.Vector}, nil
}
