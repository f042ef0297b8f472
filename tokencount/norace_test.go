//go:build !race

package tokencount

const raceEnabled = false
