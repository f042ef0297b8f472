//go:build !race

package vectorstore_test

const raceEnabled = false
