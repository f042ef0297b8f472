package vectorstore

import (
	"fmt"
	"unicode/utf8"

	"github.com/ragkit/ragkit/vectorstore/internal/kernel"
)

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
