package eval_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/benchmarks/eval"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/tokentest"
)

// With tokentest.Runes every byte of an ASCII text is one token, so the
// token metrics below are counts of bytes, easy to check by hand.
func runeScorer(t *testing.T) *eval.Scorer {
	t.Helper()
	s, err := eval.NewScorer(tokentest.Runes{}, []eval.Document{
		{ID: "d", Text: "aaaa bbbb cccc dddd"}, // 19 bytes
		{ID: "e", Text: "eeee"},
	})
	require.NoError(t, err)
	return s
}

func sp(doc string, start, end int) eval.Span { return eval.Span{DocID: doc, Start: start, End: end} }

func TestScore(t *testing.T) {
	gold := sp("d", 5, 14) // "bbbb cccc": 9 tokens
	tests := []struct {
		name                   string
		retrieved              []eval.Span
		rank                   int
		recall, precision, iou float64
	}{
		{"exact", []eval.Span{gold}, 1, 1, 1, 1},
		{"inside a wider span", []eval.Span{sp("d", 0, 19)}, 1, 1, 9.0 / 19, 9.0 / 19},
		{"second hit", []eval.Span{sp("e", 0, 4), sp("d", 5, 19)}, 2, 1, 9.0 / 18, 9.0 / 18},
		// Held only once both halves are in: rank 3, not 1.
		{"split, completed at rank 3", []eval.Span{sp("d", 0, 7), sp("e", 0, 4), sp("d", 7, 19)}, 3, 1, 9.0 / 23, 9.0 / 23},
		// The space between the halves need not be retrieved.
		{"halves around a space", []eval.Span{sp("d", 5, 9), sp("d", 10, 14)}, 2, 8.0 / 9, 1, 8.0 / 9},
		{"half only", []eval.Span{sp("d", 0, 7)}, 0, 2.0 / 9, 2.0 / 7, 2.0 / 14},
		{"other document", []eval.Span{sp("e", 0, 4)}, 0, 0, 0, 0},
		{"nothing", nil, 0, 0, 0, 0},
		// A token retrieved twice counts once.
		{"duplicates", []eval.Span{sp("d", 5, 14), sp("d", 5, 14), sp("d", 10, 19)}, 1, 1, 9.0 / 14, 9.0 / 14},
	}
	s := runeScorer(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := s.Score(gold, tt.retrieved, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.rank, r.Rank, "rank")
			assert.InDelta(t, tt.recall, r.Recall, 1e-12, "recall")
			assert.InDelta(t, tt.precision, r.Precision, 1e-12, "precision")
			assert.InDelta(t, tt.iou, r.IoU, 1e-12, "IoU")
		})
	}
}

func TestOmega(t *testing.T) {
	gold := sp("d", 5, 14) // "bbbb cccc"
	tests := []struct {
		name  string
		units []eval.Span
		omega float64
		split bool
	}{
		{"units cut through the answer", []eval.Span{sp("d", 0, 7), sp("d", 7, 12), sp("d", 12, 19)}, 9.0 / 19, true},
		{"one unit is the answer", []eval.Span{sp("d", 0, 4), sp("d", 5, 14), sp("d", 15, 19)}, 1, false},
		{"one unit holds it", []eval.Span{sp("d", 0, 14), sp("d", 15, 19)}, 9.0 / 14, false},
		// Units touching the answer only with white space are not needed.
		{"neighbours across a space", []eval.Span{sp("d", 0, 4), sp("d", 4, 5), sp("d", 5, 14), sp("d", 14, 19)}, 1, false},
		{"units of other documents are ignored", []eval.Span{sp("e", 0, 4), sp("d", 5, 14)}, 1, false},
		{"no units", nil, 0, true},
	}
	s := runeScorer(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := s.Score(gold, nil, tt.units)
			require.NoError(t, err)
			assert.InDelta(t, tt.omega, r.Omega, 1e-12)
			assert.Equal(t, tt.split, r.Split)
		})
	}
}

// TestScoreTokens checks that the metrics count the tokenizer's tokens,
// not bytes: "The quick brown fox jumps." is The| quick| brown| fox|
// jumps|. in cl100k_base.
func TestScoreTokens(t *testing.T) {
	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	require.NoError(t, err)
	s, err := eval.NewScorer(tok, []eval.Document{{ID: "d", Text: "The quick brown fox jumps."}})
	require.NoError(t, err)
	r, err := s.Score(sp("d", 10, 19), []eval.Span{sp("d", 0, 26)}, nil) // "brown fox"
	require.NoError(t, err)
	assert.InDelta(t, 2.0/6, r.Precision, 1e-12)
	// An answer starting inside a word counts the word's token.
	r, err = s.Score(sp("d", 11, 15), []eval.Span{sp("d", 10, 15)}, nil) // "rown" in " brown"
	require.NoError(t, err)
	assert.Equal(t, 1, r.Rank)
	assert.InDelta(t, 1, r.IoU, 1e-12)
}

func TestScoreErrors(t *testing.T) {
	s := runeScorer(t)
	for name, spans := range map[string][]eval.Span{
		"unknown document": {sp("x", 0, 1)},
		"past the end":     {sp("d", 5, 20)},
		"reversed":         {sp("d", 6, 5)},
		"negative":         {sp("d", -1, 5)},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := s.Score(sp("d", 5, 9), spans, nil)
			require.ErrorIs(t, err, eval.ErrMethod)
			_, err = s.Score(sp("d", 5, 9), nil, spans)
			require.ErrorIs(t, err, eval.ErrMethod)
		})
	}
	_, err := eval.NewScorer(nil, nil)
	require.ErrorIs(t, err, eval.ErrConfig)
}

func TestSummarize(t *testing.T) {
	s := eval.Summarize([]eval.QuestionResult{
		{Rank: 1, Recall: 1, Precision: 0.5, IoU: 0.5, Omega: 1},
		{Rank: 2, Recall: 1, Precision: 0.25, IoU: 0.25, Omega: 0.5, Split: true},
		{Rank: 0, Recall: 0.5, Precision: 0.1, IoU: 0.1, Omega: 0.5},
		{Rank: 5, Recall: 1, Precision: 0.05, IoU: 0.05, Omega: 0.2},
	})
	assert.Equal(t, 4, s.Questions)
	assert.Equal(t, 1, s.Failures)
	assert.Equal(t, 1, s.Split)
	assert.InDelta(t, 0.25, s.HitAt1, 1e-12)
	assert.InDelta(t, 0.75, s.HitAtK, 1e-12)
	assert.InDelta(t, (1+0.5+0+0.2)/4, s.MRR, 1e-12)
	assert.InDelta(t, 3.5/4, s.Recall, 1e-12)
	assert.InDelta(t, 0.9/4, s.Precision, 1e-12)
	assert.InDelta(t, 0.9/4, s.IoU, 1e-12)
	assert.InDelta(t, 2.2/4, s.Omega, 1e-12)
	assert.Equal(t, eval.Summary{}, eval.Summarize(nil))
}
