package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The command prints one row per corpus and units, and a total, with
// every share a percentage.
func TestRun(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-corpus", "reports", "-sizes", "64", "-budgets", "300"}, &out))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 1+3+3+1, out.String()) // header, rows, rows over the corpora, total
	require.Contains(t, lines[0], "300 keep+room")
	require.Contains(t, lines[1], "chunks-64")
	require.Contains(t, lines[7], "all")
	require.Equal(t, 1+3, strings.Count(lines[7], "%"), "in passages and three policies")

	require.Error(t, run(context.Background(), []string{"-sizes", "0"}, &out))
}
