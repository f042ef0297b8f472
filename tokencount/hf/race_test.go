//go:build race

package hf_test

// raceDetector is set when the race detector runs: long stress tests run
// shorter.
const raceDetector = true
