// Package vectorstore stores the embedded units of documents and finds the
// ones nearest to a query: the [Embedder] and [VectorStore] interfaces that
// the rest of ragkit is written against, [Memory], an in-memory store that
// is the embedded default, and [Lexical], an embedder that needs no model.
//
// # The in-memory store
//
// [NewMemory] returns a [Memory]; the zero Memory is one too. Its
// [Memory.Query] (and [Memory.QueryText], the same without copying the
// hits' vectors: the optional [TextQuerier] interface) is exact cosine
// search: vectors are normalised once when
// they are upserted, kept in one contiguous slab, and a query is one
// streaming pass of dot products, shared by as many goroutines as the work
// keeps busy, each keeping a bounded heap of its best k. Its cost is that
// of one pass over the slab, close to a bare parallel dot-product loop
// over the same data. With [MemoryConfig.Compact] the slab holds int8
// codes (plus 2-bit refinement codes for the re-rank), under a third of
// the memory per vector, and on amd64 queries are several times faster, at
// a recall against exact search close to 1. The package README
// (vectorstore/README.md in the repository) has the measured figures:
// query times against the floor and against chromem-go, memory per
// record, recall.
//
// [Memory.Range] answers "units from..to of document D" from a per-document
// index in O(log n + results); sentence windows are built from it, and
// from [Memory.RangeText], the same records without their vectors (the
// optional [TextRanger] interface). [Memory.ReplaceDocument] re-indexes a
// changed document in one step, so no reader sees old and new units mixed
// (the optional [DocumentReplacer] interface). [Memory.Save] and [Load] write and
// read a versioned, checksummed binary format; [Memory.SaveFile] replaces
// its file atomically.
//
// Every record must have an ID, a DocID, an Index of zero or more and
// byte offsets with 0 <= Start <= End; records returned are copies. A
// refused record gives a [*RecordError] (wrapping [ErrInvalidRecord]); the
// other errors wrap the sentinels [ErrNotFound], [ErrDimensionMismatch],
// [ErrInvalidArgument], [ErrInvalidConfig], [ErrCorrupt], [ErrVersion]
// and [ErrClosed] (test with [errors.Is]). A failed write changes nothing.
//
// # Persistence
//
// The format (version 2) is a 36-byte header, "RAGKITVS", the version,
// flags (compact or not), the dimension and the record count, followed by
// the header's CRC-32C; then the records in order of DocID, Index and ID
// (so equal stores give equal files), each as its strings, Index, Start,
// End, sorted metadata and vector; then the CRC-32C of all record bytes.
// Whatever [Memory.Save] writes, [Load] reads back to an equal store,
// dimension included. Load checks both checksums and every field and
// builds the store aside, so damaged data gives an error wrapping
// [ErrCorrupt] and no store; a future format gives [ErrVersion]. Files of
// version 1 (without Start and End) still load, with zero offsets. A
// float32 file can be loaded into a compact store.
//
// # Writing an adapter for an external database
//
// To keep vectors in Qdrant, pgvector, Milvus or any other database,
// implement [VectorStore] over its client. The four methods map onto
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
//     equality on a payload field or a JSONB containment). Scores must be
//     cosine similarity, higher is closer; convert distances (pgvector's <=>
//     returns 1 - cosine). Return fewer than k hits when fewer match.
//   - Range(docID, from, to): a filtered scan, not a vector search. In
//     Qdrant, scroll with a filter must=[match doc_id = docID, range index
//     gte=from lte=to], ordered by index (order_by on an integer payload
//     index), with payload indexes on doc_id (keyword) and index (integer).
//     In PostgreSQL with pgvector, SELECT ... WHERE doc_id = $1 AND index
//     BETWEEN $2 AND $3 ORDER BY index, id, served by a btree index on
//     (doc_id, index). Either way the cost is O(log n + results), as in
//     [Memory]. Return an error wrapping [ErrNotFound] when the document has
//     no records at all, and an empty slice when it has none in the range.
//   - DeleteDocument: delete by filter (Qdrant delete points with the
//     doc_id match; DELETE FROM ... WHERE doc_id = $1). Deleting a
//     document that is not there is not an error.
//   - Replacing a document atomically ([DocumentReplacer]) needs a
//     transaction (pgvector: DELETE and INSERT in one transaction) or
//     versioned records (Qdrant: write the new version under new IDs with
//     a version field, then switch queries to it and delete the old one).
//   - [TextRanger] and [TextQuerier] are Range and Query without the
//     vectors: select every column but the vector, which saves most of the
//     bytes a window or a prompt reads.
//   - Honour ctx by passing it to the client, and wrap the database's
//     errors with %w so callers can inspect them.
//
// [Filter.Match] applies a filter in Go, for databases that cannot express
// one in a query.
//
// # The lexical embedder
//
// [Lexical] hashes words and word pairs into a fixed number of dimensions.
// It matches words, not meanings: see its documentation for when to bring
// a neural [Embedder] instead.
package vectorstore
