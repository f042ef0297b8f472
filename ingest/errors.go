package ingest

import "github.com/ragkit/ragkit/internal/batch"

// A DocumentError reports a document that could not be indexed, and why.
type DocumentError struct {
	// Index is the document's position among the documents given to
	// [Indexer.Index].
	Index int
	// ID is the document's ID.
	ID string
	// Err is the cause; it wraps one of the package's errors or the
	// context's.
	Err error
}

func (e *DocumentError) Error() string {
	return batch.DocumentMessage(e.Index, e.ID, e.Err)
}

// Unwrap returns the cause.
func (e *DocumentError) Unwrap() error { return e.Err }

// A BatchError is the error of [Indexer.Index] when some documents failed;
// the others were indexed. Its message names no package, since the causes
// do.
type BatchError struct {
	// Failed lists the documents that failed, in document order.
	Failed []*DocumentError
}

func (e *BatchError) Error() string {
	return batch.Message(e.Failed)
}

// Unwrap returns the documents' errors, so that [errors.Is] and
// [errors.As] look into each of them.
func (e *BatchError) Unwrap() []error {
	return batch.Errors(e.Failed)
}
