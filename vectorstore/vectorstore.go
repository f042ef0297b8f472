package vectorstore

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/vectorstore/internal/kernel"
)

// Record is one stored unit of a document: a chunk, a sentence or any other
// piece that was embedded on its own. Records a store returns are copies:
// changing their Vector, Metadata or Section does not change the store.
// Records from Range carry their vectors; hits from a query carry none.
//
// A record says where it came from in typed fields (Title, Section,
// Source, Location), which package ingest fills from the document, a
// caller shows and cites, and a [Filter] selects by (Sources, Section).
// Metadata is the caller's own: no key of the library's is ever in it, so
// that a filter on a caller's key can never match one. What the library
// keeps for itself (see [Notes]) is apart from both.
type Record struct {
	ID    string // unique in the store; Upsert replaces a record with the same ID
	DocID string // the document the unit belongs to
	Index int    // position of the unit in its document, from 0 (any int >= 0: a timestamp works too)

	// Start and End are the unit's byte offsets in its document, End
	// exclusive, so that the text between two units can be rebuilt from
	// the document (see the window package). Both zero means the record
	// carries no offsets; otherwise 0 <= Start <= End.
	Start, End int

	Text     string            // the unit's text, returned with hits
	Vector   []float32         // the embedding; stores keep it at unit length
	Metadata map[string]string // the caller's labels, which a [Filter] can match

	Title    string            // the title of the unit's document
	Section  []string          // the headings above the unit, outermost first; nil outside any section
	Source   string            // where the document was read from, for citations: a path or a URL
	Location document.Location // where in the source the unit is: pages, lines, sheet and rows

	Notes Notes // the library's bookkeeping: not the caller's, never matched by a filter
}

// Notes is what the library keeps on a record for itself, in one place and
// apart from the caller's Metadata: a store saves and returns it whole,
// but never indexes it for a [Filter] and never matches a filter against
// it. Callers read it (an adapter carries it through) but need not set
// it: package ingest does. The zero Notes holds nothing. Its JSON form,
// which stores that keep notes as JSON use, names the fields in snake
// case and leaves empty ones out.
type Notes struct {
	// Keywords are words a record should be found by in keyword search
	// although its Text does not hold them: the contextual header a chunk
	// was embedded with (ingest sets it), a title, tags. A
	// [KeywordQuerier] searches them as part of the record's text; the
	// Text returned with hits stays the record's own.
	Keywords string `json:"keywords,omitempty"`
	// Gap is the text between the unit and the unit before it in their
	// document where that is anything but a single space (a line break,
	// a blank line): package window rebuilds a window's text with it, so
	// that Window.Text is the document's own text. A gap whose length is
	// not the distance between the two units' offsets is not used.
	Gap string `json:"gap,omitempty"`
	// Embed is a SHA-256 of the unit's embed text (its header and text)
	// and the embedder's name: a re-index reuses the vector of a unit
	// with the same Embed, and embeds again one without it.
	Embed string `json:"embed,omitempty"`
	// Fingerprint is, where ingest's Config.Version is set, a fingerprint
	// of the document the unit was made from (its text, title, format,
	// summary and metadata, with the Version and the embedder's name), so
	// that a re-index skips the document without chunking it.
	Fingerprint string `json:"fingerprint,omitempty"`
	// Summary is the document's summary where a Summarizer wrote it, and
	// SummaryOf a SHA-256 of what it was made from, so that a re-index
	// takes the summary from the records while that is unchanged rather
	// than calling the model again.
	Summary   string `json:"summary,omitempty"`
	SummaryOf string `json:"summary_of,omitempty"`
}

// Hit is a record found by a query, with its score: higher is better, and
// what it means depends on the search. [VectorStore].Query gives the
// cosine similarity to the query vector (between -1 and 1);
// [KeywordQuerier].QueryKeywords a relevance score of the store's own (BM25
// for [memory.Store]: 0 or more, unbounded); a fusion (package retrieve's Fuse)
// a score made from ranks. Scores of different kinds are not comparable:
// combine searches by rank.
type Hit struct {
	Record
	Score float32
}

// Embedder turns texts into vectors, one per text, all of the same length.
// Implementations must be safe for concurrent use and stop when ctx is
// cancelled. [lexical.Embedder] is the dependency-free default; a neural model's
// client is the usual alternative.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// VectorStore stores records and finds the ones nearest to a vector. [memory.Store]
// is the in-memory implementation; the package documentation explains how to
// write one for an external database.
//
// Upsert adds records or replaces those with the same ID. Query returns at
// most k hits in order of decreasing score (fewer if fewer records match),
// without their vectors (each hit's Vector is nil): hits are read for
// their text, place and score, and a store need not copy or fetch the
// vectors. Range returns the records of one document whose Index lies in
// [from, to], in order of Index, with their vectors (which a re-index
// reuses); it returns an error wrapping [ErrNotFound] when the document
// has no records. DeleteDocument removes every record of a
// document; deleting a document that has none is not an error.
type VectorStore interface {
	Upsert(ctx context.Context, records ...Record) error
	Query(ctx context.Context, vector []float32, k int, filter Filter) ([]Hit, error)
	Range(ctx context.Context, docID string, from, to int) ([]Record, error)
	DeleteDocument(ctx context.Context, docID string) error
}

// DocumentReplacer is implemented by stores that can replace every record
// of a document in one step, so that no reader sees the old records and
// the new ones mixed (in a database: one transaction). With no records,
// ReplaceDocument deletes the document. Check for it with a type
// assertion; a store without it can be written with DeleteDocument and
// then Upsert, which readers may see half done.
type DocumentReplacer interface {
	ReplaceDocument(ctx context.Context, docID string, records ...Record) error
}

// DocumentLister is implemented by stores that can list the documents they
// hold, so that documents gone from the source can be found and deleted
// (see the ingest package's Prune). DocumentIDs returns the IDs of the
// documents with at least one record, sorted, each once. Check for it with
// a type assertion.
type DocumentLister interface {
	DocumentIDs(ctx context.Context) ([]string, error)
}

// KeywordQuerier is implemented by stores that can search their records'
// texts by words (full-text search): [memory.Store] with BM25, a database with
// its full-text index. A record's words are those of its Text and of its
// Notes.Keywords, if any. QueryKeywords returns at most k hits among the
// records that match filter, best first, each holding at least one word
// of query; the Score is the store's relevance score, higher is better,
// not comparable to cosine similarity (see [Hit]). Hits carry no
// vectors. A query that is empty or only white space gives an error
// wrapping [ErrInvalidArgument]; a query with no searchable word (only
// stop words, or punctuation) gives no hits and no error. Check for it
// with a type assertion; package retrieve's Retriever does, and fuses its
// results with those of the vector search.
type KeywordQuerier interface {
	QueryKeywords(ctx context.Context, query string, k int, filter Filter) ([]Hit, error)
}

// MaxDimension is the longest vector a store accepts: the int8 scan of a
// compact store accumulates in int32, which cannot overflow below this
// length, and no embedding model comes near it.
const MaxDimension = 1 << 16

// CheckRecords returns the error a store gives for a write of records, or
// nil: a [*RecordError] naming the first record that breaks the rules of
// [Record] (an empty or invalid UTF-8 ID or DocID; a Text, Metadata,
// Title, Source, Section heading or Notes that is not valid UTF-8; an
// empty Section heading; a negative Index, Start or place of the
// Location; an End before Start; an empty, zero, non-finite
// or too long vector, or one whose length is not dim). dim is the store's
// dimension, or 0 to take the first record's. docID is the document a
// [DocumentReplacer] replaces, which every record must belong to, or ""
// for an Upsert. The memory store refuses exactly these records; an adapter calls
// CheckRecords before it writes, so that it refuses them alike.
func CheckRecords(docID string, dim int, records ...Record) error {
	if len(records) > 0 && dim == 0 {
		dim = len(records[0].Vector)
	}
	for i := range records {
		err := checkRecord(&records[i], dim, docID)
		if err == nil {
			err = checkDirection(records[i].Vector)
		}
		if err != nil {
			err.Index, err.ID = i, records[i].ID
			return err
		}
	}
	return nil
}

// checkDirection refuses a vector that cannot be normalised.
func checkDirection(v []float32) *RecordError {
	if err := kernel.Direction(kernel.Norm(v)); err != nil {
		return &RecordError{Field: "Vector", Err: err}
	}
	return nil
}

// checkRecord returns what is wrong with r, if anything; the caller fills
// in its position and ID.
func checkRecord(r *Record, dim int, docID string) *RecordError {
	bad := func(field string, err error) *RecordError { return &RecordError{Field: field, Err: err} }
	switch {
	case r.ID == "":
		return bad("ID", errEmpty)
	case !utf8.ValidString(r.ID):
		return bad("ID", errUTF8)
	case r.DocID == "":
		return bad("DocID", errEmpty)
	case !utf8.ValidString(r.DocID):
		return bad("DocID", errUTF8)
	case docID != "" && r.DocID != docID:
		return bad("DocID", fmt.Errorf("is %q, not the document being replaced, %q", r.DocID, docID))
	case r.Index < 0:
		return bad("Index", errNegative)
	case r.Start < 0:
		return bad("Start", errNegative)
	case r.End < r.Start:
		return bad("End", errEndBefore)
	case !utf8.ValidString(r.Text):
		return bad("Text", errUTF8)
	case len(r.Vector) == 0:
		return bad("Vector", errEmpty)
	case len(r.Vector) > MaxDimension:
		return bad("Vector", errTooLong)
	case len(r.Vector) != dim:
		return bad("Vector", fmt.Errorf("%w: %d, not %d", ErrDimensionMismatch, len(r.Vector), dim))
	}
	for k, v := range r.Metadata {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return bad("Metadata", fmt.Errorf("%w: key %q", errUTF8, k))
		}
	}
	return checkProvenance(r, bad)
}

// checkProvenance returns what is wrong with r's provenance and notes, if
// anything: text that is not valid UTF-8, an empty heading, a negative
// place.
func checkProvenance(r *Record, bad func(string, error) *RecordError) *RecordError {
	switch {
	case !utf8.ValidString(r.Title):
		return bad("Title", errUTF8)
	case !utf8.ValidString(r.Source):
		return bad("Source", errUTF8)
	}
	for i, h := range r.Section {
		switch {
		case h == "":
			return bad("Section", fmt.Errorf("heading %d %w", i, errEmpty))
		case !utf8.ValidString(h):
			return bad("Section", fmt.Errorf("heading %d %w", i, errUTF8))
		}
	}
	l := r.Location
	switch {
	case l.Page < 0 || l.LastPage < 0 || l.Line < 0 || l.LastLine < 0 || l.Row < 0 || l.LastRow < 0:
		return bad("Location", errNegative)
	case !utf8.ValidString(l.Sheet):
		return bad("Location", errUTF8)
	}
	n := r.Notes
	for _, s := range [...]string{n.Keywords, n.Gap, n.Embed, n.Fingerprint, n.Summary, n.SummaryOf} {
		if !utf8.ValidString(s) {
			return bad("Notes", errUTF8)
		}
	}
	return nil
}
