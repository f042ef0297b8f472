// Package vectorstore stores the embedded units of documents and finds the
// ones nearest to a query: the [Embedder] and [VectorStore] interfaces that
// the rest of ragkit is written against, [Memory], an in-memory store that
// is the embedded default, with keyword (BM25) and hybrid search, and
// [Lexical], an embedder that needs no model.
//
// # The in-memory store
//
// [NewMemory] returns a [Memory]; the zero Memory is one too. Its
// [Memory.Query] is exact cosine search (its hits, like every store's,
// carry no vectors): vectors are normalised once when
// they are upserted, kept in one contiguous slab, and a query is one
// streaming pass of dot products, shared by as many goroutines as the work
// keeps busy, each keeping a bounded heap of its best k. Its cost is that
// of one pass over the slab, close to a bare parallel dot-product loop
// over the same data. With [MemoryConfig.Compact] the slab holds int8
// codes (plus 2-bit refinement codes for the re-rank), under a third of
// the memory per vector, scanned with AVX2 kernels on amd64, at a recall
// against exact search close to 1. benchmarks/README.md in the repository
// has the measured figures: query times against a bare loop and against
// chromem-go (in the configuration stated there), memory per record,
// recall (https://github.com/ragkit/ragkit/blob/main/benchmarks/README.md#vector-search).
//
// [Memory.Range] answers "units from..to of document D" from a per-document
// index in O(log n + results), with the records' vectors; sentence
// windows are built from it. [Memory.ReplaceDocument] re-indexes a
// changed document in one step, so no reader sees old and new units mixed
// (the optional [DocumentReplacer] interface), and [Memory.DocumentIDs]
// lists the documents held (the optional [DocumentLister] interface), so
// that documents gone from their source can be pruned. [Memory.Save] and [Load] write and
// read a versioned, checksummed binary format; [Memory.SaveFile] replaces
// its file atomically.
//
// # Filters
//
// Every search takes a [Filter]: document IDs, exact metadata pairs, and
// a Where condition over metadata made of [In], [NotIn], [Eq], [Exists],
// numeric [Range]s, [TimeRange]s, [And], [Or] and [Not]:
//
//	vectorstore.Filter{Where: vectorstore.And(
//		vectorstore.In("dept", "hr", "it"),
//		vectorstore.Range("year", 2020, 2024),
//		vectorstore.NotIn("clearance", "secret"),
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
// [Memory] answers a filter from an index of its records' metadata values
// (for each key, the records of each value; for a range, the values sorted),
// built by the first filtered query after a write: the filter becomes a set
// of records by set operations on those lists, and the search reads only
// the records in the set, so a filter that keeps 1% of the store makes a
// query many times cheaper, not dearer (vectorstore/README.md has the
// figures).
//
// # Keyword search and hybrid search
//
// A [Memory] also keeps an inverted index of its records' texts (with the
// words of their Metadata[KeywordsKey], such as the header a chunk was
// embedded with), changed by the same writes under the same lock as the
// vectors, so that a reader never sees one without the other (a
// [Memory.ReplaceDocument] included).
// [Memory.QueryKeywords] (the optional [KeywordQuerier] interface) ranks
// the records that share a term with the query by BM25, with the [Filter]
// of a vector query, and finds what a vector misses: an application
// number, a product code, an error string, a surname. Texts and queries
// are cut into terms alike: the words of [segment.Words] that hold a
// letter or a digit, case-folded, apostrophes dropped, and the English
// stop words that [Lexical] leaves out of its unigrams left out (unless
// [KeywordConfig.KeepStopWords]); characters of scripts written without
// spaces (Chinese, Japanese, Thai) are taken in overlapping pairs, so
// that CJK text is searchable without a dictionary. The score of a record
// for a query of terms t is
//
//	sum over t of idf(t) * tf*(k1+1) / (tf + k1*(1 - b + b*length/avgLength))
//	idf(t) = ln(1 + (n - df(t) + 0.5) / (df(t) + 0.5))
//
// where tf is how often t occurs in the record's text, length its number
// of terms, avgLength the mean over the store, n the number of records
// and df(t) the number of them that hold t; k1 and b are
// [KeywordConfig.K1] and [KeywordConfig.B] (1.2 and 0.75 by default, as
// in Lucene). A query term counts once however often it is repeated. The
// index is not saved: [Load] rebuilds it from the texts, so files written
// before it existed load unchanged.
//
// Combining the vector and the keyword search (fusion, hybrid search) is
// the query side's job, package retrieve's Retriever: a store takes part
// by implementing [KeywordQuerier] (a database adapter, with its
// full-text index), and [HybridQuerier] to run both searches over the
// same records, as [Memory] does under one read lock.
//
// Every record must have an ID, a DocID, an Index of zero or more and
// byte offsets with 0 <= Start <= End; records returned are copies. A
// refused record gives a [*RecordError] (wrapping [ErrInvalidRecord]); the
// other errors wrap the sentinels [ErrNotFound], [ErrDimensionMismatch],
// [ErrInvalidArgument], [ErrConfig], [ErrCorrupt], [ErrVersion]
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
// implement [VectorStore] over its client (for PostgreSQL with pgvector,
// the module github.com/ragkit/ragkit/vectorstore/pgvector is one), check
// records with [CheckRecords] before writing them, and run the
// conformance suite of package
// [github.com/ragkit/ragkit/vectorstore/storetest] against it, as
// [Memory]'s own tests do. The four methods map onto
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
//     [Memory]. Return an error wrapping [ErrNotFound] when the document has
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
//
// # The lexical embedder
//
// [Lexical] hashes words and word pairs into a fixed number of dimensions.
// It matches words, not meanings: see its documentation for when to bring
// a neural [Embedder] instead.
package vectorstore
