package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
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

// TestEvalGenerate writes a question set with a chat model (a scripted
// server that asks about each passage's first words) and evaluates it:
// each question's chunk is its target, found among the first five.
func TestEvalGenerate(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		require.NoError(t, json.NewDecoder(r.Body).Decode(&req))
		prompt := req.Messages[len(req.Messages)-1].Content
		content := "A summary of the document."
		if _, passage, ok := strings.Cut(prompt, "\nPassage:\n"); ok && strings.Contains(prompt, `{"questions"`) {
			words := strings.Fields(passage)
			answer := strings.Join(words[:min(6, len(words))], " ")
			reply, _ := json.Marshal(map[string]any{"questions": []map[string]string{{"question": "Which text reads " + answer + "?", "answer": answer}}})
			content = string(reply)
		}
		json.NewEncoder(w).Encode(map[string]any{"model": "fake",
			"choices": []map[string]any{{"message": map[string]string{"role": "assistant", "content": content}, "finish_reason": "stop"}}})
	}))
	defer srv.Close()
	dir := mixedFolder(t)
	questions := filepath.Join(t.TempDir(), "generated.jsonl")
	runs := filepath.Join(t.TempDir(), "runs.json")
	args := []string{"eval", "-dir", dir, "-questions", questions, "-generate", "6", "-search", "keywords", "-json", runs,
		"-openai-base-url", srv.URL, "-api-key", "test", "-model", "fake"}
	table, errs, err := ragkit(t, "", args...)
	require.NoError(t, err, errs)
	require.Contains(t, errs, "questions written to "+questions)
	require.Contains(t, table, "| keywords | 6 |")
	f, err := os.Open(questions)
	require.NoError(t, err)
	defer f.Close()
	qs, err := evaluate.ReadQuestions(f)
	require.NoError(t, err)
	require.Len(t, qs, 6)
	for _, q := range qs {
		require.Len(t, q.Spans, 1, "a generated question's target is its chunk")
	}
	data, err := os.ReadFile(runs)
	require.NoError(t, err)
	var got []evaluate.Run
	require.NoError(t, json.Unmarshal(data, &got))
	for _, r := range got[0].Results {
		require.True(t, r.Rank >= 1 && r.Rank <= 5, "question %s: its chunk at rank %d", r.ID, r.Rank)
	}
	// The set exists now: -generate refuses to overwrite it.
	_, _, err = ragkit(t, "", args...)
	require.ErrorContains(t, err, "exists")
	_, _, err = ragkit(t, "", "eval", "-dir", dir, "-questions", questions+".new", "-generate", "3")
	require.ErrorContains(t, err, "-generate needs -model")
}
