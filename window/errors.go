package window

import "errors"

// Errors returned by the package, wrapped with details; test for them with
// errors.Is.
var (
	// ErrNoSource: a configuration has no Source, or the Expander or
	// Extractor is the zero value.
	ErrNoSource = errors.New("window: Source is required")
	// ErrNoTokenizer: a token cap was set without a Tokenizer to count
	// with.
	ErrNoTokenizer = errors.New("window: Tokenizer is required")
	// ErrInvalidConfig: a configuration field is out of range (a
	// negative cap, a preset that does not exist, a value that is not
	// finite).
	ErrInvalidConfig = errors.New("window: invalid configuration")
	// ErrInvalidHit: a hit has no DocID or ID, or a negative Index.
	ErrInvalidHit = errors.New("window: invalid hit")
	// ErrSource: the Source returned an error other than
	// vectorstore.ErrNotFound; the error also wraps the Source's error and
	// names the document.
	ErrSource = errors.New("window: source failed")
)
