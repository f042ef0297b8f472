package budget_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/tokencount/tokentest"
)

// kept returns the texts of the items a section kept, in order.
func kept(r budget.SectionReport) []string {
	var out []string
	for _, it := range r.Items {
		if it.Status != budget.Dropped {
			out = append(out, it.Text)
		}
	}
	return out
}

func item(text string) budget.Item { return budget.Item{Text: text} }

func TestStrategies(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name    string
		section budget.Section
		want    []string
		status  budget.Status
	}{{
		name: "lowest rank dropped first, order kept",
		section: budget.Section{MaxTokens: 6, Strategy: budget.DropLowestRank, Items: []budget.Item{
			{Text: "a1 a2 a3", Rank: 0.2}, {Text: "b1 b2 b3", Rank: 0.9}, {Text: "c1 c2 c3", Rank: 0.5}, {Text: "d1", Rank: 0.1},
		}},
		want:   []string{"b1 b2 b3", "c1 c2 c3"},
		status: budget.Truncated,
	}, {
		name: "equal ranks: later dropped first",
		section: budget.Section{MaxTokens: 4, Strategy: budget.DropLowestRank, Items: []budget.Item{
			item("a1 a2"), item("b1 b2"), item("c1 c2"),
		}},
		want:   []string{"a1 a2", "b1 b2"},
		status: budget.Truncated,
	}, {
		name: "no skipping to a smaller item",
		section: budget.Section{MaxTokens: 4, Strategy: budget.DropLowestRank, Items: []budget.Item{
			{Text: "a1 a2 a3", Rank: 3}, {Text: "b1 b2", Rank: 2}, {Text: "c1", Rank: 1},
		}},
		want:   []string{"a1 a2 a3"},
		status: budget.Truncated,
	}, {
		name: "last survivor cut at a sentence",
		section: budget.Section{MaxTokens: 7, Strategy: budget.DropLowestRank, Cut: budget.CutEnd, Items: []budget.Item{
			{Text: "Best chunk here.", Rank: 2}, {Text: "Second one. It goes on. And on.", Rank: 1},
		}},
		want:   []string{"Best chunk here.", "Second one. […]"},
		status: budget.Truncated,
	}, {
		name: "oldest dropped first by time",
		section: budget.Section{MaxTokens: 4, Strategy: budget.DropOldest, Items: []budget.Item{
			{Text: "fact new1", Time: t0.Add(time.Hour)}, {Text: "fact old", Time: t0}, {Text: "fact new2", Time: t0.Add(2 * time.Hour)},
		}},
		want:   []string{"fact new1", "fact new2"},
		status: budget.Truncated,
	}, {
		name: "oldest dropped first by position",
		section: budget.Section{MaxTokens: 4, Strategy: budget.DropOldest, Items: []budget.Item{
			item("turn one"), item("turn two"), item("turn three"),
		}},
		want:   []string{"turn two", "turn three"},
		status: budget.Truncated,
	}, {
		name: "keep newest: history goes first",
		section: budget.Section{MaxTokens: 5, Strategy: budget.KeepNewest, Items: []budget.Item{
			item("old question"), item("old answer"), item("what is new?"),
		}},
		want:   []string{"old answer", "what is new?"},
		status: budget.Truncated,
	}, {
		name: "keep newest: the newest is never cut",
		section: budget.Section{MaxTokens: 3, Strategy: budget.KeepNewest, Cut: budget.CutEnd, Items: []budget.Item{
			item("Old. Older still."), item("One two three four. Five."),
		}},
		want:   nil,
		status: budget.Dropped,
	}, {
		name: "keep newest: older item cut at its start",
		section: budget.Section{MaxTokens: 6, Strategy: budget.KeepNewest, Cut: budget.CutStart, Items: []budget.Item{
			item("First said. Then said. Last said."), item("Now what?"),
		}},
		want:   []string{"[…] Last said.", "Now what?"},
		status: budget.Truncated,
	}, {
		name:    "truncate end at sentences",
		section: budget.Section{MaxTokens: 7, Items: []budget.Item{item("One two three. Four five six. Seven eight nine.")}},
		want:    []string{"One two three. Four five six. […]"},
		status:  budget.Truncated,
	}, {
		name:    "truncate start at sentences",
		section: budget.Section{MaxTokens: 7, Strategy: budget.TruncateStart, Items: []budget.Item{item("One two three. Four five six. Seven eight nine.")}},
		want:    []string{"[…] Four five six. Seven eight nine."},
		status:  budget.Truncated,
	}, {
		name:    "truncate end falls back to words",
		section: budget.Section{MaxTokens: 5, Items: []budget.Item{item("One two three four five six seven. Eight.")}},
		want:    []string{"One two three four […]"},
		status:  budget.Truncated,
	}, {
		name:    "truncate start falls back to words",
		section: budget.Section{MaxTokens: 3, Strategy: budget.TruncateStart, Items: []budget.Item{item("One. Two three four five.")}},
		want:    []string{"[…] four five."},
		status:  budget.Truncated,
	}, {
		name:    "truncate end drops whole items from the end first",
		section: budget.Section{MaxTokens: 4, Items: []budget.Item{item("a1 a2"), item("b1. b2 b3."), item("c1 c2")}},
		want:    []string{"a1 a2", "b1. […]"},
		status:  budget.Truncated,
	}, {
		name:    "no boundary to cut at",
		section: budget.Section{MaxTokens: 1, Items: []budget.Item{item("supercalifragilistic expialidocious")}},
		want:    nil,
		status:  budget.Dropped,
	}, {
		name:    "everything fits",
		section: budget.Section{MaxTokens: 100, Strategy: budget.DropLowestRank, Items: []budget.Item{item("a b"), item("c d")}},
		want:    []string{"a b", "c d"},
		status:  budget.Preserved,
	}, {
		name:    "no budget",
		section: budget.Section{Strategy: budget.DropOldest, Items: []budget.Item{item("a b"), item("c d")}},
		want:    []string{"a b", "c d"},
		status:  budget.Preserved,
	}, {
		name: "groups go together and are ranked by their best member",
		section: budget.Section{MaxTokens: 5, Strategy: budget.DropLowestRank, Items: []budget.Item{
			{Text: "call1 x", Rank: 1, Group: "t1"}, {Text: "other y", Rank: 2}, {Text: "result1 z", Rank: 3, Group: "t1"},
		}},
		want:   []string{"call1 x", "result1 z"},
		status: budget.Truncated,
	}, {
		name: "a group is cut at its last member",
		section: budget.Section{MaxTokens: 8, Strategy: budget.DropOldest, Cut: budget.CutEnd, Items: []budget.Item{
			{Text: "call old", Group: "t1"}, {Text: "Result one. Result two.", Group: "t1"}, {Text: "call new", Group: "t2"}, {Text: "done", Group: "t2"},
		}},
		want:   []string{"call old", "Result one. […]", "call new", "done"},
		status: budget.Truncated,
	}, {
		name: "heading counts against the budget",
		section: budget.Section{MaxTokens: 4, Heading: "Facts:", Strategy: budget.DropOldest, Items: []budget.Item{
			item("f1 f1"), item("f2 f2"),
		}},
		want:   []string{"f2 f2"},
		status: budget.Truncated,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAssembler(t, budget.Config{Tokenizer: tokentest.Words{}, Limit: 1000})
			tt.section.Name = "s"
			res, err := a.Assemble(tt.section)
			require.NoError(t, err)
			r := res.Sections[0]
			assert.Equal(t, tt.want, kept(r))
			assert.Equal(t, tt.status, r.Status)
			assert.Equal(t, tokentest.Words{}.Count(res.Text), res.Tokens)
			if tt.section.MaxTokens > 0 {
				assert.LessOrEqual(t, r.Tokens, tt.section.MaxTokens)
			}
		})
	}
}

func TestCutInsideSentenceWarns(t *testing.T) {
	a := newAssembler(t, budget.Config{Tokenizer: tokentest.Words{}, Limit: 1000})
	res, err := a.Assemble(budget.Section{Name: "s", MaxTokens: 3, Items: []budget.Item{{Text: "One two three four. Five.", ID: "doc"}}})
	require.NoError(t, err)
	assert.Equal(t, "One two […]", res.Text)
	assert.Equal(t, []string{`section "s": item 0 (ID "doc") cut inside a sentence: not even one sentence fit`}, res.Warnings)
}

func TestTemplateAndSeparators(t *testing.T) {
	a := newAssembler(t, budget.Config{Tokenizer: tokentest.Words{}, Limit: 1000, Separator: "\n---\n", Marker: "(cut)"})
	res, err := a.Assemble(
		budget.Section{Name: "a", Heading: "# Docs", Template: "<docs>\n{content}\n</docs>", Separator: "\n", Items: []budget.Item{item("one"), item("two")}},
		budget.Section{Name: "empty"},
		budget.Section{Name: "b", MaxTokens: 3, Items: []budget.Item{item("Three four. Five six.")}},
	)
	require.NoError(t, err)
	want := "<docs>\n# Docs\none\ntwo\n</docs>\n---\nThree four. (cut)"
	require.Equal(t, want, res.Text)
	assert.Equal(t, "<docs>\n# Docs\none\ntwo\n</docs>", res.Text[res.Sections[0].Start:res.Sections[0].End])
	assert.Equal(t, res.Sections[1].Start, res.Sections[1].End)
	assert.Equal(t, "Three four. (cut)", res.Text[res.Sections[2].Start:res.Sections[2].End])
	assert.Equal(t, budget.Preserved, res.Sections[1].Status, "a section without items")
}

func TestBudgetTooSmallForHeading(t *testing.T) {
	a := newAssembler(t, budget.Config{Tokenizer: tokentest.Words{}, Limit: 1000})
	res, err := a.Assemble(budget.Section{Name: "s", MaxTokens: 2, Heading: "A long heading", Items: []budget.Item{item("x")}})
	require.NoError(t, err)
	assert.Equal(t, "", res.Text)
	assert.Equal(t, budget.Dropped, res.Sections[0].Status)
	assert.Contains(t, res.Warnings, `section "s": its heading and template take 3 tokens, more than its budget of 2`)
}

// TestShedding checks the order in which sections give up content to fit
// the limit: ascending priority, later first among equals, each as far
// as it may before the next.
func TestShedding(t *testing.T) {
	sections := func() []budget.Section {
		return []budget.Section{
			{Name: "high", Priority: 3, Strategy: budget.DropOldest, Items: []budget.Item{item("h1 h1"), item("h2 h2")}},
			{Name: "mid1", Priority: 2, Strategy: budget.DropOldest, Items: []budget.Item{item("m1 m1"), item("m2 m2")}},
			{Name: "mid2", Priority: 2, Strategy: budget.DropOldest, Items: []budget.Item{item("n1 n1"), item("n2 n2")}},
			{Name: "low", Priority: 1, Required: true, Strategy: budget.DropOldest, Items: []budget.Item{item("l1 l1"), item("l2 l2")}},
		}
	}
	tests := []struct {
		limit int
		want  map[string][]string
	}{
		{16, map[string][]string{"high": {"h1 h1", "h2 h2"}, "mid1": {"m1 m1", "m2 m2"}, "mid2": {"n1 n1", "n2 n2"}, "low": {"l1 l1", "l2 l2"}}},
		{14, map[string][]string{"high": {"h1 h1", "h2 h2"}, "mid1": {"m1 m1", "m2 m2"}, "mid2": {"n1 n1", "n2 n2"}, "low": {"l2 l2"}}},
		{12, map[string][]string{"high": {"h1 h1", "h2 h2"}, "mid1": {"m1 m1", "m2 m2"}, "mid2": {"n2 n2"}, "low": {"l2 l2"}}},
		{10, map[string][]string{"high": {"h1 h1", "h2 h2"}, "mid1": {"m1 m1", "m2 m2"}, "low": {"l2 l2"}}},
		{8, map[string][]string{"high": {"h1 h1", "h2 h2"}, "mid1": {"m2 m2"}, "low": {"l2 l2"}}},
		{4, map[string][]string{"high": {"h2 h2"}, "low": {"l2 l2"}}},
		{2, map[string][]string{"low": {"l2 l2"}}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint("limit ", tt.limit), func(t *testing.T) {
			a := newAssembler(t, budget.Config{Tokenizer: tokentest.Words{}, Limit: tt.limit})
			res, err := a.Assemble(sections()...)
			require.NoError(t, err)
			got := map[string][]string{}
			for _, r := range res.Sections {
				if k := kept(r); k != nil {
					got[r.Name] = k
				}
				assert.Equal(t, len(kept(r)) < 2, r.Limited, r.Name)
			}
			assert.Equal(t, tt.want, got)
			assert.LessOrEqual(t, res.Tokens, tt.limit)
		})
	}
	t.Run("required content too large", func(t *testing.T) {
		a := newAssembler(t, budget.Config{Tokenizer: tokentest.Words{}, Limit: 1})
		res, err := a.Assemble(sections()...)
		require.ErrorIs(t, err, budget.ErrRequiredTooLarge)
		assert.Equal(t, "l2 l2", res.Text, "the smallest assembly the rules allow")
		assert.Equal(t, 2, res.Tokens)
		require.Len(t, res.Sections, 4)
		assert.Equal(t, budget.Truncated, res.Sections[3].Status)
		assert.Equal(t, budget.Dropped, res.Sections[0].Status)
		assert.Contains(t, res.String(), "does not fit")
	})
}

func TestReserve(t *testing.T) {
	a := newAssembler(t, budget.Config{Tokenizer: tokentest.Words{}, Limit: 10, Reserve: 6})
	res, err := a.Assemble(budget.Section{Name: "s", Strategy: budget.DropOldest, Items: []budget.Item{item("a a"), item("b b"), item("c c")}})
	require.NoError(t, err)
	assert.Equal(t, "b b\n\nc c", res.Text)
}

func TestRequiredAnchorOverBudget(t *testing.T) {
	a := newAssembler(t, budget.Config{Tokenizer: tokentest.Words{}, Limit: 100})
	res, err := a.Assemble(
		budget.Section{Name: "q", MaxTokens: 2, Required: true, Strategy: budget.KeepNewest, Items: []budget.Item{item("old"), item("a long question")}},
		budget.Section{Name: "other", Items: []budget.Item{item("x")}},
	)
	require.ErrorIs(t, err, budget.ErrRequiredTooLarge)
	assert.Contains(t, err.Error(), `section "q"`)
	assert.Equal(t, []string{"a long question"}, kept(res.Sections[0]))
	assert.Equal(t, []string{"x"}, kept(res.Sections[1]))
}

func TestFlow(t *testing.T) {
	sections := []budget.Section{
		{Name: "roomy", Priority: 1, MaxTokens: 10, Items: []budget.Item{item("a b")}},
		{Name: "cut-low", Priority: 2, MaxTokens: 2, Strategy: budget.DropOldest, Items: []budget.Item{item("l1 l1"), item("l2 l2"), item("l3 l3")}},
		{Name: "cut-high", Priority: 3, MaxTokens: 2, Strategy: budget.DropOldest, Items: []budget.Item{item("h1 h1 h1 h1 h1 h1"), item("h2 h2 h2 h2"), item("h3 h3")}},
	}
	a := newAssembler(t, budget.Config{Tokenizer: tokentest.Words{}, Limit: 100})
	res, err := a.Assemble(sections...)
	require.NoError(t, err)
	assert.Equal(t, []string{"l3 l3"}, kept(res.Sections[1]))
	assert.Equal(t, []string{"h3 h3"}, kept(res.Sections[2]))

	// "roomy" leaves 8 tokens unused. "cut-high" has the higher priority
	// and takes 4 of them for h2 (h1 would need 6 more); "cut-low" takes
	// the other 4 for l2 and l1.
	res, err = newAssembler(t, budget.Config{Tokenizer: tokentest.Words{}, Limit: 100, Flow: true}).Assemble(sections...)
	require.NoError(t, err)
	assert.Equal(t, []string{"h2 h2 h2 h2", "h3 h3"}, kept(res.Sections[2]))
	assert.Equal(t, 4, res.Sections[2].Extra)
	assert.Equal(t, []string{"l1 l1", "l2 l2", "l3 l3"}, kept(res.Sections[1]))
	assert.Equal(t, 4, res.Sections[1].Extra)
	assert.Equal(t, 0, res.Sections[0].Extra)
	assert.Contains(t, res.String(), "2+4")
}

func TestMessages(t *testing.T) {
	a := newAssembler(t, budget.Config{Tokenizer: tokentest.Words{}, Limit: 100})
	res, err := a.Assemble(
		budget.Section{Name: "system", Role: "system", Heading: "Rules:", Items: []budget.Item{item("be brief"), item("cite sources")}},
		budget.Section{Name: "chat", Strategy: budget.KeepNewest, Items: []budget.Item{
			{Text: "hi", Role: "user", ID: "m1"}, {Text: "hello", Role: "assistant", ID: "m2"}, {Text: "why?", ID: "m3"},
		}},
	)
	require.NoError(t, err)
	assert.Equal(t, []budget.Message{
		{Role: "system", Content: "Rules:\nbe brief\n\ncite sources", Section: "system"},
		{Role: "user", Content: "hi", Section: "chat", ID: "m1"},
		{Role: "assistant", Content: "hello", Section: "chat", ID: "m2"},
		{Role: "user", Content: "why?", Section: "chat", ID: "m3"},
	}, res.Messages)
}

func TestNewErrors(t *testing.T) {
	tok := tokentest.Words{}
	tests := []struct {
		name string
		cfg  budget.Config
		want error
	}{
		{"nil tokenizer", budget.Config{Limit: 10}, budget.ErrConfig},
		{"zero limit", budget.Config{Tokenizer: tok}, budget.ErrConfig},
		{"negative limit", budget.Config{Tokenizer: tok, Limit: -5}, budget.ErrConfig},
		{"negative reserve", budget.Config{Tokenizer: tok, Limit: 10, Reserve: -1}, budget.ErrConfig},
		{"reserve equals limit", budget.Config{Tokenizer: tok, Limit: 10, Reserve: 10}, budget.ErrConfig},
		{"invalid marker", budget.Config{Tokenizer: tok, Limit: 10, Marker: "\xff"}, budget.ErrConfig},
		{"invalid separator", budget.Config{Tokenizer: tok, Limit: 10, Separator: "\xc3"}, budget.ErrConfig},
		{"minimal", budget.Config{Tokenizer: tok, Limit: 1}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := budget.New(tt.cfg)
			if tt.want == nil {
				require.NoError(t, err)
				require.Equal(t, tt.cfg, a.Config())
				return
			}
			require.ErrorIs(t, err, tt.want)
			require.True(t, strings.HasPrefix(err.Error(), "budget: "), err.Error())
			require.Nil(t, a)
		})
	}
}

// TestZeroAssembler checks that an Assembler not made by New returns
// an error wrapping ErrConfig rather than panicking.
func TestZeroAssembler(t *testing.T) {
	sec := budget.Section{Name: "s", Items: []budget.Item{item("x")}}
	for name, a := range map[string]*budget.Assembler{"zero": {}, "nil": nil} {
		t.Run(name, func(t *testing.T) {
			res, err := a.Assemble(sec)
			require.ErrorIs(t, err, budget.ErrConfig)
			require.Equal(t, budget.Result{}, res)
			require.Equal(t, budget.Config{}, a.Config())
		})
	}
}

func TestSectionErrors(t *testing.T) {
	ok := budget.Section{Name: "s", Items: []budget.Item{item("x")}}
	tests := []struct {
		name     string
		sections []budget.Section
		want     error
	}{
		{"negative budget", []budget.Section{{Name: "s", MaxTokens: -1}}, budget.ErrInvalid},
		{"no name", []budget.Section{{}}, budget.ErrInvalid},
		{"duplicate name", []budget.Section{ok, ok}, budget.ErrInvalid},
		{"unknown strategy", []budget.Section{{Name: "s", Strategy: 99}}, budget.ErrInvalid},
		{"negative cut", []budget.Section{{Name: "s", Cut: -1}}, budget.ErrInvalid},
		{"template without placeholder", []budget.Section{{Name: "s", Template: "<x></x>"}}, budget.ErrInvalid},
		{"template with two placeholders", []budget.Section{{Name: "s", Template: "{content}{content}"}}, budget.ErrInvalid},
		{"invalid heading", []budget.Section{{Name: "s", Heading: "\xc3"}}, budget.ErrInvalid},
		{"empty item", []budget.Section{{Name: "s", Items: []budget.Item{{}}}}, budget.ErrInvalid},
		{"invalid item", []budget.Section{{Name: "s", Items: []budget.Item{item("a\xffb")}}}, budget.ErrInvalid},
		{"NaN rank", []budget.Section{{Name: "s", Items: []budget.Item{{Text: "a", Rank: math.NaN()}}}}, budget.ErrInvalid},
	}
	a := newAssembler(t, budget.Config{Tokenizer: tokentest.Words{}, Limit: 10})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := a.Assemble(tt.sections...)
			require.ErrorIs(t, err, tt.want)
			require.True(t, strings.HasPrefix(err.Error(), tt.want.Error()+": "), err.Error())
			require.Equal(t, budget.Result{}, res)
		})
	}
}

func TestNoSections(t *testing.T) {
	res, err := newAssembler(t, budget.Config{Tokenizer: tokentest.Words{}, Limit: 1}).Assemble()
	require.NoError(t, err)
	assert.Equal(t, "", res.Text)
	assert.Equal(t, 0, res.Tokens)
}

func TestConcurrentUse(t *testing.T) {
	tok := cl100k(t)
	paras := paragraphs(t, tok, 50, 200)[:40]
	a := newAssembler(t, budget.Config{Tokenizer: tok, Limit: 1500, Reserve: 200})
	secs := []budget.Section{
		{Name: "a", Priority: 2, MaxTokens: 300, Items: []budget.Item{item(paras[0]), item(paras[1])}},
		{Name: "b", Priority: 1, Strategy: budget.DropLowestRank, Cut: budget.CutEnd, Items: itemsOf(paras[2:])},
	}
	want, err := a.Assemble(secs...)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := a.Assemble(secs...)
			assert.NoError(t, err)
			assert.Equal(t, want, got)
		}()
	}
	wg.Wait()
}

func itemsOf(texts []string) []budget.Item {
	items := make([]budget.Item, len(texts))
	for i, s := range texts {
		items[i] = budget.Item{Text: s, ID: fmt.Sprint("c", i), Rank: 1 / float64(i+1)}
	}
	return items
}

// TestCountCalls checks that assembly does not re-count quadratically:
// candidates the budget cannot reach are never counted, so ten times the
// candidates cost the same tokenizer calls, and the text tokenized in all
// stays below one pass over the candidates.
func TestCountCalls(t *testing.T) {
	tok := cl100k(t)
	paras := paragraphs(t, tok, 50, 300)
	require.Greater(t, len(paras), 400)
	run := func(n int) (*tokentest.Counting, int) {
		c := tokentest.NewCounting(tok)
		secs := referenceSections(paras[:n])
		_, err := newAssembler(t, budget.Config{Tokenizer: c, Limit: 8000, Reserve: 1000}).Assemble(secs...)
		require.NoError(t, err)
		size := 0
		for _, s := range secs {
			for _, it := range s.Items {
				size += len(it.Text)
			}
		}
		return c, size
	}
	small, _ := run(40)
	large, size := run(400)
	assert.Equal(t, small.Counts(), large.Counts(), "Count calls")
	assert.Equal(t, small.Ends(), large.Ends(), "AppendTokenEnds calls")
	assert.Less(t, large.Bytes(), size, "bytes tokenized")
}

func TestAllocsDoNotGrowWithDroppedCandidates(t *testing.T) {
	tok := cl100k(t)
	paras := paragraphs(t, tok, 50, 300)
	a := newAssembler(t, budget.Config{Tokenizer: tok, Limit: 8000, Reserve: 1000})
	allocs := func(n int) float64 {
		secs := referenceSections(paras[:n])
		return testing.AllocsPerRun(5, func() {
			if _, err := a.Assemble(secs...); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, large := allocs(40), allocs(400)
	assert.LessOrEqual(t, large, small+10, "allocations for 400 candidates vs 40")
}

func TestStringers(t *testing.T) {
	assert.Equal(t, "KeepNewest", budget.KeepNewest.String())
	assert.Equal(t, "Strategy(9)", budget.Strategy(9).String())
	assert.Equal(t, "CutStart", budget.CutStart.String())
	assert.Equal(t, "Cut(-1)", budget.Cut(-1).String())
	assert.Equal(t, "Truncated", budget.Truncated.String())
	assert.Equal(t, "Preserved", budget.Preserved.String())
	assert.Equal(t, "Status(7)", budget.Status(7).String())
}

func TestErrorsAreDistinct(t *testing.T) {
	all := []error{budget.ErrConfig, budget.ErrInvalid, budget.ErrTokenizer, budget.ErrRequiredTooLarge}
	for i, e := range all {
		assert.True(t, strings.HasPrefix(e.Error(), "budget: "), e.Error())
		for j, f := range all {
			assert.Equal(t, i == j, errors.Is(e, f))
		}
	}
}

// plainLayout is a RAG prompt's plain layout: instructions, candidates
// best first with no budget of their own, the question.
func plainLayout(candidates []string) []budget.Section {
	items := make([]budget.Item, len(candidates))
	for i, c := range candidates {
		items[i] = budget.Item{Text: c, Rank: -float64(i)}
	}
	return []budget.Section{
		{Name: "instructions", Priority: 3, Required: true, Items: []budget.Item{{Text: "Answer from the context only."}}},
		{Name: "context", Priority: 1, Strategy: budget.DropLowestRank, Heading: "Context:", Items: items},
		{Name: "question", Priority: 2, Required: true, Items: []budget.Item{{Text: "Question: Who is Lucy?"}}},
	}
}

// TestPlainLayoutCost checks the tokenizer's work of filling a prompt
// from many more candidates than fit: the candidates it keeps, counted
// once each, the prompt and the next larger one, and the context's block
// for the report; the whole text of all candidates is never counted (it
// was, twice, at 9.6 times the prompt's bytes in all).
func TestPlainLayoutCost(t *testing.T) {
	tok := cl100k(t)
	paras := paragraphs(t, tok, 60, 300)
	require.GreaterOrEqual(t, len(paras), 200)
	c := tokentest.NewCounting(tok)
	res, err := newAssembler(t, budget.Config{Tokenizer: c, Limit: 8192}).Assemble(plainLayout(paras[:200])...)
	require.NoError(t, err)
	require.Equal(t, tok.Count(res.Text), res.Tokens)
	require.Greater(t, res.Tokens, 8192-300, "the prompt is full")
	assert.Less(t, float64(c.Bytes()), 4.3*float64(len(res.Text)), "bytes tokenized: %d for a prompt of %d", c.Bytes(), len(res.Text))
}

// A whole far too long to fit by its bytes is not counted before the
// search; if it fits after all (a tokenizer with very long tokens), the
// search keeps it whole.
func TestLongTextThatFits(t *testing.T) {
	tok := tokentest.FixedWidth{Bytes: 100}
	paras := paragraphs(t, cl100k(t), 60, 300)[:100]
	size := 0
	for _, p := range paras {
		size += len(p)
	}
	limit := size / 40 // more than 8 bytes a token, but tokens of 100 bytes fit
	res, err := newAssembler(t, budget.Config{Tokenizer: tok, Limit: limit}).Assemble(plainLayout(paras)...)
	require.NoError(t, err)
	require.Equal(t, budget.Preserved, res.Sections[1].Status)
	require.Equal(t, tok.Count(res.Text), res.Tokens)
}
