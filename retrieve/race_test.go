//go:build race

package retrieve_test

// raceEnabled reports a -race build, whose instrumentation allocates on
// its own account (and empties sync.Pools at random), which makes
// allocation counts meaningless.
const raceEnabled = true
