package memory

import (
	"errors"
	"fmt"
)

// Errors of the memory store's own, wrapped with details; test for them
// with [errors.Is]. A refused record, query or argument gives the
// contract's errors instead ([vectorstore.ErrInvalidRecord],
// [vectorstore.ErrInvalidArgument], [vectorstore.ErrNotFound],
// [vectorstore.ErrDimensionMismatch]), as every store does.
var (
	// ErrConfig: a [Config] (or its [KeywordConfig]) was refused; the
	// error names the field, its value and what is allowed.
	ErrConfig = errors.New("memory: invalid configuration")
	// ErrCorrupt: data given to [Load] is truncated or damaged.
	ErrCorrupt = errors.New("memory: data is truncated or corrupt")
	// ErrVersion: data given to [Load] is in a format version this
	// package does not read (written by a newer one).
	ErrVersion = errors.New("memory: unsupported format version")
	// ErrClosed: the store was closed.
	ErrClosed = errors.New("memory: store is closed")
)

// configError returns the error for a refused setting: field is value,
// and allowed says what it may be.
func configError(field string, value any, allowed string) error {
	return fmt.Errorf("%w: %s is %v: %s", ErrConfig, field, value, allowed)
}

// The reasons an argument is refused. They are not exported: callers act
// on the sentinels.
var (
	errEmpty = errors.New("is empty")
	errUTF8  = errors.New("is not valid UTF-8")
)

// dimensionRange says what a Dimension setting may be.
const dimensionRange = "must be 0 (taken from the vectors) to MaxDimension (65536)"
