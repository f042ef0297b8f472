//go:build !race

package hf_test

const raceDetector = false
