package eval_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/benchmarks/eval"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
	"github.com/ragkit/ragkit/window"
)

// TestWindowMethods runs windows and segments on the built-in corpora and
// checks the budgets: each window within maxTokens, all segments of a
// question within k·maxTokens, by exact count of the document's text.
func TestWindowMethods(t *testing.T) {
	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	require.NoError(t, err)
	const k, size = 3, 64
	methods := eval.WindowMethods(tok, []int{size}, k)
	var names []string
	for _, m := range methods {
		names = append(names, m.Name)
	}
	assert.Equal(t, []string{"windows-64", "segments-balanced-64", "segments-recall-64"}, names)
	for _, name := range eval.Corpora() {
		c, err := eval.Load(name)
		require.NoError(t, err)
		c = c.Subset(6)
		for _, m := range methods {
			retrieve := m.Retrieve
			m.Retrieve = func(ctx context.Context, ix *eval.Index, hits []vectorstore.Hit) ([]eval.Span, error) {
				spans, err := retrieve(ctx, ix, hits)
				require.NoError(t, err)
				if m.Name == "windows-64" {
					require.NotEmpty(t, spans)
				}
				total := 0
				for _, sp := range spans {
					doc, ok := c.Document(sp.DocID)
					require.True(t, ok)
					n := tok.Count(doc.Text[sp.Start:sp.End])
					if m.Name == "windows-64" {
						assert.LessOrEqual(t, n, size, "%s %v", m.Name, sp)
					}
					total += n
				}
				if m.Name != "windows-64" {
					assert.LessOrEqual(t, total, k*size, m.Name)
				}
				return spans, nil
			}
			r, err := newEvaluator(t, eval.Config{Embedder: &lexical.Embedder{}, K: k}).Evaluate(context.Background(), c, m)
			require.NoError(t, err, m.Name)
			assert.Positive(t, r.Omega, m.Name)
		}
	}
	assert.Equal(t, "segments-precision-64", eval.Segments(tok, window.Precision, 64, 5).Name)
}
