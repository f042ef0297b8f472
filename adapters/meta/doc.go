// Package meta holds the rules by which ragkit's adapters (the langchaingo,
// eino and genkitrag packages beside it) convert between a framework's
// documents, whose metadata is a map[string]any, and ragkit's records, whose
// metadata is a map[string]string. Every adapter uses these rules and no
// other, so that a document written through one adapter reads back the same
// through another, and a filter written for one means the same in all.
//
// # Values
//
// [Encode] turns a metadata value into the string a record stores:
//
//   - a string is kept as it is;
//   - a bool is "true" or "false";
//   - an integer of any Go type is its decimal form ("2024", "-3");
//   - a float32 or float64 is written as encoding/json writes it ("0.5",
//     "2024", "1e+21"), so that an integral float and an int agree, as they
//     must for a filter on a value that went through JSON; NaN and the
//     infinities are refused;
//   - a json.Number is its text;
//   - a time.Time is its RFC 3339 form in UTC with nanoseconds as needed
//     ("2026-03-01T09:30:00Z"), the form of the loader package's times.
//
// Any other value (nil, a slice, a map, a struct) gives an error wrapping
// [ErrUnsupported] that names the key and the type: ragkit's filters compare
// one string per key, and no encoding of a list would match the way a
// framework's filter on it does. Going back, every stored value is a string:
// a number stored as "3" is the string "3" in the framework's document.
//
// # Keys
//
// The fields a record has besides its text and metadata (ID, DocID, Index,
// Start and End, and a chunk's exact token count) travel in a framework's
// metadata under the keys [IDKey], [DocIDKey], [IndexKey], [StartKey],
// [EndKey] and [TokensKey]. [FromRecord] sets them; [ToRecord] takes them
// back into the record's fields and keeps them out of its Metadata. So a chunk
// made by an adapter's splitter keeps its document, place and offsets when an
// adapter's store writes it, and ragkit's windows (package window) work on
// what a framework indexed.
//
// A record's provenance (Title, Source, Section, Location) and the
// library's notes on it (vectorstore.Notes) travel under [TitleKey],
// [SourceKey], [SectionKey], [LocationKey] and [NotesKey] and come back
// into the record's fields, never into its Metadata, so a record written
// by ingest keeps its title, section path, gaps and reusable vectors
// through a framework's hands, and a caller's metadata stays the
// caller's. The caller's own keys (loader.ModifiedKey among them) are
// plain strings, stored back unchanged. [EmbedTextKey] is the one key that
// is consumed and never stored: a splitter that adds contextual headers puts the
// header and chunk there, and the adapters' stores embed it instead of the
// chunk's text.
//
// # Passages
//
// A passage of retrieve.Retriever (a record, a sentence window or a segment)
// reaches a framework as one document by [FromPassage]: its document, its
// first unit under [IndexKey] and its last under [LastKey], its offsets,
// exact tokens, title and section path; [ToPassage] reads it back, so that
// retrieve.Items and the budget work on what a framework retrieved.
//
// # Scores
//
// A framework document carries one score, while ragkit's hits carry scores of
// different kinds (see vectorstore.Hit): the cosine similarity of a vector
// search, a keyword relevance (BM25) or a fused score made from ranks. The
// adapters put the kind under [ScoreKindKey] (a [ScoreKind]'s name) beside the
// score, and accept a score threshold only for a cosine score: a threshold on
// a rank-fused score means nothing (see [CheckThreshold]).
//
// # Filters
//
// [Filter] maps a framework's filter, a map of metadata keys to values, onto
// a vectorstore.Filter: a value must be held exactly, encoded as above; a
// list of values, or {"$in": list}, is one of them (vectorstore.In);
// {"$gt": x}, {"$gte": x}, {"$lt": x} and {"$lte": x} with a number or a
// time.Time compare the stored value as a number or a time
// (vectorstore.Between, TimeBetween); [DocIDKey] selects documents by ID (one,
// or a list). The other operators ($ne, $nin, $exists, $and, $or), whose
// handling of a missing key differs between frameworks, and the other field
// keys give [ErrUnsupported].
//
// A filter is an access boundary. When a component configured with a filter
// (a retrieve.Retriever's Config.Filter) is given another for one call, the
// call runs with their intersection, [Combine]: the call's filter narrows
// the configured one and never widens or replaces it. Every adapter
// combines filters by that rule.
package meta
