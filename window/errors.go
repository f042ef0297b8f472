package window

import (
	"errors"
	"fmt"
)

// Errors returned by the package, wrapped with details; test for them with
// errors.Is.
var (
	// ErrConfig: a configuration was refused (no Source, a negative
	// setting, a cap without a Tokenizer, a preset that does not exist, a
	// value that is not finite), or the Expander or Extractor is the zero
	// value; the error names the field, its value and what is allowed.
	ErrConfig = errors.New("window: invalid configuration")
	// ErrInvalidHit: a hit has no DocID or ID, or a negative Index.
	ErrInvalidHit = errors.New("window: invalid hit")
	// ErrSource: the Source returned an error other than
	// vectorstore.ErrNotFound; the error also wraps the Source's error and
	// names the document.
	ErrSource = errors.New("window: source failed")
)

// configError returns the error for a refused setting: field is value,
// and allowed says what it may be.
func configError(field string, value any, allowed string) error {
	return fmt.Errorf("%w: %s is %v: %s", ErrConfig, field, value, allowed)
}

// errNoSource is the error of a configuration without a Source, and of
// the zero Expander and Extractor.
var errNoSource = configError("Source", nil, "is required")
