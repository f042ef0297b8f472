package evaluate_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/ragkit/ragkit/evaluate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// script is a fake judge: it answers each prompt with the next of its
// replies, and keeps the prompts.
type script struct {
	mu      sync.Mutex
	replies []string
	prompts []string
	err     error
}

func (s *script) Complete(ctx context.Context, prompt string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prompts = append(s.prompts, prompt)
	if s.err != nil {
		return "", s.err
	}
	if len(s.replies) == 0 {
		return "", errors.New("script: no reply left")
	}
	r := s.replies[0]
	s.replies = s.replies[1:]
	return r, nil
}

func newJudge(t *testing.T, s *script, cfg evaluate.JudgeConfig) *evaluate.Judge {
	t.Helper()
	cfg.Chat = s
	j, err := evaluate.NewJudge(cfg)
	require.NoError(t, err)
	return j
}

const (
	question = "When was the bridge built, and by whom?"
	answer   = "The bridge was built in 1890 by Baker. It is red."
	passage  = "The bridge opened in 1890. It was designed by Baker and Fowler. It is painted grey."
)

func TestFaithfulness(t *testing.T) {
	s := &script{replies: []string{
		`{"statements": ["The bridge was built in 1890.", "Baker built the bridge.", "The bridge is red."]}`,
		"```json\n" + `{"verdicts": [{"statement": 1, "reason": "opened in 1890", "verdict": 1}, {"statement": 3, "reason": "grey", "verdict": 0}, {"statement": 2, "reason": "designed by Baker", "verdict": 1}]}` + "\n```",
	}}
	j := newJudge(t, s, evaluate.JudgeConfig{})
	f, err := j.Faithfulness(context.Background(), question, answer, passage)
	require.NoError(t, err)
	assert.InDelta(t, 2.0/3, f.Score, 1e-12)
	assert.Equal(t, []evaluate.Claim{
		{Statement: "The bridge was built in 1890.", Supported: true},
		{Statement: "Baker built the bridge.", Supported: true},
		{Statement: "The bridge is red.", Supported: false},
	}, f.Claims)
	assert.Equal(t, 2, j.Calls())
	assert.Contains(t, s.prompts[0], answer)
	assert.Contains(t, s.prompts[1], "3. The bridge is red.")
	assert.Contains(t, s.prompts[1], passage)

	// The same judgment again is cached: no call.
	again, err := j.Faithfulness(context.Background(), question, answer, passage)
	require.NoError(t, err)
	assert.Equal(t, f, again)
	assert.Equal(t, 2, j.Calls())
}

func TestFaithfulnessNoClaims(t *testing.T) {
	s := &script{replies: []string{`{"statements": []}`}}
	_, err := newJudge(t, s, evaluate.JudgeConfig{}).Faithfulness(context.Background(), question, "I cannot say.", passage)
	require.ErrorIs(t, err, evaluate.ErrNoClaims)
}

func TestJudgeMalformed(t *testing.T) {
	statements := `{"statements": ["The bridge was built in 1890.", "The bridge is red."]}`
	long := `{"statements": ["` + strings.Repeat("a", evaluate.MaxReplyBytes) + `"]}`
	tests := []struct {
		name    string
		replies []string
		calls   int
		err     error  // nil: accepted
		why     string // in the error, or in the retry's prompt
	}{
		{"refusal, then valid", []string{"I'm sorry, I can't help with that.", statements, `{"verdicts": [{"statement": 1, "verdict": 1}, {"statement": 2, "verdict": 1}]}`}, 3, nil, "holds no JSON object"},
		{"always a refusal", []string{"No.", "No.", "No."}, 3, evaluate.ErrJudge, "holds no JSON object"},
		{"unknown field", []string{`{"claims": []}`, `{"claims": []}`, `{"claims": []}`}, 3, evaluate.ErrJudge, `unknown field "claims"`},
		{"missing field", []string{`{}`, `{}`, `{}`}, 3, evaluate.ErrJudge, `"statements" is missing`},
		{"broken JSON", []string{`{"statements": ["a",}`, `{"statements": [1]}`, `{"statements": [""]}`}, 3, evaluate.ErrJudge, "statement 1 is empty"},
		{"a verdict short", []string{statements, `{"verdicts": [{"statement": 1, "verdict": 1}]}`, `{"verdicts": [{"statement": 1, "verdict": 1}]}`, `{"verdicts": [{"statement": 1, "verdict": 1}]}`}, 4, evaluate.ErrJudge, "1 verdicts for 2 statements"},
		{"a statement judged twice", []string{statements, `{"verdicts": [{"statement": 1, "verdict": 1}, {"statement": 1, "verdict": 0}]}`, `{"verdicts": [{"statement": 1, "verdict": 1}, {"statement": 3, "verdict": 0}]}`, `{"verdicts": [{"statement": 1, "verdict": 1}, {"statement": 2, "verdict": 2}]}`}, 4, evaluate.ErrJudge, `"verdict" must be 0 or 1`},
		{"too long", []string{long, long, long}, 3, evaluate.ErrJudge, "longer than 65536 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &script{replies: tt.replies}
			j := newJudge(t, s, evaluate.JudgeConfig{})
			_, err := j.Faithfulness(context.Background(), question, answer, passage)
			assert.Equal(t, tt.calls, j.Calls())
			if tt.err == nil {
				require.NoError(t, err)
				assert.Contains(t, s.prompts[1], tt.why)
				return
			}
			require.ErrorIs(t, err, tt.err)
			require.ErrorContains(t, err, tt.why)
		})
	}
}

func TestJudgeChatErrors(t *testing.T) {
	s := &script{err: context.DeadlineExceeded}
	j := newJudge(t, s, evaluate.JudgeConfig{})
	_, err := j.ContextRelevance(context.Background(), question, passage)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, 1, j.Calls(), "a Chat's error is not a malformed reply: no retry")

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = j.ContextRelevance(cancelled, question, passage)
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 1, j.Calls())

	_, err = j.ContextRelevance(context.Background(), " ", passage)
	require.ErrorIs(t, err, evaluate.ErrInvalid)
}

func TestContextRelevance(t *testing.T) {
	tests := []struct {
		name    string
		replies []string
		score   float64
		err     error
	}{
		// Three sentences; two are needed, one given twice.
		{"two of three", []string{`{"sentences": ["The bridge opened in 1890.", "It was designed by  baker and Fowler.", "The bridge opened in 1890."]}`}, 2.0 / 3, nil},
		{"none", []string{`{"sentences": []}`}, 0, nil},
		{"not in the context", []string{`{"sentences": ["It was built by Baker."]}`, `{"sentences": ["It was built by Baker."]}`, `{"sentences": ["It was built by Baker."]}`}, 0, evaluate.ErrJudge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := newJudge(t, &script{replies: tt.replies}, evaluate.JudgeConfig{})
			score, err := j.ContextRelevance(context.Background(), question, passage)
			if tt.err != nil {
				require.ErrorIs(t, err, tt.err)
				require.ErrorContains(t, err, "sentence 1 is not in the context")
				return
			}
			require.NoError(t, err)
			assert.InDelta(t, tt.score, score, 1e-12)
		})
	}
}

// vectors is a fake Embedder with a vector for each text it knows.
type vectors map[string][]float32

func (v vectors) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		vec, ok := v[t]
		if !ok {
			return nil, errors.New("vectors: unknown text " + t)
		}
		out[i] = vec
	}
	return out, nil
}

func TestAnswerRelevance(t *testing.T) {
	emb := vectors{
		question:             {1, 0},
		"When was it built?": {1, 1},   // cosine 1/√2
		"Who built it?":      {0, 1},   // cosine 0
		"What colour is it?": {-1, 0},  // cosine -1, counted as 0
		"When did it open?":  {1, 0.0}, // cosine 1
	}
	tests := []struct {
		name   string
		reply  string
		score  float64
		isErr  error
		reason string
	}{
		{"committal", `{"questions": ["When was it built?", "Who built it?", "When did it open?"], "noncommittal": 0}`, (1/math.Sqrt2 + 0 + 1) / 3, nil, ""},
		{"negative similarity", `{"questions": ["What colour is it?", "Who built it?", "When did it open?"], "noncommittal": 0}`, 1.0 / 3, nil, ""},
		{"noncommittal", `{"questions": ["When was it built?", "Who built it?", "When did it open?"], "noncommittal": 1}`, 0, nil, ""},
		{"too few questions", `{"questions": ["Who built it?"], "noncommittal": 0}`, 0, evaluate.ErrJudge, "1 questions, not 3"},
		{"no noncommittal", `{"questions": ["When was it built?", "Who built it?", "When did it open?"]}`, 0, evaluate.ErrJudge, `"noncommittal" must be 0 or 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &script{replies: []string{tt.reply, tt.reply, tt.reply}}
			j := newJudge(t, s, evaluate.JudgeConfig{Embedder: emb})
			score, err := j.AnswerRelevance(context.Background(), question, answer)
			if tt.isErr != nil {
				require.ErrorIs(t, err, tt.isErr)
				require.ErrorContains(t, err, tt.reason)
				return
			}
			require.NoError(t, err)
			assert.InDelta(t, tt.score, score, 1e-6)
			assert.Contains(t, s.prompts[0], "Write 3 different questions")
		})
	}
	j := newJudge(t, &script{}, evaluate.JudgeConfig{})
	_, err := j.AnswerRelevance(context.Background(), question, answer)
	require.ErrorIs(t, err, evaluate.ErrConfig)
}

func TestJudgeConfig(t *testing.T) {
	for _, cfg := range []evaluate.JudgeConfig{{}, {Chat: &script{}, Attempts: -1}, {Chat: &script{}, Attempts: 11}, {Chat: &script{}, Questions: 21}} {
		_, err := evaluate.NewJudge(cfg)
		require.ErrorIs(t, err, evaluate.ErrConfig, "%+v", cfg)
	}
	j, err := evaluate.NewJudge(evaluate.JudgeConfig{Chat: &script{}})
	require.NoError(t, err)
	assert.Equal(t, 3, j.Config().Attempts)
	assert.Equal(t, 3, j.Config().Questions)
}

// FuzzJudgeReply feeds any reply to the judge's parser: the judgment is
// either a score in [0, 1] or an error wrapping ErrJudge, never a panic.
func FuzzJudgeReply(f *testing.F) {
	f.Add(`{"sentences": ["The bridge opened in 1890."]}`)
	f.Add("```json\n{\"sentences\": []}\n```")
	f.Add(`{"sentences": ["x"]} trailing }`)
	f.Add(`I'm sorry.`)
	f.Fuzz(func(t *testing.T, reply string) {
		chat := evaluate.ChatFunc(func(context.Context, string) (string, error) { return reply, nil })
		j, err := evaluate.NewJudge(evaluate.JudgeConfig{Chat: chat, Attempts: 1})
		require.NoError(t, err)
		score, err := j.ContextRelevance(context.Background(), question, passage)
		if err != nil {
			require.ErrorIs(t, err, evaluate.ErrJudge)
			return
		}
		require.True(t, score >= 0 && score <= 1, "score %v", score)
	})
}
