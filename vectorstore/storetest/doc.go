// Package storetest checks that a [vectorstore.VectorStore] keeps the
// contract that the rest of ragkit relies on, in the spirit of
// testing/fstest and golang.org/x/net/nettest: an adapter's tests call
// [Run] with a constructor of empty stores, and the suite runs every
// method against them as subtests.
//
// The suite checks what the documentation of [vectorstore.VectorStore]
// and [vectorstore.Record] promises and what [memory.Store] does:
//
//   - Upsert stores every field (ID, DocID, Index, Start, End, Text,
//     Metadata, and the provenance and notes: Title, Section, Source,
//     Location, Notes), keeps vectors at unit length, replaces by ID (the last
//     record of an ID within one call wins), copies its input, and refuses
//     the records that [vectorstore.CheckRecords] refuses with the same
//     [*vectorstore.RecordError], changing nothing.
//   - Query returns the k records nearest by cosine similarity, best
//     first, ties in score by ID, scores being cosine similarity (checked
//     against a float64 brute-force search), with filters by document
//     (repeated and unknown IDs included), by source and section path, and
//     by metadata (never matching a title or a note, whatever the key),
//     and hits
//     without their vectors; it refuses an
//     empty, zero or non-finite vector and a k below 1
//     ([vectorstore.ErrInvalidArgument]) and a vector of another length
//     ([vectorstore.ErrDimensionMismatch]).
//   - Range returns a document's records, with their vectors, in order of Index, then ID, cut
//     to the records that exist, an empty slice for a range with none,
//     [vectorstore.ErrNotFound] for a document with no records and
//     [vectorstore.ErrInvalidArgument] for from > to.
//   - DeleteDocument removes a document; deleting a missing one is not an
//     error.
//   - Records returned are copies: changing one changes nothing stored.
//   - A cancelled context makes every method fail with an error wrapping
//     [context.Canceled], and changes nothing.
//   - Writers and readers may run at once; a long random sequence of
//     writes leaves the store equal to a plain model of it.
//   - The optional interfaces, when the store implements them:
//     [vectorstore.DocumentReplacer] (readers never see two versions of a
//     document mixed) and [vectorstore.KeywordQuerier] (hits hold a word of the query in
//     their Text or their Notes.Keywords, best first,
//     filtered, without vectors; an empty query is an error, a query of
//     stop words finds nothing).
//
// Stores that are not exact, such as a compact [memory.Store],
// set [Config.Tolerance] to how far their scores and vectors may be from
// exact.
package storetest
