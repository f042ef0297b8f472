package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBaseline(t *testing.T) {
	for method, want := range map[string]string{
		"greedy-64":                          "",
		"balanced-64":                        "greedy-64",
		"balanced-256+headers+summary":       "balanced-256",
		"balanced-64+headers+summary+hybrid": "balanced-64",
		"windows-64":                         "balanced-64",
		"segments-recall-256":                "balanced-256",
		"windows-64+headers":                 "balanced-64",
		"paragraphs":                         "",
	} {
		assert.Equal(t, want, baseline(method), method)
	}
}

func TestChange(t *testing.T) {
	assert.Equal(t, "none", change(9, 9))
	assert.Equal(t, "-82%", change(17, 3))
	assert.Equal(t, "+100%", change(17, 34))
	assert.Equal(t, "+2", change(0, 2))
}
