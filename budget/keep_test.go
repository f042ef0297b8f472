package budget_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
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

// keepCase generates one item with protected spans, a tokenizer and a
// budget from c's choices.
func (f fixture) keepCase(c *chooser) (tokencount.Tokenizer, budget.Item, int) {
	var b strings.Builder
	for j := 2 + c.n(12); j > 0; j-- {
		if c.n(6) == 0 {
			b.WriteString(pick(c, oddities))
		} else {
			b.WriteString(f.sentences[c.n(len(f.sentences))])
		}
		b.WriteString(pick(c, []string{" ", "\n", "\n\n"}))
	}
	text := b.String()
	var keep []segment.Span
	for j := 1 + c.n(3); j > 0; j-- {
		s := c.n(len(text) - 1)
		keep = append(keep, segment.Span{Start: s, End: s + 1 + c.n(min(80, len(text)-s))})
	}
	tok := pick(c, f.tokenizers)
	return tok, budget.Item{Text: text, Keep: keep}, 1 + c.n(tok.Count(text)+5)
}

// checkKeep checks, for one item with protected spans cut to maxTokens,
// that counts stay exact, that the pieces it keeps are the item's text in
// order, that the spans reported kept are in its text, and that it keeps
// its first span's sentences whenever it keeps any other sentence.
func checkKeep(t *testing.T, tok tokencount.Tokenizer, it budget.Item, maxTokens int) {
	t.Helper()
	a := newAssembler(t, budget.Config{Tokenizer: tok, Limit: 1 << 20})
	res, err := a.Assemble(budget.Section{Name: "s", MaxTokens: maxTokens, Items: []budget.Item{it}})
	require.NoError(t, err)
	require.Equal(t, tok.Count(res.Text), res.Tokens)
	require.LessOrEqual(t, res.Tokens, maxTokens)
	r := res.Sections[0].Items[0]
	require.Len(t, r.SpansKept, len(it.Keep))
	if r.Status != budget.Truncated {
		return
	}
	text, keep := it.Text, it.Keep
	var kept []segment.Span // where the pieces between markers are in text
	at := 0
	for _, p := range strings.Split(r.Text, budget.DefaultMarker) {
		p = strings.TrimSpace(p)
		k := strings.Index(text[at:], p)
		require.GreaterOrEqual(t, k, 0, "kept %q is not the text in order", p)
		kept = append(kept, segment.Span{Start: at + k, End: at + k + len(p)})
		at += k + len(p)
	}
	for j, k := range keep {
		if r.SpansKept[j] {
			require.Contains(t, r.Text, strings.TrimSpace(text[k.Start:k.End]), "span %d reported kept", j)
		}
	}
	// A sentence is kept when a piece holds it; sentences whose text
	// occurs twice are left out, as a piece may be placed at the wrong one.
	isKept := func(s segment.Span) bool {
		for _, k := range kept {
			if k.Start <= s.Start && s.End <= k.End {
				return true
			}
		}
		return false
	}
	first := keep[0]
	var firsts, others []segment.Span
	for _, s := range segment.Sentences(text) {
		if strings.Count(text, text[s.Start:s.End]) > 1 {
			continue
		}
		if s.Start < first.End && first.Start < s.End {
			firsts = append(firsts, s)
		} else {
			others = append(others, s)
		}
	}
	if slices.ContainsFunc(others, isKept) {
		for _, h := range firsts {
			require.True(t, isKept(h), "kept another sentence but not the first span's %q", text[h.Start:h.End])
		}
	}
}

func TestKeepProperties(t *testing.T) {
	f := newFixture(t)
	rng := rand.New(rand.NewPCG(5, 6))
	n := 400
	if testing.Short() {
		n = 80
	}
	for i := range n {
		data := make([]byte, 64)
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		tok, it, maxTokens := f.keepCase(&chooser{data})
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkKeep(t, tok, it, maxTokens) })
	}
}

func FuzzKeep(f *testing.F) {
	fx := newFixture(f)
	f.Add([]byte{})
	f.Add([]byte("\x05\x40\x01\x02\x03\x01\x00\x02\x01\x04\x02\x03\x01\x05\x07\x09\x11\x13\x17\x19"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tok, it, maxTokens := fx.keepCase(&chooser{data})
		checkKeep(t, tok, it, maxTokens)
	})
}

// The report says which protected spans survived: whether a passage's
// hits are still in the prompt.
func TestSpansKept(t *testing.T) {
	const text = "One two three. The answer is here. Four five six. Another hit there. Seven eight nine."
	it := budget.Item{Text: text, Keep: []segment.Span{spanOf(t, text, "answer is here"), spanOf(t, text, "Another hit there.")}}
	a := newAssembler(t, budget.Config{Tokenizer: tokentest.Words{}, Limit: 10000})
	for _, tt := range []struct {
		name   string
		budget int
		want   []bool
	}{
		{"whole", 100, []bool{true, true}},
		{"both hits", 11, []bool{true, true}},
		{"the first hit only", 7, []bool{true, false}},
		{"not even the first hit whole", 3, []bool{false, false}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := a.Assemble(budget.Section{Name: "s", MaxTokens: tt.budget, Items: []budget.Item{it}})
			require.NoError(t, err)
			require.Equal(t, tt.want, res.Sections[0].Items[0].SpansKept, "kept %q", res.Sections[0].Items[0].Text)
		})
	}
	res, err := a.Assemble(budget.Section{Name: "s", MaxTokens: 1, Strategy: budget.DropLowestRank, Items: []budget.Item{it}})
	require.NoError(t, err)
	require.Equal(t, budget.Dropped, res.Sections[0].Items[0].Status)
	require.Equal(t, []bool{false, false}, res.Sections[0].Items[0].SpansKept)
}

// Protected spans cost allocations for the item that is cut, not for the
// candidates the budget drops.
func TestKeepAllocsDoNotGrowWithDroppedCandidates(t *testing.T) {
	tok := cl100k(t)
	paras := paragraphs(t, tok, 50, 300)
	a := newAssembler(t, budget.Config{Tokenizer: tok, Limit: 8000, Reserve: 1000})
	allocs := func(n int) float64 {
		items := make([]budget.Item, n)
		for i, p := range paras[:n] {
			sents := segment.Sentences(p)
			items[i] = budget.Item{Text: p, Rank: -float64(i), Keep: []segment.Span{sents[len(sents)/2]}}
		}
		sec := budget.Section{Name: "retrieval", MaxTokens: 550, Strategy: budget.DropLowestRank, Cut: budget.CutEnd, Items: items}
		return testing.AllocsPerRun(5, func() {
			if _, err := a.Assemble(sec); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, large := allocs(40), allocs(400)
	assert.LessOrEqual(t, large, small+10, "allocations for 400 candidates vs 40")
}
