package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func runEval(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestRunMarkdown(t *testing.T) {
	code, out, errOut := runEval("-corpus", "testdata/tiny,reports", "-questions", "3", "-sizes", "16,64", "-k", "2")
	require.Equal(t, 0, code, errOut)
	assert.Empty(t, errOut)
	assert.Contains(t, out, "| corpus | configuration | questions | hit@1 | hit@2 |")
	for _, row := range []string{"| tiny | greedy-16 | 3 |", "| tiny | balanced-64 | 3 |", "| reports | greedy-64 | 3 |", "| reports | balanced-16 | 3 |"} {
		assert.Contains(t, out, row)
	}
	assert.Equal(t, 2+8, strings.Count(out, "\n|"), "header, rule and 8 rows:\n%s", out)
}

func TestRunJSON(t *testing.T) {
	code, out, errOut := runEval("-corpus", "testdata/tiny", "-sizes", "16", "-methods", "balanced-16", "-format", "json", "-per-question")
	require.Equal(t, 0, code, errOut)
	var results []struct {
		Corpus      string            `json:"corpus"`
		Method      string            `json:"method"`
		Questions   int               `json:"questions"`
		PerQuestion []json.RawMessage `json:"per_question"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &results))
	require.Len(t, results, 1)
	assert.Equal(t, "tiny", results[0].Corpus)
	assert.Equal(t, "balanced-16", results[0].Method)
	assert.Equal(t, 3, results[0].Questions)
	assert.Len(t, results[0].PerQuestion, 3)
}

// A configuration that errors (a chunk size of 0) is reported in the
// table and makes the command fail; the others still run.
func TestRunFailingConfiguration(t *testing.T) {
	code, out, errOut := runEval("-corpus", "testdata/tiny", "-sizes", "0,16")
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "| tiny | greedy-0 | — |")
	assert.Contains(t, out, "| tiny | balanced-16 | 3 |")
	assert.Contains(t, errOut, "tiny / balanced-0:")
}

// -search runs each configuration with each search, and -methods picks
// among the results by their full names.
func TestRunSearches(t *testing.T) {
	code, out, errOut := runEval("-corpus", "testdata/tiny", "-sizes", "16", "-search", "vector,keywords,hybrid")
	require.Equal(t, 0, code, errOut)
	for _, name := range []string{"greedy-16", "greedy-16+keywords", "greedy-16+hybrid", "balanced-16", "balanced-16+keywords", "balanced-16+hybrid"} {
		assert.Contains(t, out, "| tiny | "+name+" | 3 |")
	}
	assert.Equal(t, 2+6, strings.Count(out, "\n|"), out)
	code, out, errOut = runEval("-corpus", "testdata/tiny", "-sizes", "16", "-search", "hybrid", "-methods", "balanced-16+hybrid")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, 2+1, strings.Count(out, "\n|"), out)
}

func TestRunBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-format", "xml"},
		{"-k", "0"},
		{"-sizes", "x"},
		{"-sizes", ""},
		{"-methods", "nope-64"},
		{"-search", "bm25"},
		{"-search", ""},
		{"-search", "keywords", "-methods", "balanced-64"},
		{"-questions", "-1"},
		{"-dim", "-5"},
		{"-dim", "100000"},
		{"-embed-url", "http://localhost:1/v1"},
		{"-embed-model", "m"},
		{"-embed-url", "http://localhost:1/v1", "-embed-model", "m", "-dim", "512"},
		{"-embed-model-dir", "d", "-dim", "512"},
		{"-embed-model-dir", "d", "-embed-url", "http://localhost:1/v1", "-embed-model", "m"},
		{"-embed-max-tokens", "256"},
		{"-embed-normalize"},
		{"extra"},
		{"-nosuchflag"},
	} {
		code, _, errOut := runEval(args...)
		assert.Equal(t, 2, code, "%q", args)
		assert.NotEmpty(t, errOut, "%q", args)
	}
	code, _, errOut := runEval("-corpus", "no/such/dir")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "neither a built-in corpus")
}

// TestRunModelDir runs the evaluation with a BERT model folder in
// process: bert's tiny test model, whose figures mean nothing, but whose
// description says it ran.
func TestRunModelDir(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "bert", "testdata", "tiny", "embed")
	code, out, errOut := runEval("-corpus", "reports", "-sizes", "64", "-methods", "balanced-64", "-questions", "2",
		"-embed-model-dir", dir, "-embed-normalize")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "embed in process (package bert, 16 dimensions, 16 tokens, PoolingMean, normalized true)")
	code, _, errOut = runEval("-corpus", "reports", "-embed-model-dir", t.TempDir())
	assert.Equal(t, 2, code, "a folder that is not a model is a bad flag, as a bad -dim is")
	assert.Contains(t, errOut, "config.json")
}

// TestRunOpenAICompatible runs the evaluation through the llm/openai
// adapter against a fake embeddings server that embeds with Lexical: the
// figures must be those of Lexical itself.
func TestRunOpenAICompatible(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil || req.Model != "fake-embed" {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		vecs, err := (&lexical.Embedder{}).Embed(r.Context(), req.Input)
		if err != nil {
			http.Error(w, `{"error":{"message":"bad input"}}`, http.StatusBadRequest)
			return
		}
		data := make([]map[string]any, len(vecs))
		for i, v := range vecs {
			data[i] = map[string]any{"object": "embedding", "index": i, "embedding": v}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
	}))
	defer srv.Close()

	args := []string{"-corpus", "testdata/tiny,reports", "-questions", "4", "-sizes", "64"}
	code, remote, errOut := runEval(append(args, "-embed-url", srv.URL+"/v1", "-embed-model", "fake-embed")...)
	require.Equal(t, 0, code, errOut)
	assert.Positive(t, calls.Load())
	assert.Contains(t, remote, "embedder fake-embed at "+srv.URL+"/v1")
	code, local, errOut := runEval(args...)
	require.Equal(t, 0, code, errOut)
	table := func(s string) string { return s[strings.Index(s, "| corpus"):] }
	assert.Equal(t, table(local), table(remote))
}

// -methods names the report's techniques too: contextual headers, and
// sentence windows under headers.
func TestRunTechniques(t *testing.T) {
	code, out, errOut := runEval("-corpus", "testdata/tiny", "-sizes", "16", "-methods", "balanced-16+headers+summary,windows-16+headers+summary,balanced-16")
	require.Equal(t, 0, code, errOut)
	for _, row := range []string{"| tiny | balanced-16 | 3 |", "| tiny | balanced-16+headers+summary | 3 |", "| tiny | windows-16+headers+summary | 3 |"} {
		assert.Contains(t, out, row)
	}
	assert.Equal(t, 2+3, strings.Count(out, "\n|"), "header, rule and 3 rows, none twice:\n%s", out)
}
