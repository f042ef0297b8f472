package vectorstore

import "context"

// HybridQuerier is implemented by stores that can run a vector search and
// a keyword search for one question in one step, both over the same
// records, so that a write cannot fall between them (a re-indexed
// document is seen whole, old or new, by both). QueryHybrid returns what
// [VectorStore].Query(vector) and [KeywordQuerier].QueryKeywords(text)
// would, k hits each at most, with the same errors. Check for it with a
// type assertion; the retrieve package's Retriever does, and fuses the two
// lists.
type HybridQuerier interface {
	QueryHybrid(ctx context.Context, vector []float32, text string, k int, filter Filter) (vectorHits, keywordHits []Hit, err error)
}
