package fidelity_test

import (
	"testing"

	"github.com/ragkit/ragkit/formats/pdf/internal/fidelity"
	"github.com/stretchr/testify/assert"
)

func TestWords(t *testing.T) {
	assert.Equal(t, []string{"dont", "go", "good", "looking", "x2"}, fidelity.Words("“Don’t go—good-looking,” ## X2"))
	assert.Empty(t, fidelity.Words(" | --- | "))
}

func TestSimilarity(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want float64
	}{
		{"same", "a b c d", "a b c d", 1},
		{"empty", "", "", 1},
		{"disjoint", "a b", "c d", 0},
		{"one missing", "a b c d", "a b d", 6.0 / 7},
		{"swapped halves", "a b c d", "c d a b", 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, fidelity.Similarity(fidelity.Words(tt.a), fidelity.Words(tt.b)), 1e-9)
		})
	}
}

func TestRecall(t *testing.T) {
	assert.InDelta(t, 0.75, fidelity.Recall(fidelity.Words("a a b c"), fidelity.Words("c a b")), 1e-9)
	assert.InDelta(t, 1.0, fidelity.Recall(nil, fidelity.Words("c")), 1e-9)
}
