// Package batch holds the messages and unwrapping that the errors of calls
// on many documents share (ingest's and contextheader's BatchError and
// DocumentError), so that each package keeps types of its own with one
// wording.
package batch

import "fmt"

// DocumentMessage is the message of the error of document index, with ID
// id, that failed with err.
func DocumentMessage(index int, id string, err error) string {
	return fmt.Sprintf("document %d (ID %q): %v", index, id, err)
}

// Message is the message of an error of the documents failed (at least
// one), in document order. It names no package, since the causes do.
func Message[E error](failed []E) string {
	if len(failed) == 1 {
		return "1 document failed: " + failed[0].Error()
	}
	return fmt.Sprintf("%d documents failed; the first: %v", len(failed), failed[0])
}

// Errors returns failed as a []error, for an Unwrap method, so that
// errors.Is and errors.As look into each of them.
func Errors[E error](failed []E) []error {
	errs := make([]error, len(failed))
	for i, f := range failed {
		errs[i] = f
	}
	return errs
}
