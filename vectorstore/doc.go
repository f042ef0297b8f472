// Package vectorstore is the contract between ragkit and the stores that
// hold its embedded units: a [Record] (one chunk or sentence with its
// vector, its place in its document and where it came from), a [Hit] (a
// record with its score), a [Filter] over metadata and provenance, and
// the [Embedder] and [VectorStore] interfaces that ingest, window and
// retrieve are written against. It holds no store: the in-memory one is
// package [github.com/ragkit/ragkit/vectorstore/memory], the offline
// embedder [github.com/ragkit/ragkit/vectorstore/lexical], PostgreSQL
// with pgvector the module github.com/ragkit/ragkit/vectorstore/pgvector,
// and [github.com/ragkit/ragkit/vectorstore/storetest] is the conformance
// suite every store passes.
//
//	store, _ := memory.New(memory.Config{})
//	var s vectorstore.VectorStore = store
//	hits, err := s.Query(ctx, vector, 5, vectorstore.Filter{
//		Where: vectorstore.And(vectorstore.Eq("lang", "en"), vectorstore.Between("year", 2020, 2024)),
//	})
//
// Optional interfaces, checked with a type assertion, say what else a
// store can do: [DocumentReplacer] (replace a document in one step),
// [DocumentLister] (list its documents, for pruning), [KeywordQuerier]
// (full-text search) and [HybridQuerier] (both searches over the same
// records at once).
//
// # Filters
//
// Every search takes a [Filter]: document IDs, exact metadata pairs, and
// a Where condition over metadata made of [In], [Eq], [Exists],
// numeric ranges ([Between]), time ranges ([TimeBetween]), [And], [Or] and [Not]:
//
//	vectorstore.Filter{Where: vectorstore.And(
//		vectorstore.In("dept", "hr", "it"),
//		vectorstore.Between("year", 2020, 2024),
//		vectorstore.Not(vectorstore.In("clearance", "secret")),
//	)}
//
// Metadata values are strings: a range reads one as a number by
// [ParseNumber] (plain decimal, such as "2024" or "-0.5") or as a time by
// [ParseTime] (RFC 3339, such as "2026-03-01T09:30:00Z"), and a value that
// does not parse, like a missing key, never satisfies a range. A filter is
// bounded ([MaxFilterDepth], [MaxFilterTerms]); [Filter.Check] gives the
// error, wrapping [ErrInvalidArgument], that every query returns for one
// beyond the bounds. A filter is an access boundary: no search returns a
// record it excludes, and package retrieve reads windows and segments
// through it too.
//
// Every record must have an ID, a DocID, an Index of zero or more and
// byte offsets with 0 <= Start <= End; records returned are copies. A
// refused record gives a [*RecordError] (wrapping [ErrInvalidRecord]); the
// other errors wrap the sentinels [ErrNotFound], [ErrDimensionMismatch],
// and [ErrInvalidArgument] (test with [errors.Is]); a store adds its own
// (the memory store's ErrCorrupt, for one). A failed write changes nothing.
//
// # Writing an adapter for an external database
//
// To keep vectors in Qdrant, pgvector, Milvus or any other database,
// implement [VectorStore] over its client (for PostgreSQL with pgvector,
// the module github.com/ragkit/ragkit/vectorstore/pgvector is one), check
// records with [CheckRecords] before writing them, and run the
// conformance suite of package
// [github.com/ragkit/ragkit/vectorstore/storetest] against it, as
// the memory store's own tests do. The four methods map onto
// operations every such database has; the only demand beyond a vector
// index is that Range is cheap, which needs the document ID and the index
// stored as filterable fields.
//
//   - Store each [Record] as one point or row: the vector, plus ID, DocID,
//     Index, Start, End, Text and Metadata as payload or columns. Keep the
//     ID as the primary key so that Upsert replaces. Return copies: a
//     caller may change a returned record's Vector or Metadata.
//   - Upsert: the database's upsert (Qdrant upsert points; SQL INSERT ... ON
//     CONFLICT (id) DO UPDATE). Normalise vectors first if the index uses
//     the dot product rather than cosine.
//   - Query: a k-nearest-neighbour search by cosine, with the [Filter]
//     pushed down (DocIDs as "doc_id in (...)", each Metadata pair as an
//     equality on a payload field or a JSONB containment, the Where
//     condition walked with [Cond.Kind] and its parts, as parameters, never
//     as text spliced into the query). A range must read values as
//     [ParseNumber] and [ParseTime] do ([NumberPattern] and [TimePattern]
//     are their layouts as regular expressions) and must never fail a
//     query on a value that does not parse: guard the cast. Scores must be
//     cosine similarity, higher is closer; convert distances (pgvector's <=>
//     returns 1 - cosine). Return fewer than k hits when fewer match, and
//     no vectors with them: select every column but the vector, which
//     saves most of the bytes a query reads.
//   - Range(docID, from, to): a filtered scan, not a vector search. In
//     Qdrant, scroll with a filter must=[match doc_id = docID, range index
//     gte=from lte=to], ordered by index (order_by on an integer payload
//     index), with payload indexes on doc_id (keyword) and index (integer).
//     In PostgreSQL with pgvector, SELECT ... WHERE doc_id = $1 AND index
//     BETWEEN $2 AND $3 ORDER BY index, id, served by a btree index on
//     (doc_id, index). Either way the cost is O(log n + results), as in
//     the memory store. Return an error wrapping [ErrNotFound] when the document has
//     no records at all, and an empty slice when it has none in the range.
//   - DeleteDocument: delete by filter (Qdrant delete points with the
//     doc_id match; DELETE FROM ... WHERE doc_id = $1). Deleting a
//     document that is not there is not an error.
//   - Replacing a document atomically ([DocumentReplacer]) needs a
//     transaction (pgvector: DELETE and INSERT in one transaction) or
//     versioned records (Qdrant: write the new version under new IDs with
//     a version field, then switch queries to it and delete the old one).
//   - [DocumentLister] lists the distinct document IDs (SELECT DISTINCT
//     doc_id ORDER BY doc_id; in Qdrant, a facet on the doc_id payload).
//   - [KeywordQuerier] is full-text search, if the database has it
//     (PostgreSQL: a tsvector column with a GIN index, ranked by ts_rank;
//     Qdrant: a sparse vector of BM25 weights). Apply the same [Filter],
//     return hits best first with any score where higher is better (only
//     ranks count when package retrieve fuses them), and no hits, not an error, for a query with
//     no searchable word.
//   - Honour ctx by passing it to the client, and wrap the database's
//     errors with %w so callers can inspect them.
//
// [Filter.Match] applies a filter in Go, for databases that cannot express
// one in a query; the conformance suite checks every search against it
// with random filters.
package vectorstore
