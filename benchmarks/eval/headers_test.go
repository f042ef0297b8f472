package eval_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/benchmarks/eval"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/tokencount"
)

// Two manuals whose maintenance sections do not name their subject: only
// the title tells the seals of the pump from those of the valve.
func manuals(t *testing.T) *eval.Corpus {
	t.Helper()
	const pump = "# Pump manual\n\nThe pump is installed in the basement of the north building.\n\n## Maintenance\n\nReplace the seals every spring."
	const valve = "# Valve manual\n\nThe valve is fitted on the main water line by the gate.\n\n## Maintenance\n\nReplace the seals every autumn."
	c, err := eval.NewCorpus("manuals", []eval.Document{
		eval.NewDocument("pump", pump, document.Markdown),
		eval.NewDocument("valve", valve, document.Markdown),
	}, []eval.Question{
		{ID: "q1", DocID: "pump", Text: "When are the pump seals replaced?", Answer: "Replace the seals every spring."},
		{ID: "q2", DocID: "valve", Text: "When are the valve seals replaced?", Answer: "Replace the seals every autumn."},
	})
	require.NoError(t, err)
	return c
}

func TestHeaders(t *testing.T) {
	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	require.NoError(t, err)
	c := manuals(t)
	plain := eval.Balanced(tok, 12)
	headers, err := eval.Headers(tok, 12, false)
	require.NoError(t, err)
	summary, err := eval.Headers(tok, 12, true)
	require.NoError(t, err)
	assert.Equal(t, "balanced-12+headers", headers.Name)
	assert.Equal(t, "balanced-12+headers+summary", summary.Name)

	results := map[string]eval.Result{}
	embedded := map[string][]string{}
	for _, m := range []eval.Method{plain, headers, summary} {
		emb := &keywords{words: []string{"pump", "valve", "seals", "replace"}}
		r, err := newEvaluator(t, eval.Config{Embedder: emb, K: 1}).Evaluate(context.Background(), c, m)
		require.NoError(t, err, m.Name)
		results[m.Name], embedded[m.Name] = r, emb.texts
	}
	assert.Equal(t, results[plain.Name].Units, results[headers.Name].Units, "the same chunks")
	assert.Less(t, results[plain.Name].HitAt1, 1.0, "without its title a maintenance section is either manual's")
	assert.InDelta(t, 1.0, results[headers.Name].HitAt1, 1e-12)
	assert.InDelta(t, 1.0, results[summary.Name].HitAt1, 1e-12)
	assert.InDelta(t, results[plain.Name].Omega, results[headers.Name].Omega, 1e-12, "scored on the chunks alone")

	for _, text := range embedded[headers.Name][:results[headers.Name].Units] {
		assert.True(t, strings.HasPrefix(text, "Pump manual") || strings.HasPrefix(text, "Valve manual"), "%q", text)
	}
	assert.Contains(t, strings.Join(embedded[summary.Name], "\n"), "The valve is fitted on the main water line by the gate.",
		"the extractive summary: the document's first informative sentence")
}

func TestTechniques(t *testing.T) {
	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	require.NoError(t, err)
	ms, err := eval.Techniques(tok, []int{64, 256}, 5)
	require.NoError(t, err)
	var names []string
	for _, m := range ms {
		names = append(names, m.Name)
	}
	var want []string
	for _, n := range []string{"64", "256"} {
		want = append(want, "greedy-"+n, "balanced-"+n, "balanced-"+n+"+headers", "balanced-"+n+"+headers+summary",
			"balanced-"+n+"+keywords", "balanced-"+n+"+hybrid", "balanced-"+n+"+headers+summary+hybrid",
			"windows-"+n, "segments-balanced-"+n, "segments-recall-"+n, "windows-"+n+"+headers+summary")
	}
	assert.Equal(t, want, names)
}

// Sentence windows under headers: the sentence that answers is found by
// its document's title, which it does not hold.
func TestHeaderWindows(t *testing.T) {
	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	require.NoError(t, err)
	c := manuals(t)
	hw, err := eval.HeaderWindows(tok, 16)
	require.NoError(t, err)
	assert.Equal(t, "windows-16+headers+summary", hw.Name)
	results := map[string]eval.Result{}
	for _, m := range []eval.Method{eval.Windows(tok, 16), hw} {
		emb := &keywords{words: []string{"pump", "valve", "seals", "replace"}}
		r, err := newEvaluator(t, eval.Config{Embedder: emb, K: 1}).Evaluate(context.Background(), c, m)
		require.NoError(t, err, m.Name)
		results[m.Name] = r
		if m.Name == hw.Name {
			for _, text := range emb.texts[:r.Units] {
				assert.True(t, strings.HasPrefix(text, "Pump manual") || strings.HasPrefix(text, "Valve manual"), "%q", text)
			}
		}
	}
	assert.Equal(t, results["windows-16"].Units, results[hw.Name].Units, "the same sentences")
	assert.Less(t, results["windows-16"].HitAt1, 1.0)
	assert.InDelta(t, 1.0, results[hw.Name].HitAt1, 1e-12)
}
