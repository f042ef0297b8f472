package evaluate_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/ragkit/ragkit/evaluate"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount/tokentest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSummarizeMeans(t *testing.T) {
	results := []evaluate.Result{
		{ID: "1", Targets: 1, Rank: 1, NDCG: 1, ContextPrecision: 0.5, Answer: true, AnswerInPassages: true, PassageTokens: 10},
		{ID: "2", Targets: 2, Rank: 4, NDCG: 0.25, Spans: true, SpanRecall: 0.5, PassageTokens: 20, Prompt: true, PromptTokens: 30},
		{ID: "3", Targets: 1, Rank: 0, Answer: true, Prompt: true, PromptTokens: 10},
		// Unanswerable: only its tokens count.
		{ID: "4", PassageTokens: 30},
	}
	s, err := evaluate.Summarize(results, evaluate.SummaryConfig{})
	require.NoError(t, err)
	assert.Equal(t, 4, s.Questions)
	assert.Equal(t, 3, s.Answerable)
	tests := []struct {
		name string
		got  evaluate.Estimate
		mean float64
		n    int
	}{
		{"hit@1", s.HitAt1, 1.0 / 3, 3},
		{"hit@k", s.HitAtK, 2.0 / 3, 3},
		{"MRR", s.MRR, (1 + 0.25) / 3, 3},
		{"nDCG", s.NDCG, 1.25 / 3, 3},
		{"context precision", s.ContextPrecision, 0.5 / 3, 3},
		{"span recall", s.SpanRecall, 0.5, 1},
		{"answer in passages", s.AnswerInPassages, 0.5, 2},
		{"answer in prompt", s.AnswerInPrompt, 0, 1},
		{"passage tokens", s.PassageTokens, 15, 4},
		{"prompt tokens", s.PromptTokens, 20, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.mean, tt.got.Mean, 1e-12)
			assert.Equal(t, tt.n, tt.got.N)
			assert.LessOrEqual(t, tt.got.Low, tt.got.Mean)
			assert.GreaterOrEqual(t, tt.got.High, tt.got.Mean)
		})
	}
}

func TestSummarizeIntervals(t *testing.T) {
	same := make([]evaluate.Result, 20)
	for i := range same {
		same[i] = evaluate.Result{Targets: 1, Rank: 2}
	}
	s, err := evaluate.Summarize(same, evaluate.SummaryConfig{})
	require.NoError(t, err)
	// Every resample of equal values has their mean.
	assert.Equal(t, evaluate.Estimate{Mean: 0.5, Low: 0.5, High: 0.5, N: 20}, s.MRR)

	// Half hits: the interval holds the mean and is within [0, 1];
	// the same seed gives the same interval, and more confidence a
	// wider one.
	half := make([]evaluate.Result, 40)
	for i := range half {
		half[i] = evaluate.Result{Targets: 1, Rank: i % 2}
	}
	a, err := evaluate.Summarize(half, evaluate.SummaryConfig{Seed: 7})
	require.NoError(t, err)
	b, err := evaluate.Summarize(half, evaluate.SummaryConfig{Seed: 7})
	require.NoError(t, err)
	assert.Equal(t, a, b)
	assert.InDelta(t, 0.5, a.HitAtK.Mean, 1e-12)
	assert.Greater(t, a.HitAtK.Low, 0.2)
	assert.Less(t, a.HitAtK.High, 0.8)
	assert.Less(t, a.HitAtK.Low, 0.5)
	assert.Greater(t, a.HitAtK.High, 0.5)
	wide, err := evaluate.Summarize(half, evaluate.SummaryConfig{Seed: 7, Level: 0.999})
	require.NoError(t, err)
	assert.Less(t, wide.HitAtK.Low, a.HitAtK.Low)
	assert.Greater(t, wide.HitAtK.High, a.HitAtK.High)

	empty, err := evaluate.Summarize(nil, evaluate.SummaryConfig{})
	require.NoError(t, err)
	assert.Equal(t, evaluate.Summary{}, empty)
}

func TestSummaryConfig(t *testing.T) {
	for _, cfg := range []evaluate.SummaryConfig{{Resamples: -1}, {Resamples: 2_000_000}, {Level: 1}, {Level: -0.5}} {
		_, err := evaluate.Summarize(nil, cfg)
		require.ErrorIs(t, err, evaluate.ErrConfig, "%+v", cfg)
	}
}

func TestCompare(t *testing.T) {
	qs := []evaluate.Question{
		{ID: "1", Question: "one", Docs: []string{"a"}},
		{ID: "2", Question: "two", Docs: []string{"b"}},
	}
	good := byQuestion{"one": {doc("a")}, "two": {doc("x"), doc("b")}}
	bad := fixed{doc("x")}
	runs, err := evaluate.Compare(context.Background(), evaluate.Config{Tokenizer: tokentest.Words{}, K: 3}, evaluate.SummaryConfig{Resamples: 100},
		[]evaluate.Configuration{{Name: "good", Retriever: good}, {Name: "bad", Retriever: bad}}, qs)
	require.NoError(t, err)
	require.Len(t, runs, 2)
	assert.InDelta(t, 0.75, runs[0].Summary.MRR.Mean, 1e-12)
	assert.Zero(t, runs[1].Summary.HitAtK.Mean)
	assert.Equal(t, 3, runs[0].K)

	var table bytes.Buffer
	require.NoError(t, evaluate.WriteTable(&table, runs))
	assert.Contains(t, table.String(), "| good | 2 | 0.500 [")
	assert.Contains(t, table.String(), "| bad | 2 | 0.000 [0.000, 0.000] |")

	var back []evaluate.Run
	data, err := json.Marshal(runs)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &back))
	assert.Equal(t, runs, back)

	_, err = evaluate.Compare(context.Background(), evaluate.Config{Tokenizer: tokentest.Words{}}, evaluate.SummaryConfig{},
		[]evaluate.Configuration{{Retriever: bad}}, qs)
	require.ErrorIs(t, err, evaluate.ErrConfig)
}

// A configuration without an AssembleFunc assembles with the Config's; one
// with its own uses that one.
func TestCompareAssembleFallsBack(t *testing.T) {
	qs := []evaluate.Question{{ID: "1", Question: "one", Answer: "alpha"}}
	ret := fixed{doc("a")}
	from := func(text string) evaluate.AssembleFunc {
		return func(context.Context, string, []retrieve.Passage) (string, error) { return text, nil }
	}
	runs, err := evaluate.Compare(context.Background(), evaluate.Config{Tokenizer: tokentest.Words{}, Assemble: from("alpha")}, evaluate.SummaryConfig{},
		[]evaluate.Configuration{{Name: "config's", Retriever: ret}, {Name: "own", Retriever: ret, Assemble: from("beta")}}, qs)
	require.NoError(t, err)
	assert.True(t, runs[0].Results[0].Prompt && runs[0].Results[0].AnswerInPrompt, "the Config's AssembleFunc")
	assert.True(t, runs[1].Results[0].Prompt && !runs[1].Results[0].AnswerInPrompt, "the configuration's own")
}

var _ evaluate.Retriever = (*retrieve.Retriever)(nil)

func TestPaired(t *testing.T) {
	// b finds at rank 1 what a finds at rank 2, on 30 questions: MRR
	// rises by exactly 0.5 on every question, so the interval is that.
	var a, b []evaluate.Result
	for i := range 30 {
		id := string(rune('a'+i%26)) + string(rune('0'+i/26))
		a = append(a, evaluate.Result{ID: id, Targets: 1, Rank: 2, PassageTokens: 10})
		b = append(b, evaluate.Result{ID: id, Targets: 1, Rank: 1, PassageTokens: 10 + i%2})
	}
	d, err := evaluate.Paired(a, b, evaluate.SummaryConfig{})
	require.NoError(t, err)
	assert.Equal(t, evaluate.Estimate{Mean: 0.5, Low: 0.5, High: 0.5, N: 30}, d.MRR)
	assert.Equal(t, evaluate.Estimate{Mean: 1, Low: 1, High: 1, N: 30}, d.HitAt1)
	assert.Equal(t, evaluate.Estimate{N: 30}, d.HitAtK)
	assert.InDelta(t, 0.5, d.PassageTokens.Mean, 1e-12)
	assert.Greater(t, d.PassageTokens.Low, 0.0)
	assert.Less(t, d.PassageTokens.High, 1.0)
	assert.Equal(t, 30, d.Answerable)

	_, err = evaluate.Paired(a, b[:29], evaluate.SummaryConfig{})
	require.ErrorIs(t, err, evaluate.ErrInvalid)
	b[3].ID = "other"
	_, err = evaluate.Paired(a, b, evaluate.SummaryConfig{})
	require.ErrorIs(t, err, evaluate.ErrInvalid)
	require.ErrorContains(t, err, `result 3 is of question "d0" in one and "other" in the other`)
}
