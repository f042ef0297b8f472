// Package window turns search hits into the text a model reads: sentence
// windows around each hit, or the most relevant segments of the documents
// the hits point into.
//
// Small units (single sentences, or chunks of a few dozen tokens) make
// precise embeddings, but a model needs the text around them. Sentence-window
// retrieval embeds the small units and, at query time, expands each hit to
// its neighbours.
//
// # Units
//
// The package works at query time only. Units are the records of a store:
// package ingest writes them (sentences with ingest.Sentences, or small
// chunks) with consecutive Index values from 0, their byte offsets in the
// document, and, where the text between two units is not a single space,
// that text in its Notes.Gap ([vectorstore.Notes]). A unit carries no copy of its window: a
// window is read from the store when it is needed, with one Range call
// per document, and its text rebuilt exactly.
//
// # Windows
//
// An [Expander] takes a query's hits and returns one [Window] per run of
// units: Size units on each side of each hit (the same number before and
// after, unlike implementations that take one fewer after), clipped at
// the document's first and last unit, and grown outward from the hit,
// alternating sides, only while the exact count of the window's text fits
// ExpanderConfig.MaxTokens. Windows that overlap or touch are merged, so
// that the same paragraph never reaches the model twice; windows of
// different documents never are. A total budget keeps the windows of the
// best hits. Windows may be kept inside sections: with
// ExpanderConfig.WithinSections, a change of a record's Section (the
// section path ingest stores with each record) stops them.
//
// # Relevant segment extraction
//
// An [Extractor] picks segments instead of fixed windows, as dsRAG's
// relevant segment extraction does: every unit of a candidate document
// between its first and last hit gets a value (a retrieved unit by its
// rank, an unretrieved one a penalty), and the contiguous runs with the
// largest total value are taken, best first, each at most MaxUnits long,
// none overlapping, none crossing documents, until the best remaining run
// is worth less than a threshold or the token budget is spent. The
// presets [Balanced], [Precision] and [Recall] trade segment length for
// precision. The selection is not quadratic: a sliding minimum over prefix
// sums and a tournament tree give each pick in O(MaxUnits·log n).
//
// # Cost
//
// Expand and Extract read each document of the hits once, with one Range
// call covering all of its hits. Token caps
// cost O(log n) counts of at most twice a window's text for a window of n
// units (see [ExpanderConfig.MaxTokens]), never one per unit.
// benchmarks/README.md in the repository gives measured figures.
//
// # Errors
//
// Bad configuration and bad hits return errors wrapping the sentinels
// below (test with errors.Is). A hit whose document has vanished from the
// store since the query is not an error: its window is the hit alone,
// marked Vanished. Other errors of the Source are wrapped with
// [ErrSource] and the document's ID.
package window
