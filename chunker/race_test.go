//go:build race

package chunker_test

// raceEnabled reports a -race build, whose instrumentation allocates on
// its own account and makes allocation bounds meaningless.
const raceEnabled = true
