//go:build race

package memory_test

// raceEnabled reports a -race build, in which sync.Pool drops items on
// purpose and allocation counts mean nothing.
const raceEnabled = true
