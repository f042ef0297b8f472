//go:build !race

package chunker_test

const raceEnabled = false
