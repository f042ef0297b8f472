package eval_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/benchmarks/eval"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
)

const (
	pumpText  = "# Pump manual\n\nThe pump runs at forty litres a minute.\n\n## Maintenance\n\nReplace the seals every spring."
	valveText = "Fitting notes\n\nThe valve opens at three bar.\n\nCheck the gauge weekly."
)

func tinyCorpus(t *testing.T) *eval.Corpus {
	t.Helper()
	c, err := eval.NewCorpus("tiny", []eval.Document{
		eval.NewDocument("pump", pumpText, document.Markdown),
		eval.NewDocument("valve", valveText, document.Text),
	}, []eval.Question{
		{ID: "q1", DocID: "pump", Text: "When are the seals replaced?", Answer: "Replace the seals every spring."},
		{ID: "q2", DocID: "valve", Text: "At what pressure does the valve open?", Answer: "The valve opens at three bar."},
	})
	require.NoError(t, err)
	return c
}

// paragraphs makes each paragraph a unit.
var paragraphs = eval.Chunks("paragraphs", func(doc eval.Document) ([]segment.Span, error) {
	return segment.Paragraphs(doc.Text), nil
})

// keywords embeds a text as which of a few words it holds, so that the
// nearest units are known in advance. It records what it embeds.
type keywords struct {
	mu      sync.Mutex
	words   []string
	texts   []string
	batches []int
	fail    error
	short   bool
}

func (k *keywords) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if k.fail != nil {
		return nil, k.fail
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.texts = append(k.texts, texts...)
	k.batches = append(k.batches, len(texts))
	out := make([][]float32, len(texts))
	for i, text := range texts {
		v := make([]float32, len(k.words)+1)
		v[len(k.words)] = 0.1 // never a zero vector
		for j, w := range k.words {
			if strings.Contains(strings.ToLower(text), w) {
				v[j] = 1
			}
		}
		out[i] = v
	}
	if k.short {
		out = out[:len(out)-1]
	}
	return out, nil
}

func newEvaluator(t *testing.T, cfg eval.Config) *eval.Evaluator {
	t.Helper()
	if cfg.Embedder == nil {
		cfg.Embedder = &keywords{words: []string{"seals", "valve", "pump", "gauge"}}
	}
	ev, err := eval.New(cfg)
	require.NoError(t, err)
	return ev
}

func TestEvaluateVectorSearch(t *testing.T) {
	c := tinyCorpus(t)
	ev := newEvaluator(t, eval.Config{K: 2})
	r, err := ev.Evaluate(context.Background(), c, paragraphs)
	require.NoError(t, err)
	assert.Equal(t, "tiny", r.Corpus)
	assert.Equal(t, "paragraphs", r.Method)
	assert.Equal(t, 2, r.K)
	assert.Equal(t, 7, r.Units) // 4 paragraphs of pump (headings included), 3 of valve
	require.Len(t, r.PerQuestion, 2)
	for _, q := range r.PerQuestion {
		assert.Equal(t, 1, q.Rank, q.ID)
		assert.InDelta(t, 1, q.Omega, 1e-12, q.ID) // each answer is a paragraph
		assert.InDelta(t, 1, q.Recall, 1e-12, q.ID)
		assert.False(t, q.Split, q.ID)
	}
	assert.InDelta(t, 1, r.HitAt1, 1e-12)
	assert.InDelta(t, 1, r.MRR, 1e-12)
	assert.Zero(t, r.Failures)
}

// TestEvaluateHooks checks what the harness hands a method's Search and
// Retrieve, and that only k retrieved spans are scored.
func TestEvaluateHooks(t *testing.T) {
	c := tinyCorpus(t)
	emb := &keywords{words: []string{"seals", "valve"}}
	ev := newEvaluator(t, eval.Config{Embedder: emb, K: 2})
	var queries []eval.Query
	m := paragraphs
	m.Name = "hooks"
	m.Search = func(ctx context.Context, ix *eval.Index, q eval.Query, k int) ([]vectorstore.Hit, error) {
		queries = append(queries, q)
		assert.Equal(t, 2, k)
		return ix.Store.Query(ctx, q.Vector, 7, vectorstore.Filter{}) // more than k
	}
	m.Retrieve = func(_ context.Context, ix *eval.Index, hits []vectorstore.Hit) ([]eval.Span, error) {
		assert.Len(t, hits, 7)
		// The answer of q2 is retrieved third: not within k = 2.
		if strings.Contains(hits[0].Text, "valve opens") {
			return []eval.Span{{DocID: "pump", Start: 0, End: 13}, {DocID: "valve", Start: 0, End: 13}, {DocID: hits[0].DocID, Start: hits[0].Start, End: hits[0].End}}, nil
		}
		units := ix.Units(hits[0].DocID)
		require.NotEmpty(t, units)
		return []eval.Span{{DocID: hits[0].DocID, Start: hits[0].Start, End: hits[0].End}}, nil
	}
	r, err := ev.Evaluate(context.Background(), c, m)
	require.NoError(t, err)
	require.Len(t, queries, 2)
	assert.Equal(t, "When are the seals replaced?", queries[0].Text)
	assert.Len(t, queries[0].Vector, 3)
	assert.Equal(t, 1, r.PerQuestion[0].Rank)
	assert.Equal(t, 0, r.PerQuestion[1].Rank)
	assert.Equal(t, 1, r.Failures)
	assert.InDelta(t, 0.5, r.HitAtK, 1e-12)
}

// TestEvaluateEmbedText: a unit's Embed text is what is embedded, its own
// span what is stored and retrieved.
func TestEvaluateEmbedText(t *testing.T) {
	c := tinyCorpus(t)
	emb := &keywords{words: []string{"seals", "valve"}}
	ev := newEvaluator(t, eval.Config{Embedder: emb})
	m := eval.Method{Name: "headed", Units: func(_ context.Context, doc eval.Document) ([]eval.Unit, error) {
		var units []eval.Unit
		for _, p := range segment.Paragraphs(doc.Text) {
			units = append(units, eval.Unit{Start: p.Start, End: p.End, Embed: doc.Title + ": " + doc.Text[p.Start:p.End], Metadata: map[string]string{"title": doc.Title}})
		}
		return units, nil
	}}
	m.Search = func(ctx context.Context, ix *eval.Index, q eval.Query, k int) ([]vectorstore.Hit, error) {
		rec, err := ix.Store.Get(ctx, "valve#1")
		require.NoError(t, err)
		assert.Equal(t, "The valve opens at three bar.", rec.Text)
		assert.Equal(t, 15, rec.Start)
		assert.Equal(t, 1, rec.Index)
		assert.Equal(t, "Fitting notes", rec.Metadata["title"])
		return ix.Store.Query(ctx, q.Vector, k, vectorstore.Filter{})
	}
	_, err := ev.Evaluate(context.Background(), c, m)
	require.NoError(t, err)
	assert.Contains(t, emb.texts, "Fitting notes: Check the gauge weekly.")
	assert.NotContains(t, emb.texts, "Check the gauge weekly.")
}

func TestEvaluateBatches(t *testing.T) {
	emb := &keywords{words: []string{"seals"}}
	ev := newEvaluator(t, eval.Config{Embedder: emb, BatchSize: 3})
	_, err := ev.Evaluate(context.Background(), tinyCorpus(t), paragraphs)
	require.NoError(t, err)
	assert.Equal(t, []int{3, 3, 1, 2}, emb.batches) // 7 units, then 2 questions
}

func TestEvaluateErrors(t *testing.T) {
	errBoom := errors.New("boom")
	unitsOf := func(units ...eval.Unit) func(context.Context, eval.Document) ([]eval.Unit, error) {
		return func(context.Context, eval.Document) ([]eval.Unit, error) { return units, nil }
	}
	withSearch := func(f func(context.Context, *eval.Index, eval.Query, int) ([]vectorstore.Hit, error)) eval.Method {
		m := paragraphs
		m.Search = f
		return m
	}
	withRetrieve := func(f func(context.Context, *eval.Index, []vectorstore.Hit) ([]eval.Span, error)) eval.Method {
		m := paragraphs
		m.Retrieve = f
		return m
	}
	tests := []struct {
		name   string
		m      eval.Method
		emb    vectorstore.Embedder
		cancel bool
		want   error
	}{
		{"no name", eval.Method{Units: paragraphs.Units}, nil, false, eval.ErrMethod},
		{"no Units", eval.Method{Name: "x"}, nil, false, eval.ErrMethod},
		{"Units fails", eval.Method{Name: "x", Units: func(context.Context, eval.Document) ([]eval.Unit, error) { return nil, errBoom }}, nil, false, errBoom},
		{"unit past the end", eval.Method{Name: "x", Units: unitsOf(eval.Unit{Start: 0, End: 1000})}, nil, false, eval.ErrMethod},
		{"empty unit", eval.Method{Name: "x", Units: unitsOf(eval.Unit{Start: 3, End: 3})}, nil, false, eval.ErrMethod},
		{"nothing to embed", eval.Method{Name: "x", Units: unitsOf(eval.Unit{Start: 0, End: 1, Embed: " "})}, nil, false, eval.ErrMethod},
		{"Search fails", withSearch(func(context.Context, *eval.Index, eval.Query, int) ([]vectorstore.Hit, error) { return nil, errBoom }), nil, false, errBoom},
		{"Retrieve fails", withRetrieve(func(context.Context, *eval.Index, []vectorstore.Hit) ([]eval.Span, error) { return nil, errBoom }), nil, false, errBoom},
		{"span of an unknown document", withRetrieve(func(context.Context, *eval.Index, []vectorstore.Hit) ([]eval.Span, error) {
			return []eval.Span{{DocID: "nope", Start: 0, End: 1}}, nil
		}), nil, false, eval.ErrMethod},
		{"Embedder fails", paragraphs, &keywords{fail: errBoom}, false, eval.ErrEmbed},
		{"Embedder returns too few vectors", paragraphs, &keywords{words: []string{"a"}, short: true}, false, eval.ErrEmbed},
		{"cancelled", paragraphs, nil, true, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := newEvaluator(t, eval.Config{Embedder: tt.emb})
			ctx, cancel := context.WithCancel(context.Background())
			if tt.cancel {
				cancel()
			}
			defer cancel()
			_, err := ev.Evaluate(ctx, tinyCorpus(t), tt.m)
			require.ErrorIs(t, err, tt.want)
		})
	}
	_, err := newEvaluator(t, eval.Config{}).Evaluate(context.Background(), nil, paragraphs)
	require.ErrorIs(t, err, eval.ErrCorpus)
}

func TestRunKeepsGoing(t *testing.T) {
	c := tinyCorpus(t)
	broken := eval.Method{Name: "broken", Units: func(context.Context, eval.Document) ([]eval.Unit, error) { return nil, errors.New("boom") }}
	results := newEvaluator(t, eval.Config{}).Run(context.Background(), []*eval.Corpus{c, c.Subset(1)}, []eval.Method{broken, paragraphs})
	require.Len(t, results, 4)
	assert.Error(t, results[0].Err)
	assert.Equal(t, "broken", results[0].Method)
	assert.NoError(t, results[1].Err)
	assert.Equal(t, 2, results[1].Questions)
	assert.Equal(t, 1, results[3].Questions)
}

func TestConfig(t *testing.T) {
	_, err := eval.New(eval.Config{K: -1})
	require.ErrorIs(t, err, eval.ErrConfig)
	_, err = eval.New(eval.Config{BatchSize: -1})
	require.ErrorIs(t, err, eval.ErrConfig)

	var zero eval.Evaluator
	cfg := zero.Config()
	assert.Equal(t, eval.DefaultK, cfg.K)
	assert.Equal(t, 64, cfg.BatchSize)
	assert.IsType(t, &lexical.Embedder{}, cfg.Embedder)
	assert.Equal(t, 2, cfg.Tokenizer.Count("hello world"))
	// The zero Evaluator evaluates with the defaults.
	r, err := zero.Evaluate(context.Background(), tinyCorpus(t), paragraphs)
	require.NoError(t, err)
	assert.Equal(t, eval.DefaultK, r.K)
}

// TestStandard runs the default configurations on a few questions of each
// built-in corpus and checks what must hold whatever the figures.
func TestStandard(t *testing.T) {
	tok, err := tokencount.Encoding(tokencount.Cl100kBase)
	require.NoError(t, err)
	methods := eval.Standard(tok, []int{64, 256})
	var names []string
	for _, m := range methods {
		names = append(names, m.Name)
	}
	assert.Equal(t, []string{"greedy-64", "balanced-64", "greedy-256", "balanced-256"}, names)
	var corpora []*eval.Corpus
	for _, name := range eval.Corpora() {
		c, err := eval.Load(name)
		require.NoError(t, err)
		corpora = append(corpora, c.Subset(8))
	}
	units := map[string]int{}
	for _, r := range newEvaluator(t, eval.Config{Embedder: &lexical.Embedder{}}).Run(context.Background(), corpora, methods) {
		require.NoError(t, r.Err, r.Method)
		assert.Equal(t, 8, r.Questions)
		assert.Positive(t, r.Units)
		units[r.Corpus+"/"+r.Method] = r.Units
		for _, x := range []float64{r.HitAt1, r.HitAtK, r.MRR, r.Recall, r.Precision, r.IoU, r.Omega} {
			assert.True(t, 0 <= x && x <= 1, "%s/%s: %v", r.Corpus, r.Method, x)
		}
		assert.LessOrEqual(t, r.HitAt1, r.HitAtK)
		assert.Positive(t, r.Omega)
	}
	for _, c := range eval.Corpora() {
		// Balanced makes no more chunks than greedy at the same size.
		assert.LessOrEqual(t, units[c+"/balanced-64"], units[c+"/greedy-64"], c)
		assert.Less(t, units[c+"/greedy-256"], units[c+"/greedy-64"], c)
	}
}

// TestEvaluateCancelledBetweenQuestions: a Search that ignores its
// context still stops the evaluation at the next question.
func TestEvaluateCancelledBetweenQuestions(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	searches := 0
	m := paragraphs
	m.Search = func(context.Context, *eval.Index, eval.Query, int) ([]vectorstore.Hit, error) {
		searches++
		cancel()
		return nil, nil
	}
	_, err := newEvaluator(t, eval.Config{}).Evaluate(ctx, tinyCorpus(t), m)
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 1, searches)
}
