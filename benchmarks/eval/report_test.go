package eval_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/benchmarks/eval"
)

func sampleResults() []eval.Result {
	return []eval.Result{
		{Corpus: "c", Method: "greedy-64", K: 3, Units: 12, Summary: eval.Summary{
			Questions: 4, HitAt1: 0.25, HitAtK: 0.75, MRR: 0.425, Recall: 0.875, Precision: 0.2254, IoU: 0.2, Omega: 0.55, Failures: 1, Split: 2,
		}, PerQuestion: []eval.QuestionResult{{ID: "q1", Rank: 1, Recall: 1}}},
		{Corpus: "c", Method: "broken", Err: errors.New("eval: method failed: boom")},
	}
}

func TestWriteMarkdown(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, eval.WriteMarkdown(&b, sampleResults()))
	want := "| corpus | configuration | questions | hit@1 | hit@3 | MRR | recall | precision | IoU | Ω | units | failures | split |\n" +
		"|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n" +
		"| c | greedy-64 | 4 | 0.250 | 0.750 | 0.425 | 0.875 | 0.225 | 0.200 | 0.550 | 12 | 1 | 2 |\n" +
		"| c | broken | — | — | — | — | — | — | — | — | — | error | — |\n" +
		"\n- c / broken: eval: method failed: boom\n"
	assert.Equal(t, want, b.String())
}

func TestWriteJSON(t *testing.T) {
	for _, perQuestion := range []bool{false, true} {
		var b bytes.Buffer
		require.NoError(t, eval.WriteJSON(&b, sampleResults(), perQuestion))
		var got []map[string]any
		require.NoError(t, json.Unmarshal(b.Bytes(), &got))
		require.Len(t, got, 2)
		assert.Equal(t, "greedy-64", got[0]["method"])
		assert.Equal(t, 0.75, got[0]["hit_at_k"])
		assert.Equal(t, 1.0, got[0]["failures"])
		assert.Equal(t, 12.0, got[0]["units"])
		assert.NotContains(t, got[0], "error")
		assert.Equal(t, "eval: method failed: boom", got[1]["error"])
		_, has := got[0]["per_question"]
		assert.Equal(t, perQuestion, has)
	}
}

func TestWriteMarkdownInContext(t *testing.T) {
	rs := sampleResults()
	rs = append(rs, eval.Result{Corpus: "c", Method: "retriever-chunks-64+hybrid", K: 3, Units: 12, ContextTokens: 192,
		Summary: eval.Summary{Questions: 4, HitAt1: 0.5, HitAtK: 0.75, InContext: 0.5}})
	var b bytes.Buffer
	require.NoError(t, eval.WriteMarkdown(&b, rs))
	want := "| corpus | configuration | questions | hit@1 | hit@3 | MRR | recall | precision | IoU | Ω | units | failures | split | in context (tokens) |\n" +
		"|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n" +
		"| c | greedy-64 | 4 | 0.250 | 0.750 | 0.425 | 0.875 | 0.225 | 0.200 | 0.550 | 12 | 1 | 2 | — |\n" +
		"| c | broken | — | — | — | — | — | — | — | — | — | error | — | — |\n" +
		"| c | retriever-chunks-64+hybrid | 4 | 0.500 | 0.750 | 0.000 | 0.000 | 0.000 | 0.000 | 0.000 | 12 | 0 | 0 | 0.500 (192) |\n" +
		"\n- c / broken: eval: method failed: boom\n"
	assert.Equal(t, want, b.String())
}
