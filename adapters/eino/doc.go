// Package eino plugs ragkit's parts into github.com/cloudwego/eino graphs and
// chains, and eino's embedders into ragkit:
//
//   - [Transformer] is ragkit's chunker as a document.Transformer: each
//     chunk a schema.Document with its byte offsets, index, exact token
//     count and section path in its metadata, and with a
//     contextheader.Decorator its contextual header and embed text.
//   - [Indexer] and [Retriever] are any ragkit vectorstore.VectorStore
//     (Memory, pgvector) as an indexer.Indexer and a retriever.Retriever,
//     with eino's options mapped where they mean the same in ragkit and an
//     error where they do not.
//   - [PassageRetriever] is ragkit's retrieve.Retriever (hybrid search,
//     fusion, sentence windows or segments) as a retriever.Retriever.
//   - [Passages] turns the documents either retriever returned back into
//     retrieve.Passages, for retrieve.Items, its Citation labels and the
//     budget package.
//   - [NewEmbedder] makes a ragkit Embedder (the offline
//     lexical.Embedder, say) an embedding.Embedder, and [RagkitEmbedder]
//     makes an eino embedder a vectorstore.Embedder.
//
// # Precision
//
// eino's vectors are float64, ragkit's float32. A float32 converts to a
// float64 exactly, so [NewEmbedder] loses nothing. [RagkitEmbedder], and a
// document's own dense vector given to the [Indexer], round each component to
// the nearest float32: a relative error of at most 2^-24 (about 6e-8) per
// component, which moves a cosine similarity by about as much; rankings change
// only between hits whose scores tie to seven digits. A component too large
// for a float32 (beyond about 3.4e38), NaN or infinite gives an error wrapping
// meta.ErrEmbedding rather than an infinity in the store.
//
// # What maps
//
// Metadata crosses by the rules of package
// github.com/ragkit/ragkit/adapters/meta. eino's own metadata keys are read
// as eino means them: a document's dense vector (schema.Document.DenseVector)
// is the vector the Indexer stores, without embedding; its score
// (Document.Score) is the hit's score on the way out, with meta.ScoreKindKey
// saying it is a cosine similarity, and dropped on the way in; its extra info
// is a string like any other. Sub-indexes (indexer.WithSubIndexes,
// retriever.WithIndex, WithSubIndex, a document's sub-indexes), DSL
// (retriever.WithDSLInfo), sparse vectors and embedding.WithModel have no
// equivalent in ragkit and give an error wrapping meta.ErrUnsupported, as do
// filters that meta.Filter refuses.
package eino
