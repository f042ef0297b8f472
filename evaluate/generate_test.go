package evaluate_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/ragkit/ragkit/evaluate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGenerate(t *testing.T) {
	chunks := []evaluate.Chunk{
		{Doc: "bridge.md", Start: 0, End: 26, Text: "The bridge opened in 1890."},
		{Doc: "bridge.md", Start: 27, End: 59, Text: "It was designed by Baker and Fowler."},
		{Doc: "ferry.md", Start: 0, End: 27, Text: "The ferry ran until 1890."},
	}
	s := &script{replies: []string{
		`{"questions": [{"question": "When did the bridge open?", "answer": "1890"}, {"question": "What opened in 1890?", "answer": "the bridge"}]}`,
		// Not grounded: the answer is not in the chunk, three times.
		`{"questions": [{"question": "Who built it?", "answer": "Arrol"}, {"question": "Who designed it?", "answer": "Baker"}]}`,
		`{"questions": [{"question": "Who built it?", "answer": "Arrol"}, {"question": "Who designed it?", "answer": "Baker"}]}`,
		`{"questions": [{"question": "Who built it?", "answer": "Arrol"}, {"question": "Who designed it?", "answer": "Baker"}]}`,
		// One question repeats an earlier one but for case and spaces.
		`{"questions": [{"question": "When did the  ferry stop?", "answer": "1890"}, {"question": "what opened in 1890?", "answer": "ferry"}]}`,
	}}
	j := newJudge(t, s, evaluate.JudgeConfig{})
	g, err := j.Generate(context.Background(), chunks, 2)
	require.NoError(t, err)
	assert.Equal(t, []evaluate.Question{
		{ID: "bridge.md@0-26#1", Question: "When did the bridge open?", Spans: []evaluate.Span{{Doc: "bridge.md", Start: 0, End: 26}}, Answer: "1890"},
		{ID: "bridge.md@0-26#2", Question: "What opened in 1890?", Spans: []evaluate.Span{{Doc: "bridge.md", Start: 0, End: 26}}, Answer: "the bridge"},
		{ID: "ferry.md@0-27#1", Question: "When did the  ferry stop?", Spans: []evaluate.Span{{Doc: "ferry.md", Start: 0, End: 27}}, Answer: "1890"},
	}, g.Questions)
	assert.Equal(t, 1, g.Duplicates)
	require.Len(t, g.Failed, 1)
	assert.ErrorIs(t, g.Failed[0], evaluate.ErrJudge)
	assert.ErrorContains(t, g.Failed[0], `chunk 1 (document "bridge.md", bytes 27-59)`)
	assert.ErrorContains(t, g.Failed[0], "the answer of question 1 is not in the passage")
	assert.Equal(t, 5, j.Calls())

	// The set reads back as a question set.
	var out bytes.Buffer
	require.NoError(t, evaluate.WriteQuestions(&out, g.Questions))
	back, err := evaluate.ReadQuestions(&out)
	require.NoError(t, err)
	assert.Equal(t, g.Questions, back)
}

func TestGenerateErrors(t *testing.T) {
	j := newJudge(t, &script{}, evaluate.JudgeConfig{})
	ctx := context.Background()
	good := []evaluate.Chunk{{Doc: "d", Start: 0, End: 4, Text: "text"}}
	for _, n := range []int{0, -1, evaluate.MaxPerChunk + 1} {
		_, err := j.Generate(ctx, good, n)
		require.ErrorIs(t, err, evaluate.ErrConfig)
	}
	for _, c := range []evaluate.Chunk{{Start: 0, End: 4, Text: "text"}, {Doc: "d", Start: 4, End: 4, Text: "text"}, {Doc: "d", Start: 0, End: 4, Text: " "}} {
		_, err := j.Generate(ctx, []evaluate.Chunk{c}, 1)
		require.ErrorIs(t, err, evaluate.ErrInvalid, "%+v", c)
	}
	// The script has no reply: the Chat's error stops the generation.
	_, err := j.Generate(ctx, good, 1)
	require.ErrorContains(t, err, "script: no reply left")
	require.NotErrorIs(t, err, evaluate.ErrJudge)
}

func TestGenerateSameSpan(t *testing.T) {
	// Two chunks of one span with different texts (two versions of a
	// document): the questions keep distinct IDs.
	chunks := []evaluate.Chunk{{Doc: "d", Start: 0, End: 9, Text: "Version 1"}, {Doc: "d", Start: 0, End: 9, Text: "Version 2"}}
	s := &script{replies: []string{
		`{"questions": [{"question": "Which version is one?", "answer": "1"}]}`,
		`{"questions": [{"question": "Which version is two?", "answer": "2"}]}`,
	}}
	g, err := newJudge(t, s, evaluate.JudgeConfig{}).Generate(context.Background(), chunks, 1)
	require.NoError(t, err)
	require.Len(t, g.Questions, 2)
	assert.Equal(t, "d@0-9#1", g.Questions[0].ID)
	assert.Equal(t, "d@0-9#1.2", g.Questions[1].ID)
}
