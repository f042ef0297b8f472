// Package langchaingo plugs ragkit's parts into github.com/tmc/langchaingo
// pipelines, and langchaingo's embedders into ragkit:
//
//   - [Splitter] is ragkit's chunker as a textsplitter.TextSplitter, with
//     [Splitter.SplitDocuments] for documents: unlike textsplitter's
//     SplitDocuments it keeps each chunk's byte offsets, index, exact token
//     count and section path in its metadata, and with a
//     contextheader.Decorator its contextual header and embed text.
//   - [Store] is any ragkit vectorstore.VectorStore (Memory, pgvector) as a
//     vectorstores.VectorStore: AddDocuments and SimilaritySearch, with
//     vectorstores.WithScoreThreshold, WithFilters and WithEmbedder mapped
//     where they mean the same in ragkit, and an error where they do not.
//   - [Retriever] is ragkit's retrieve.Retriever (hybrid search, fusion,
//     sentence windows or segments) as a schema.Retriever, for
//     chains.NewRetrievalQAFromLLM and the like.
//   - [Passages] turns the documents a Store or Retriever returned back into
//     retrieve.Passages, for retrieve.Items, its Citation labels and the
//     budget package.
//   - [NewEmbedder] makes a ragkit Embedder (the offline
//     lexical.Embedder, say) an embeddings.Embedder, and [RagkitEmbedder]
//     makes any langchaingo embedder a vectorstore.Embedder, for ingest,
//     Hybrid or a Store.
//
// Metadata crosses by the rules of package
// github.com/ragkit/ragkit/adapters/meta: langchaingo's map[string]any
// becomes ragkit's map[string]string by a documented encoding (or an error
// wrapping meta.ErrUnsupported), a record's ID, document, index and offsets
// travel under meta's keys, and so do its provenance (meta.TitleKey,
// meta.SectionKey, ...) and the library's notes (meta.NotesKey).
//
// What does not map: vectorstores.WithNameSpace (ragkit stores have no
// namespaces; use a store per namespace, or a metadata filter), filters with
// operators or lists of values, and a score threshold outside [-1, 1]
// (a Store's scores are cosine similarities). Each gives an error wrapping
// meta.ErrUnsupported rather than a search that means something else. A
// Retriever's documents say under meta.ScoreKindKey what their Score is: a
// fused score, for a Hybrid search, is no similarity, and langchaingo code
// that compares it with a similarity threshold would be wrong.
package langchaingo
