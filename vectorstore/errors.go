package vectorstore

import (
	"errors"
	"fmt"
)

// Errors returned by the package, wrapped with details; test for them with
// [errors.Is]. Each is one a caller can act on differently: the details of
// a refused record are in a [*RecordError] (use [errors.As]).
var (
	// ErrNotFound: no record with that ID, or no records of that
	// document. A window whose document was deleted meanwhile gets it.
	ErrNotFound = errors.New("vectorstore: not found")
	// ErrDimensionMismatch: a vector's length is not the store's, as
	// when the embedding model changed; the store must be rebuilt (or a
	// query embedded with the store's model).
	ErrDimensionMismatch = errors.New("vectorstore: vector dimension does not match the store")
	// ErrInvalidRecord: Upsert or ReplaceDocument refused a record; the
	// error is a [*RecordError] naming the record and the field.
	ErrInvalidRecord = errors.New("vectorstore: invalid record")
	// ErrInvalidArgument: an argument other than a record is unusable: a
	// query vector that is empty, zero or not finite, k below 1, a range
	// whose start is after its end, an empty document ID or file name, a
	// text that cannot be embedded.
	ErrInvalidArgument = errors.New("vectorstore: invalid argument")
)

// RecordError describes a record that a write refused. It wraps
// [ErrInvalidRecord] and Err, so errors.Is finds both (a vector of the
// wrong length is also [ErrDimensionMismatch]).
type RecordError struct {
	Index int    // the record's position among the write's records
	ID    string // the record's ID, which may be the problem
	Field string // the field at fault: "ID", "DocID", "Index", "Start", "End", "Text", "Metadata", "Title", "Section", "Source", "Location", "Notes" or "Vector"
	Err   error  // what is wrong with it
}

func (e *RecordError) Error() string {
	return fmt.Sprintf("%v: record %d (ID %q): %s: %v", ErrInvalidRecord, e.Index, e.ID, e.Field, e.Err)
}

// Unwrap returns [ErrInvalidRecord] and Err.
func (e *RecordError) Unwrap() []error { return []error{ErrInvalidRecord, e.Err} }

// The reasons a RecordError gives. They are not exported:
// Field says which rule was broken, and callers act on the sentinels.
var (
	errEmpty     = errors.New("is empty")
	errNegative  = errors.New("is negative")
	errEndBefore = errors.New("is before Start")
	errUTF8      = errors.New("is not valid UTF-8")
	errTooLong   = fmt.Errorf("is longer than MaxDimension (%d)", MaxDimension)
)
