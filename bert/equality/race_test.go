//go:build race

package equality

// raceDetector is set when the race detector runs: the suite then takes
// every eighth text, as the detector makes the forward pass many times
// slower.
const raceDetector = true
