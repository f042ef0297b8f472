// Package ingest indexes documents end to end: it chunks them, adds
// contextual headers, embeds the chunks in batches and writes them to a
// vector store, and when a document changes it re-embeds only the chunks
// that changed.
//
// An [Indexer] is made once with [New] from a [Config] that names a
// chunker (a [chunker.Chunker], or any [SplitFunc]), optional headers (a
// [contextheader.Decorator]), a [vectorstore.Embedder] and a
// [vectorstore.VectorStore]:
//
//	ix, err := ingest.New(ingest.Config{Chunker: c, Embedder: emb, EmbedderName: "lexical-384", Store: store})
//	...
//	stats, err := ix.Index(ctx, docs...)
//
// and [Indexer.Index] is then called with the documents, as often as they
// change: with the same documents, it calls the Embedder for nothing and
// writes nothing.
//
// # What is embedded again
//
// Embedding is the expensive step: money for a hosted model, minutes for a
// local one. Each record the Indexer writes carries, in its Notes.Embed
// (see vectorstore.Notes), the key of its embed text: a SHA-256 of the
// Config.EmbedderName, the header and the chunk's text. On the next run a
// chunk whose key is found among the store's records of the documents being
// indexed takes that record's vector; the others are looked up in
// Config.Cache, if any, and only the rest are embedded, each distinct text
// once, BatchSize texts and at most MaxBatchTokens tokens per call,
// Concurrency calls at once. A new header (a document's title or a
// section's heading changed) or another embedder changes the key, so those
// chunks are embedded again; vectors made by another model are never
// reused. How many chunks a small edit changes is up to the chunker: the
// balanced chunker plans stretches between anchors so that an edit
// changes few of them, and its Config.StretchChunks trades a few percent
// more chunks for fewer changed ones. benchmarks/README.md in the
// repository has the figures.
//
// # Summaries
//
// Where Config.Headers has a contextheader.Summary part and a Summarizer,
// the Indexer asks it for each document's summary (unless
// Document.Summary gives one) and stores the summary on the document's
// records' Notes.Summary, with a digest of what it was made from. A
// later run over the same text, model and prompt takes the summary from
// the records, as it takes vectors: re-indexing an unchanged document
// calls no model, and a program keeps no summary cache of its own.
//
// # Record IDs
//
// A record's ID is derived from the document's ID and the chunk's content
// (see [Records]): the same chunk of the same document gets the same ID on
// every run and every machine, even when the text before it changed and its
// Index moved, and two equal chunks of one document get two IDs.
//
// # What records carry
//
// Besides its text, offsets and a copy of the document's Metadata (the
// caller's own: ingest adds no key to it), each record carries its
// provenance in typed fields, the document's Title and Source, its Section
// path and its Location in the source (pages, lines, rows), so that the
// query side labels, cites, groups and filters passages from the records
// alone; and in its Notes the text between it and the record before it,
// so that windows rebuild the document's text exactly, its header, which
// keyword search reads, and what a re-index reuses.
//
// # Formats
//
// Config.Chunker's settings cut each document as its own Format says: a
// folder of Markdown and plain text indexes with one Chunker.
//
// # Consistency
//
// Each document's records are replaced in one step where the store
// implements [vectorstore.DocumentReplacer] (as [memory.Store] does):
// a reader sees the document's old records or its new ones, never a mix.
// With another store the document is deleted and its records upserted,
// which readers may see half done; see [Indexer.Index].
//
// Failure is per document: a document that cannot be chunked, decorated,
// embedded or written is reported in a [*BatchError] (its ID
// and cause) and left in the store as it was, while the others are indexed.
// A panic in a function of the caller's (a SplitFunc, an Embedder, a
// Summarizer, a Cache) is recovered into an error wrapping [ErrPanic]. A
// vector that is empty, all zeros, not finite or of another length than
// the run's others fails its document before anything caches or writes
// it. A cancelled
// context stops new work and leaves every document either fully old or fully
// new. Documents gone from the source are deleted by [Indexer.Prune], or by
// every Index call with Config.Prune.
//
// # Doing it by hand
//
// The pieces of the pipeline are functions too, for callers who write
// their own loop: [Plain] turns chunks into chunks ready to embed, and
// [FromHeaders] the chunks a [contextheader.Decorator] gives with
// headers; their EmbedText
// fields are an Embed call's input, and [Records] turns chunks and their
// vectors into records with stable IDs.
//
// # Cost
//
// Chunking and headers run on all processors; the Embedder is called once
// per batch of texts that have no vector yet; the store is read once per
// document (with the vectors a changed document reuses) and written once
// per changed document. An unchanged document costs its
// chunking and one read. benchmarks/README.md in the repository has the
// measured figures.
package ingest
