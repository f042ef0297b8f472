package budget_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount/tokentest"
)

// spanOf returns the span of sub in text, which must hold it.
func spanOf(tb testing.TB, text, sub string) segment.Span {
	tb.Helper()
	i := strings.Index(text, sub)
	require.GreaterOrEqual(tb, i, 0, "%q not in the text", sub)
	return segment.Span{Start: i, End: i + len(sub)}
}

// assembleOne assembles one section of one item under budget, counting
// words, and returns the item's kept text.
func assembleOne(t *testing.T, it budget.Item, strategy budget.Strategy, maxTokens int) string {
	t.Helper()
	a := newAssembler(t, budget.Config{Tokenizer: tokentest.Words{}, Limit: 10000})
	res, err := a.Assemble(budget.Section{Name: "s", MaxTokens: maxTokens, Strategy: strategy, Cut: budget.CutEnd, Items: []budget.Item{it}})
	require.NoError(t, err)
	require.Equal(t, tokentest.Words{}.Count(res.Text), res.Tokens)
	require.LessOrEqual(t, res.Tokens, maxTokens)
	return res.Sections[0].Items[0].Text
}

func TestKeepCuts(t *testing.T) {
	const text = "Title of the report.\n\nOne two three. Four five six. The answer is here. Seven eight nine. Ten eleven twelve.\n\nLast paragraph ends it."
	tests := []struct {
		name     string
		keep     []string // the protected spans, most important first
		budget   int      // in words ([…] is one)
		strategy budget.Strategy
		want     string
	}{
		{name: "the hit and its neighbours, marked before and after", keep: []string{"answer is here"}, budget: 14,
			want: "[…] Four five six. The answer is here. Seven eight nine. […]"},
		{name: "the hit alone", keep: []string{"answer is here"}, budget: 6,
			want: "[…] The answer is here. […]"},
		{name: "a cut inside the hit's sentence keeps its words", keep: []string{"answer"}, budget: 4,
			want: "[…] answer is […]"},
		{name: "two hits: a marker between them", keep: []string{"answer is here", "Title of the report."}, budget: 12,
			want: "Title of the report.\n\n[…] The answer is here. […]"},
		{name: "the second hit goes before the first", keep: []string{"Last paragraph", "answer is here"}, budget: 7,
			want: "[…]\n\nLast paragraph ends it."},
		{name: "the strategy's side does not matter", keep: []string{"answer is here"}, budget: 6, strategy: budget.TruncateStart,
			want: "[…] The answer is here. […]"},
		{name: "a hit's sentences nearest the first span go first", keep: []string{"Seven eight nine.", "One two three. Four five six. The answer is here. Seven eight nine. Ten eleven twelve."}, budget: 9,
			want: "[…] The answer is here. Seven eight nine. […]"},
		{name: "without spans, the start is kept", budget: 6,
			want: "Title of the report. […]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			it := budget.Item{Text: text}
			for _, k := range tt.keep {
				it.Keep = append(it.Keep, spanOf(t, text, k))
			}
			require.Equal(t, tt.want, assembleOne(t, it, tt.strategy, tt.budget))
		})
	}
}

func TestKeepInvalid(t *testing.T) {
	a := newAssembler(t, budget.Config{Tokenizer: tokentest.Words{}, Limit: 100})
	for _, sp := range []segment.Span{{Start: -1, End: 2}, {Start: 3, End: 3}, {Start: 4, End: 2}, {Start: 0, End: 6}} {
		t.Run(fmt.Sprint(sp), func(t *testing.T) {
			_, err := a.Assemble(budget.Section{Name: "s", Items: []budget.Item{{Text: "hello", Keep: []segment.Span{{Start: 0, End: 1}, sp}}}})
			require.ErrorIs(t, err, budget.ErrInvalid)
			require.ErrorContains(t, err, "Keep span 1")
		})
	}
}

// TestKeepProperties checks, on random texts, spans and budgets, that a
// cut item keeps its first span whole whenever it keeps any other
// sentence, that the pieces it keeps are the item's text in order, and
// that counts stay exact.
func TestKeepProperties(t *testing.T) {
	f := newFixture(t)
	rng := rand.New(rand.NewPCG(5, 6))
	n := 400
	if testing.Short() {
		n = 80
	}
	for i := range n {
		var b strings.Builder
		for j := 2 + rng.IntN(12); j > 0; j-- {
			b.WriteString(f.sentences[rng.IntN(len(f.sentences))])
			b.WriteString([]string{" ", "\n", "\n\n"}[rng.IntN(3)])
		}
		text := b.String()
		var keep []segment.Span
		for j := 1 + rng.IntN(3); j > 0; j-- {
			s := rng.IntN(len(text) - 1)
			keep = append(keep, segment.Span{Start: s, End: s + 1 + rng.IntN(min(80, len(text)-s))})
		}
		tok := f.tokenizers[rng.IntN(len(f.tokenizers))]
		maxTokens := 1 + rng.IntN(tok.Count(text)+5)
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			a := newAssembler(t, budget.Config{Tokenizer: tok, Limit: 100000})
			it := budget.Item{Text: text, Keep: keep}
			res, err := a.Assemble(budget.Section{Name: "s", MaxTokens: maxTokens, Items: []budget.Item{it}})
			require.NoError(t, err)
			require.Equal(t, tok.Count(res.Text), res.Tokens)
			require.LessOrEqual(t, res.Tokens, maxTokens)
			r := res.Sections[0].Items[0]
			if r.Status != budget.Truncated {
				return
			}
			pieces := strings.Split(r.Text, budget.DefaultMarker)
			at := 0
			for _, p := range pieces {
				p = strings.TrimSpace(p)
				k := strings.Index(text[at:], p)
				require.GreaterOrEqual(t, k, 0, "kept %q is not the text in order", p)
				at += k + len(p)
			}
			first := keep[0]
			for _, s := range segment.Sentences(text) {
				overlaps := s.Start < first.End && first.Start < s.End
				if !overlaps && strings.Contains(r.Text, text[s.Start:s.End]) && !strings.Contains(text[first.Start:first.End], text[s.Start:s.End]) {
					for _, h := range segment.Sentences(text) {
						if h.Start < first.End && first.Start < h.End {
							require.Contains(t, r.Text, text[h.Start:h.End], "kept another sentence but not the first span's")
						}
					}
					return
				}
			}
		})
	}
}
