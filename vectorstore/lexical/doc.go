// Package lexical is an offline [vectorstore.Embedder] that needs no model
// and no network: an [Embedder] hashes the words of a text and their
// bigrams into a fixed number of dimensions. It matches words, not
// meanings: see [Embedder] for when to bring a neural embedder instead.
//
//	var e lexical.Embedder // the zero value is the default, 2048 dimensions
//	vectors, err := e.Embed(ctx, []string{"first text", "second text"})
//
// The knobs are in [Config]: Dimension (fewer hash collisions for more
// memory) and KeepStopWords.
package lexical
