// Package parallel runs the work of contextheader and ingest on a bounded
// number of goroutines, and turns a panic in a caller's function (an
// Embedder, a Summarizer, a SplitFunc) into an error, so that one bad
// document cannot kill the process or leave shared state half changed.
package parallel

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// ErrPanic is wrapped by the error of a caller's function that panicked.
// contextheader exports it as ErrPanic.
var ErrPanic = errors.New("a caller's function panicked")

// Each calls job(i) for every i in [0, n), on at most workers goroutines,
// in increasing order of i as goroutines come free, and returns when all
// are done.
func Each(n, workers int, job func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				job(i)
			}
		}()
	}
	wg.Wait()
}

// maxPanicText bounds how much of a panic's value goes into the error.
const maxPanicText = 200

// Call returns f's results, or, if f panics, an error wrapping ErrPanic
// that holds the start of the panic's value.
func Call[T any](f func() (T, error)) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			s := fmt.Sprint(r)
			if len(s) > maxPanicText {
				s = strings.ToValidUTF8(s[:maxPanicText], "") + "…"
			}
			var zero T
			v, err = zero, fmt.Errorf("%w: %s", ErrPanic, s)
		}
	}()
	return f()
}
