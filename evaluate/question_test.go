package evaluate_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/evaluate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadQuestions(t *testing.T) {
	input := `{"id": "q1", "question": "Who?", "docs": ["a.md"], "answer": "Ann", "reference": "Ann did."}

{"question": "Where?", "spans": [{"doc": "b.md", "start": 3, "end": 9}]}
{"question": "Not in the corpus?"}
`
	qs, err := evaluate.ReadQuestions(strings.NewReader(input))
	require.NoError(t, err)
	assert.Equal(t, []evaluate.Question{
		{ID: "q1", Question: "Who?", Docs: []string{"a.md"}, Answer: "Ann", Reference: "Ann did."},
		{ID: "line 3", Question: "Where?", Spans: []evaluate.Span{{Doc: "b.md", Start: 3, End: 9}}},
		{ID: "line 4", Question: "Not in the corpus?"},
	}, qs)
	assert.True(t, qs[0].Answerable())
	assert.False(t, qs[2].Answerable())

	var out bytes.Buffer
	require.NoError(t, evaluate.WriteQuestions(&out, qs))
	back, err := evaluate.ReadQuestions(&out)
	require.NoError(t, err)
	assert.Equal(t, qs, back)
}

func TestReadQuestionsErrors(t *testing.T) {
	tests := []struct {
		name, input, msg string
	}{
		{"not JSON", "{\"question\": \"a\"}\nnot json\n", "line 2: invalid character"},
		{"unknown field", `{"question": "a", "answr": "b"}`, `line 1: json: unknown field "answr"`},
		{"empty question", `{"question": "  "}`, "line 1: question is empty"},
		{"no question", `{"docs": ["a"]}`, "line 1: question is empty"},
		{"empty doc", `{"question": "a", "docs": [""]}`, "line 1: docs[0] is empty"},
		{"reversed span", `{"question": "a", "spans": [{"doc": "d", "start": 5, "end": 2}]}`, "line 1: spans[0]: [5, 2) is not a range"},
		{"empty span", `{"question": "a", "spans": [{"doc": "d", "start": 5, "end": 5}]}`, "is not a range"},
		{"negative span", `{"question": "a", "spans": [{"doc": "d", "start": -1, "end": 5}]}`, "is not a range"},
		{"span without doc", `{"question": "a", "spans": [{"start": 0, "end": 5}]}`, "spans[0]: doc is empty"},
		{"repeated id", "{\"id\": \"x\", \"question\": \"a\"}\n{\"id\": \"x\", \"question\": \"b\"}", `line 2: id "x" is already on line 1`},
		{"two values", `{"question": "a"} {"question": "b"}`, "more than one JSON value"},
		{"array", `["a"]`, "line 1: json: cannot unmarshal array"},
		{"line too long", `{"question": "` + strings.Repeat("a", evaluate.MaxLineBytes) + `"}`, "line 1: longer than 1048576 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := evaluate.ReadQuestions(strings.NewReader(tt.input))
			require.ErrorIs(t, err, evaluate.ErrInvalid)
			require.ErrorContains(t, err, tt.msg)
		})
	}
}

func TestReadQuestionsTooMany(t *testing.T) {
	input := strings.Repeat("{\"question\": \"a\"}\n", evaluate.MaxQuestions+1)
	_, err := evaluate.ReadQuestions(strings.NewReader(input))
	require.ErrorIs(t, err, evaluate.ErrInvalid)
	require.ErrorContains(t, err, "more than 100000 questions")
}

func FuzzReadQuestions(f *testing.F) {
	f.Add([]byte(`{"id": "q1", "question": "Who?", "docs": ["a.md"], "answer": "Ann"}`))
	f.Add([]byte("{\"question\": \"Where?\", \"spans\": [{\"doc\": \"b\", \"start\": 3, \"end\": 9}]}\n\n{\"question\": \"x\"}"))
	f.Add([]byte(`{"question": "a", "spans": [{"doc": "d", "start": 5, "end": 2}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		qs, err := evaluate.ReadQuestions(bytes.NewReader(data))
		if err != nil {
			require.ErrorIs(t, err, evaluate.ErrInvalid)
			return
		}
		ids := map[string]bool{}
		for _, q := range qs {
			require.NotEmpty(t, strings.TrimSpace(q.Question))
			require.False(t, ids[q.ID], "repeated ID %q", q.ID)
			ids[q.ID] = true
			for _, s := range q.Spans {
				require.True(t, s.Start >= 0 && s.Start < s.End)
			}
		}
		// What was read writes and reads back the same.
		var out bytes.Buffer
		require.NoError(t, evaluate.WriteQuestions(&out, qs))
		back, err := evaluate.ReadQuestions(&out)
		require.NoError(t, err)
		require.Equal(t, len(qs), len(back))
	})
}
