// Package genkitrag plugs ragkit's stores and embedders into Firebase Genkit
// for Go (github.com/firebase/genkit/go), and Genkit's embedders into ragkit.
// It is named so that it does not clash with Genkit's own genkit package.
//
//   - [NewRetriever] and [DefineRetriever] make any ragkit
//     vectorstore.VectorStore (Memory, pgvector) a Genkit ai.Retriever: an
//     action like any other, run directly or with genkit.Retrieve, with
//     [RetrieverOptions] (k, a score threshold, a metadata filter) as its
//     options.
//   - [NewPassageRetriever] and [DefinePassageRetriever] do the same for
//     ragkit's retrieve.Retriever (hybrid search, fusion, sentence windows or
//     segments), and [Passages] turns retrieved documents back into
//     retrieve.Passages, for retrieve.Items and the budget package.
//   - [Indexer] writes Genkit documents into the store. Genkit for Go has no
//     indexer action any more: its plugins (localvec, alloydb, postgresql)
//     index with a plain method, Index(ctx, docs), and so does this one.
//   - [Splitter] cuts Genkit documents with ragkit's chunker (and contextual
//     headers), keeping each chunk's offsets, index, exact token count and
//     section path in its metadata; Genkit has no splitter interface, so it
//     is a plain method too.
//   - [NewEmbedder] makes a ragkit Embedder (the offline
//     lexical.Embedder, say) a Genkit ai.Embedder, and [RagkitEmbedder]
//     makes a Genkit embedder a vectorstore.Embedder, for ingest or Hybrid.
//
// None of them needs a plugin or a server: ai.NewRetriever and
// ai.NewEmbedder make actions without a registry, and DefineRetriever
// registers one in a *genkit.Genkit made by genkit.Init (which starts its
// reflection server only when GENKIT_ENV is "dev", as always).
//
// Metadata crosses by the rules of package
// github.com/ragkit/ragkit/adapters/meta. Genkit's documents have no score,
// so a retrieved document carries its score under meta.ScoreKey and its kind
// (a cosine similarity) under meta.ScoreKindKey. A document is its text
// parts, joined; a media, data or tool part cannot be embedded by a ragkit
// Embedder and gives an error wrapping meta.ErrUnsupported, as do
// options and filters that do not map.
package genkitrag
