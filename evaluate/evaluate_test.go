package evaluate_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/ragkit/ragkit/evaluate"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount/tokentest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixed is a Retriever that returns the same passages for every question.
type fixed []retrieve.Passage

func (f fixed) Retrieve(context.Context, string) ([]retrieve.Passage, error) { return f, nil }

// byQuestion returns the passages listed for each question.
type byQuestion map[string][]retrieve.Passage

func (b byQuestion) Retrieve(_ context.Context, q string) ([]retrieve.Passage, error) {
	return b[q], nil
}

func doc(id string) retrieve.Passage { return retrieve.Passage{DocID: id, Text: id + " text"} }

// l2 is 1/log2(i+1), the discount of rank i.
func l2(i int) float64 { return 1 / math.Log2(float64(i+1)) }

func TestScoreByDocuments(t *testing.T) {
	words := tokentest.Words{}
	tests := []struct {
		name      string
		k         int
		docs      []string
		passages  []retrieve.Passage
		rank      int
		ndcg      float64
		precision float64
	}{
		{"first of one", 5, []string{"a"}, []retrieve.Passage{doc("a"), doc("b")}, 1, 1, 0.5},
		{"second of one", 5, []string{"a"}, []retrieve.Passage{doc("b"), doc("a")}, 2, l2(2), 0.5},
		{"miss", 5, []string{"a"}, []retrieve.Passage{doc("b"), doc("c")}, 0, 0, 0},
		{"empty result", 5, []string{"a"}, nil, 0, 0, 0},
		{"beyond k", 1, []string{"a"}, []retrieve.Passage{doc("b"), doc("a")}, 0, 0, 0},
		// Two relevant documents at ranks 1 and 3: DCG 1 + 1/2,
		// ideal 1 + 1/log2(3).
		{"two of two", 5, []string{"a", "b"}, []retrieve.Passage{doc("a"), doc("c"), doc("b")}, 1, (1 + l2(3)) / (1 + l2(2)), 2.0 / 3},
		// The duplicate of a gains nothing: DCG 1, ideal 1 + 1/log2(3).
		// Its tokens are relevant all the same.
		{"duplicate", 5, []string{"a", "b"}, []retrieve.Passage{doc("a"), doc("a")}, 1, 1 / (1 + l2(2)), 1},
		// A repeated target is one target.
		{"repeated target", 5, []string{"a", "a"}, []retrieve.Passage{doc("a")}, 1, 1, 1},
		// Three targets, k = 2: the ideal is two relevant passages.
		{"more targets than k", 2, []string{"a", "b", "c"}, []retrieve.Passage{doc("c"), doc("a")}, 1, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := evaluate.Score(words, tt.k, evaluate.Question{ID: "q", Question: "?", Docs: tt.docs}, tt.passages)
			assert.Equal(t, tt.rank, r.Rank)
			assert.InDelta(t, tt.ndcg, r.NDCG, 1e-12)
			assert.InDelta(t, tt.precision, r.ContextPrecision, 1e-12)
			assert.Equal(t, min(tt.k, len(tt.passages)), r.Passages)
			assert.Equal(t, 2*r.Passages, r.PassageTokens)
		})
	}
}

func TestScoreBySpans(t *testing.T) {
	// The document: "zero one two three four five six seven" (byte offsets
	// of the words: zero 0-4, one 5-8, two 9-12, three 13-18, four
	// 19-23, five 24-28, six 29-32, seven 33-38).
	const text = "zero one two three four five six seven"
	part := func(start, end int) retrieve.Passage {
		return retrieve.Passage{DocID: "d", Start: start, End: end, Text: text[start:end]}
	}
	words := tokentest.Words{}
	tests := []struct {
		name      string
		spans     []evaluate.Span
		passages  []retrieve.Passage
		rank      int
		ndcg      float64
		recall    float64
		precision float64
	}{
		// "two three" (9-18) in "zero one two three" (0-18): all of the
		// span, 2 of 4 words.
		{"inside", []evaluate.Span{{"d", 9, 18}}, []retrieve.Passage{part(0, 18)}, 1, 1, 1, 0.5},
		// "three four" (13-23) across two passages: "two three" (9-18)
		// and "four five" (19-28): 5 of 10 bytes of the span... plus
		// "four" 19-23: 9 of 10 bytes (the space at 18 is in neither).
		{"across two", []evaluate.Span{{"d", 13, 23}}, []retrieve.Passage{part(9, 18), part(19, 28)}, 1, 1, 0.9, 0.5},
		// A passage of another document, then one that ends where the
		// span starts (no overlap), then the span.
		{"touching is not overlapping", []evaluate.Span{{"d", 9, 12}},
			[]retrieve.Passage{{DocID: "e", Start: 9, End: 12, Text: "two"}, part(5, 9), part(9, 12)}, 3, l2(3), 1, 1.0 / 3},
		// A passage without offsets is relevant to no span.
		{"no offsets", []evaluate.Span{{"d", 0, 4}}, []retrieve.Passage{{DocID: "d", Text: "zero"}}, 0, 0, 0, 0},
		// Two spans, one passage holding both: it gains once.
		{"two spans in one passage", []evaluate.Span{{"d", 0, 4}, {"d", 33, 38}}, []retrieve.Passage{part(0, 38)}, 1, 1 / (1 + l2(2)), 1, 0.25},
		// Overlapping spans count their bytes once: 0-12 of which 0-8
		// is covered.
		{"overlapping spans", []evaluate.Span{{"d", 0, 8}, {"d", 5, 12}}, []retrieve.Passage{part(0, 8)}, 1, 1 / (1 + l2(2)), 8.0 / 12, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := evaluate.Score(words, 5, evaluate.Question{ID: "q", Question: "?", Spans: tt.spans}, tt.passages)
			assert.Equal(t, tt.rank, r.Rank)
			assert.InDelta(t, tt.ndcg, r.NDCG, 1e-12)
			assert.InDelta(t, tt.recall, r.SpanRecall, 1e-12)
			assert.InDelta(t, tt.precision, r.ContextPrecision, 1e-12)
			assert.True(t, r.Spans)
		})
	}
}

func TestScoreByAnswer(t *testing.T) {
	q := evaluate.Question{ID: "q", Question: "capital?", Answer: "Paris  is"}
	ps := []retrieve.Passage{
		{DocID: "a", Text: "Rome is old"},
		{DocID: "b", Text: "PARIS\nis the capital"},
	}
	r := evaluate.Score(tokentest.Words{}, 5, q, ps)
	assert.Equal(t, 1, r.Targets)
	assert.Equal(t, 2, r.Rank)
	assert.True(t, r.AnswerInPassages)
	assert.InDelta(t, l2(2), r.NDCG, 1e-12)
	assert.InDelta(t, 4.0/7, r.ContextPrecision, 1e-12)
}

func TestScoreUnanswerable(t *testing.T) {
	r := evaluate.Score(tokentest.Words{}, 5, evaluate.Question{ID: "q", Question: "?"}, []retrieve.Passage{doc("a")})
	assert.Equal(t, evaluate.Result{ID: "q", Passages: 1, PassageTokens: 2}, r)
}

func TestEvaluatePrompt(t *testing.T) {
	qs := []evaluate.Question{
		{ID: "kept", Question: "one", Docs: []string{"a"}, Answer: "alpha"},
		{ID: "cut", Question: "two", Docs: []string{"b"}, Answer: "beta gamma"},
	}
	r := byQuestion{
		"one": {{DocID: "a", Text: "alpha first"}},
		"two": {{DocID: "b", Text: "beta gamma delta"}},
	}
	// The "budget" keeps the first word of each passage.
	assemble := func(_ context.Context, q string, ps []retrieve.Passage) (string, error) {
		var prompt string
		for _, p := range ps {
			prompt += firstWord(p.Text) + "\n"
		}
		return "Q: " + q + "\n" + prompt, nil
	}
	res, err := evaluate.Evaluate(context.Background(), evaluate.Config{Tokenizer: tokentest.Words{}, Assemble: assemble}, r, qs)
	require.NoError(t, err)
	require.Len(t, res, 2)
	assert.True(t, res[0].AnswerInPassages)
	assert.True(t, res[0].AnswerInPrompt)
	assert.Equal(t, 3, res[0].PromptTokens)
	assert.True(t, res[1].AnswerInPassages)
	assert.False(t, res[1].AnswerInPrompt)
	assert.True(t, res[1].Prompt)
}

func firstWord(s string) string {
	for i, r := range s {
		if r == ' ' {
			return s[:i]
		}
	}
	return s
}

type failing struct{ err error }

func (f failing) Retrieve(context.Context, string) ([]retrieve.Passage, error) {
	if f.err == nil {
		panic("boom")
	}
	return nil, f.err
}

func TestEvaluateErrors(t *testing.T) {
	ctx := context.Background()
	qs := []evaluate.Question{{ID: "q1", Question: "?"}}
	cfg := evaluate.Config{Tokenizer: tokentest.Words{}}
	errStore := errors.New("store down")
	tests := []struct {
		name string
		cfg  evaluate.Config
		r    evaluate.Retriever
		qs   []evaluate.Question
		is   error
		msg  string
	}{
		{"no tokenizer", evaluate.Config{}, fixed(nil), qs, evaluate.ErrConfig, "Tokenizer is required"},
		{"negative k", evaluate.Config{Tokenizer: tokentest.Words{}, K: -1}, fixed(nil), qs, evaluate.ErrConfig, "K is -1"},
		{"nil retriever", cfg, nil, qs, evaluate.ErrConfig, "Retriever is nil"},
		{"retriever error", cfg, failing{errStore}, qs, errStore, `"q1"`},
		{"retriever panic", cfg, failing{}, qs, nil, "panicked: boom"},
		{"empty question", cfg, fixed(nil), []evaluate.Question{{ID: "e"}}, evaluate.ErrInvalid, "question is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := evaluate.Evaluate(ctx, tt.cfg, tt.r, tt.qs)
			require.Error(t, err)
			if tt.is != nil {
				require.ErrorIs(t, err, tt.is)
			}
			require.ErrorContains(t, err, tt.msg)
		})
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err := evaluate.Evaluate(cancelled, cfg, fixed(nil), qs)
	require.ErrorIs(t, err, context.Canceled)
}

func TestHitAndReciprocalRank(t *testing.T) {
	tests := []struct {
		rank, k int
		hit, rr float64
	}{
		{0, 5, 0, 0}, {1, 1, 1, 1}, {2, 1, 0, 0.5}, {4, 5, 1, 0.25}, {-1, 5, 0, 0},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.hit, evaluate.Hit(tt.rank, tt.k), "Hit(%d, %d)", tt.rank, tt.k)
		assert.Equal(t, tt.rr, evaluate.ReciprocalRank(tt.rank), "ReciprocalRank(%d)", tt.rank)
	}
}
