// Package retrieve is the query side of ragkit's flow: a [Retriever] owns
// the path from a question to the passages of a prompt's context, as
// package ingest owns the path from a document to the store.
//
// A Retriever rewrites a follow-up question with its conversation if it
// has a [Rewriter], embeds the question once, runs the vector search and, over a
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
// # Into the prompt
//
// A passage knows where its hits are in its text ([Passage.HitSpans]) and
// which of their sentences match the question's words best
// ([Passage.Focus]). [Items] gives both to the budget as each item's
// protected spans (budget.Item.Keep), after the header rows of a Markdown
// table the passage starts inside and before its label, so that a cut
// keeps the likely answer and gives up the text farthest from it, with a
// marker where text was left out. [ItemConfig.Room], the context
// section's budget less its heading, sizes the passages to share it: a
// segment that grew to a whole document no longer takes the whole budget
// and pushes the next document's best hit out.
//
//	items, err := retrieve.Items(passages, retrieve.ItemConfig{Label: retrieve.Citation,
//		Room: 300 - tok.Count("Context:\n"), Tokenizer: tok})
//
// Which units to retrieve: on the evaluation's corpora, chunks of 128 to
// 256 tokens, each hit a passage (no Widener), with Room keep the most
// answers in the prompt at every budget, from 120 to 600 tokens of
// context; segments (window.Extractor) find fewer and keep them as well
// only in small prompts, and sentence windows trail both.
// benchmarks/cmd/survive prints the table (answers in the passages and in
// the prompt, by units and budget); benchmarks/README.md has it.
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
// # Conversations and query rewriting
//
// A follow-up question ("and in Toronto?") means little on its own. A
// [Rewriter] in Config.Rewriter turns it, with the conversation before it
// (the [Turn]s of a [Query]), into what is searched: one standalone
// question, or several phrasings, each searched with the configured
// searches and their hits fused by reciprocal rank fusion (Config.Fusion's
// Method and K, every phrasing weighted alike), so that a passage several
// phrasings find rises. openai.Condenser is a Rewriter over any
// OpenAI-compatible chat model. Without a Rewriter, which is also the
// offline case, the question is searched as it is.
//
//	r, err := retrieve.New(retrieve.Config{Store: store, Embedder: emb, Rewriter: condenser})
//	res, err := r.RetrieveQuery(ctx, retrieve.Query{Question: "and in Toronto?", Conversation: turns})
//	fmt.Println(res.Questions, res.Stats.Total)
//
// # Stage timings
//
// [Retriever.RetrieveQuery] returns a [Result]: the passages, what was
// searched, and [Stats], the time of each stage (rewriting, embedding,
// each search, fusion, widening, reranking, diversity) and of the whole
// call. Timing reads the clock twice per stage and allocates nothing;
// [Retriever.Retrieve] reads no clock at all. BenchmarkStatsOverhead
// compares the two (benchmarks/README.md has the figures).
//
// # Defaults
//
// The zero values of the weights, the depth and the number of passages
// were chosen on the project's retrieval evaluation (benchmarks/eval),
// comparing chunks, sentence windows and segments with and without
// keyword search; the README gives the tables.
package retrieve
