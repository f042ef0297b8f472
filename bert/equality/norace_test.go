//go:build !race

package equality

const raceDetector = false
