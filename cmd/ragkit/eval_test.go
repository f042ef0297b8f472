package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/evaluate"
)

// TestEval scores the mixed folder's question set with the three searches:
// the table names each, hybrid finds every question's file in its first
// five passages, and -json holds every question's scores.
func TestEval(t *testing.T) {
	dir := mixedFolder(t)
	out := filepath.Join(t.TempDir(), "runs.json")
	table, errs, err := ragkit(t, "", "eval", "-dir", dir, "-questions", "testdata/mixed-questions.jsonl", "-json", out)
	require.NoError(t, err, errs)
	require.Contains(t, table, "7 questions, k = 5")
	for _, name := range []string{"hybrid", "vector", "keywords"} {
		require.Contains(t, table, name)
	}
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	var runs []evaluate.Run
	require.NoError(t, json.Unmarshal(data, &runs))
	require.Len(t, runs, 3)
	require.Equal(t, "hybrid", runs[0].Name)
	require.Len(t, runs[0].Results, 7)
	for _, r := range runs[0].Results {
		require.True(t, r.Rank >= 1 && r.Rank <= 5, "question %s: its file is at rank %d, not in the first five passages", r.ID, r.Rank)
		require.True(t, r.AnswerInPrompt, "question %s: its answer is not in the prompt", r.ID)
	}
}

func TestEvalUsage(t *testing.T) {
	for _, args := range [][]string{
		{"eval", "-dir", "testdata/mixed"},
		{"eval", "-dir", "testdata/mixed", "-questions", "q.jsonl", "-search", "dense"},
		{"eval", "-dir", "testdata/mixed", "-questions", "q.jsonl", "-k", "0"},
	} {
		_, _, err := ragkit(t, "", args...)
		require.Error(t, err, strings.Join(args, " "))
		require.Equal(t, 2, exitCode(err, &strings.Builder{}), strings.Join(args, " "))
	}
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	require.NoError(t, os.WriteFile(bad, []byte("{\"question\": \"\"}\n"), 0o644))
	_, _, err := ragkit(t, "", "eval", "-dir", "testdata/mixed", "-questions", bad)
	require.ErrorContains(t, err, "bad.jsonl")
}
