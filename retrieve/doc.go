// Package retrieve is the query side of ragkit's flow: a [Retriever] owns
// the path from a question to the passages of a prompt's context, as
// package ingest owns the path from a document to the store.
//
// A Retriever embeds the question once, runs the vector search and, over a
// store with keyword search (vectorstore.KeywordQuerier), the keyword
// search, each with the same filter and to the same depth; fuses their
// rankings by reciprocal rank fusion ([Fuse], weighted); widens the best
// hits into passages with a [Widener], sentence windows
// ([window.Expander]) or relevant segments ([window.Extractor]); and
// returns the passages best first, each with its document's ID, title,
// source and section path (read from the records' own fields), its byte
// offsets, text, tokens, score and the
// hits it holds. [Items] turns them into the [budget.Item] values of a
// prompt's context section in one call, labelled with [Citation] or a
// label of your own.
//
//	r, err := retrieve.New(retrieve.Config{Store: store, Embedder: emb, Widener: extractor})
//	passages, err := r.Retrieve(ctx, "How many vacation days?")
//	items, err := retrieve.Items(passages, retrieve.ItemConfig{Label: retrieve.Citation})
//
// # Ranking
//
// Passages are ranked by their strongest evidence: the scores of their
// hits compared best first (see [Passage]), so that a passage holding the
// best hit is never ranked below one holding only weaker hits, however
// many. A segment's value, which sums over its hits, lets several weak
// hits outweigh the one strong hit that answers the question; it chooses
// which segments to cut, not their order.
//
// Every ranking the package builds breaks ties in document order: by
// DocID, then Index (a passage's First), so that equal scores come back
// in an order a reader can follow, not in the order of record IDs.
//
// # Reranking and diversity
//
// A [Reranker] (a cross-encoder behind openai.Reranker, say) rescores the
// best Config.RerankDepth passages with the question, after widening, so
// that it reads each window or segment whole; the passages are then ranked
// by its scores. Config.MinScore drops passages below a score, of the kind
// the passages carry (see [Passage]); [Diversity] caps the passages of one
// document and, by maximal marginal relevance, prefers passages unlike
// those picked before, so that near-copies of one text do not fill the
// prompt.
//
// # Defaults
//
// The zero values of the weights, the depth and the number of passages
// were chosen on the project's retrieval evaluation (benchmarks/eval),
// comparing chunks, sentence windows and segments with and without
// keyword search; the README gives the tables.
package retrieve
