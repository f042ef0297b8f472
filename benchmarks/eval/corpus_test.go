package eval_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/benchmarks/eval"
	"github.com/ragkit/ragkit/document"
)

// TestBuiltinCorpora checks the gold data itself, independently of the
// loader's own checks: every span is its answer's text in its document,
// the answer occurs once there and in no other document.
func TestBuiltinCorpora(t *testing.T) {
	least := map[string]struct{ docs, questions int }{"reports": {30, 60}, "room": {1, 15}}
	for _, name := range eval.Corpora() {
		t.Run(name, func(t *testing.T) {
			c, err := eval.Load(name)
			require.NoError(t, err)
			assert.Equal(t, name, c.Name)
			assert.GreaterOrEqual(t, len(c.Documents), least[name].docs)
			assert.GreaterOrEqual(t, len(c.Questions), least[name].questions)
			for _, q := range c.Questions {
				doc, ok := c.Document(q.DocID)
				require.True(t, ok, q.ID)
				require.True(t, 0 <= q.Start && q.Start < q.End && q.End <= len(doc.Text), q.ID)
				assert.Equal(t, q.Answer, doc.Text[q.Start:q.End], q.ID)
				assert.Equal(t, 1, strings.Count(doc.Text, q.Answer), "%s: answer not unique in its document", q.ID)
				for _, other := range c.Documents {
					if other.ID != q.DocID {
						assert.NotContains(t, other.Text, q.Answer, "%s: answer also in %s", q.ID, other.ID)
					}
				}
			}
		})
	}
}

// TestReportsKinds checks that the written corpus has the near-duplicate
// structure it is meant to have: several documents per kind, every
// document asked about, Markdown and plain text.
func TestReportsKinds(t *testing.T) {
	c, err := eval.Load("reports")
	require.NoError(t, err)
	kinds := map[string]int{}
	formats := map[document.Format]int{}
	for _, d := range c.Documents {
		kinds[strings.SplitN(d.ID, "-", 2)[0]]++
		formats[d.Format]++
		assert.NotEmpty(t, d.Title, d.ID)
	}
	for _, k := range []string{"alder", "halvorsen", "corvane", "tessaly", "pelham", "parcelwise", "quillon"} {
		assert.GreaterOrEqual(t, kinds[k], 2, k)
	}
	assert.Positive(t, formats[document.Text])
	assert.Positive(t, formats[document.Markdown])
	asked := map[string]bool{}
	for _, q := range c.Questions {
		asked[q.DocID] = true
	}
	assert.Len(t, asked, len(c.Documents), "every document has a question")
}

func TestNewCorpusErrors(t *testing.T) {
	docs := []eval.Document{
		{ID: "a", Text: "The pump failed at noon. The pump failed again."},
		{ID: "b", Text: "The valve held. The pump failed at noon."},
	}
	tests := []struct {
		name string
		docs []eval.Document
		q    eval.Question
	}{
		{"answer twice in its document", docs[:1], eval.Question{ID: "q", DocID: "a", Text: "?", Answer: "The pump failed"}},
		{"answer in another document", docs, eval.Question{ID: "q", DocID: "a", Text: "?", Answer: "The pump failed at noon."}},
		{"answer absent", docs, eval.Question{ID: "q", DocID: "b", Text: "?", Answer: "The gate"}},
		{"answer with surrounding space", docs, eval.Question{ID: "q", DocID: "b", Text: "?", Answer: "The valve held. "}},
		{"empty answer", docs, eval.Question{ID: "q", DocID: "b", Text: "?"}},
		{"unknown document", docs, eval.Question{ID: "q", DocID: "c", Text: "?", Answer: "The valve held."}},
		{"no question text", docs, eval.Question{ID: "q", DocID: "b", Text: " ", Answer: "The valve held."}},
		{"no ID", docs, eval.Question{DocID: "b", Text: "?", Answer: "The valve held."}},
		{"empty document", []eval.Document{{ID: "a", Text: " \n"}}, eval.Question{ID: "q", DocID: "a", Text: "?", Answer: "x"}},
		{"invalid UTF-8", []eval.Document{{ID: "a", Text: "ok \xff"}}, eval.Question{ID: "q", DocID: "a", Text: "?", Answer: "ok"}},
		{"duplicate document", []eval.Document{docs[1], docs[1]}, eval.Question{ID: "q", DocID: "b", Text: "?", Answer: "The valve held."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := eval.NewCorpus("t", tt.docs, []eval.Question{tt.q})
			require.ErrorIs(t, err, eval.ErrCorpus)
		})
	}
}

func TestNewCorpusSpans(t *testing.T) {
	docs := []eval.Document{{ID: "a", Text: "Héllo. The valve held."}, {ID: "b", Text: "Other."}}
	c, err := eval.NewCorpus("t", docs, []eval.Question{{ID: "q", DocID: "a", Text: "?", Answer: "The valve held."}})
	require.NoError(t, err)
	assert.Equal(t, eval.Span{DocID: "a", Start: 8, End: 23}, c.Questions[0].Gold())
}

func TestLoadDir(t *testing.T) {
	fsys := fstest.MapFS{
		"c/one.md":         {Data: []byte("# Pump manual\n\nThe pump runs at 40 litres a minute.\n")},
		"c/two.txt":        {Data: []byte("\n\nValve notes\n\nThe valve opens at 3 bar.\n")},
		"c/ignored.csv":    {Data: []byte("x")},
		"c/questions.json": {Data: []byte(`[{"id":"q1","doc":"two","question":"When does the valve open?","answer":"The valve opens at 3 bar."}]`)},
	}
	c, err := eval.LoadDir(fsys, "c")
	require.NoError(t, err)
	assert.Equal(t, "c", c.Name)
	require.Len(t, c.Documents, 2)
	one, _ := c.Document("one")
	two, _ := c.Document("two")
	assert.Equal(t, eval.Document{ID: "one", Title: "Pump manual", Text: "# Pump manual\n\nThe pump runs at 40 litres a minute.\n", Format: document.Markdown}, one)
	assert.Equal(t, "Valve notes", two.Title)
	assert.Equal(t, document.Text, two.Format)
	assert.Equal(t, 15, c.Questions[0].Start)

	for name, fsys := range map[string]fstest.MapFS{
		"no directory":    {},
		"no questions":    {"c/one.md": {Data: []byte("x")}},
		"bad JSON":        {"c/one.md": {Data: []byte("x")}, "c/questions.json": {Data: []byte("[{")}},
		"empty questions": {"c/one.md": {Data: []byte("x")}, "c/questions.json": {Data: []byte("[]")}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := eval.LoadDir(fsys, "c")
			require.ErrorIs(t, err, eval.ErrCorpus)
		})
	}
}

func TestLoadUnknown(t *testing.T) {
	_, err := eval.Load("no-such-corpus")
	require.ErrorIs(t, err, eval.ErrCorpus)
}

func TestSubset(t *testing.T) {
	c, err := eval.Load("reports")
	require.NoError(t, err)
	assert.Len(t, c.Subset(3).Questions, 3)
	assert.Len(t, c.Subset(0).Questions, len(c.Questions))
	assert.Len(t, c.Subset(1000).Questions, len(c.Questions))
	assert.Len(t, c.Subset(3).Documents, len(c.Documents))
}
