package budget_test

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/tokentest"
)

// The tests in this file come from issue 15: input that a careless or a
// hostile caller may pass.

// TestDroppedSectionWarns checks that a section with items that its own
// budget leaves empty always says why in Warnings.
func TestDroppedSectionWarns(t *testing.T) {
	tests := []struct {
		name    string
		tok     tokencount.Tokenizer
		marker  string
		section budget.Section
		want    string
	}{{
		name:    "the marker alone exceeds the budget",
		marker:  "a very long marker",
		section: budget.Section{MaxTokens: 2, Items: []budget.Item{{Text: "One two three. Four five.", ID: "doc"}}},
		want:    `section "s": dropped whole: item 0 (ID "doc"), the first to keep, takes 5 tokens, more than its budget of 2, and the marker "a very long marker" alone takes 4 tokens`,
	}, {
		name:    "one long word",
		tok:     tokentest.FixedWidth{Bytes: 4},
		section: budget.Section{MaxTokens: 2, Strategy: budget.TruncateStart, Items: []budget.Item{{Text: "x y"}, {Text: strings.Repeat("x", 100)}}},
		want:    `section "s": dropped whole: item 1 (ID ""), the first to keep, takes 25 tokens, more than its budget of 2, and it has no sentence or word boundary to cut at`,
	}, {
		name:    "no cut",
		section: budget.Section{MaxTokens: 2, Strategy: budget.DropLowestRank, Items: []budget.Item{{Text: "a b"}, {Text: "c d e", Rank: 1, ID: "best"}}},
		want:    `section "s": dropped whole: item 1 (ID "best"), the first to keep, takes 3 tokens, more than its budget of 2, and its Cut is NoCut`,
	}, {
		name: "the newest is never cut",
		section: budget.Section{MaxTokens: 2, Strategy: budget.KeepNewest, Cut: budget.CutEnd,
			Items: []budget.Item{{Text: "a"}, {Text: "Hello there. How are you?", ID: "q"}}},
		want: `section "s": dropped whole: item 1 (ID "q"), the first to keep, takes 5 tokens, more than its budget of 2, and the newest item is never cut`,
	}, {
		name: "a group",
		section: budget.Section{MaxTokens: 2, Strategy: budget.DropOldest, Items: []budget.Item{
			{Text: "call", Group: "t1"}, {Text: "result", Group: "t1"}, {Text: "other"}, {Text: "more call", Group: "t2"}, {Text: "more", Group: "t2"},
		}},
		want: `section "s": dropped whole: group "t2" (2 items), the first to keep, takes 3 tokens, more than its budget of 2, and its Cut is NoCut`,
	}, {
		name:    "not even the shortest cut fits",
		section: budget.Section{MaxTokens: 1, Items: []budget.Item{{Text: "One two. Three."}}},
		want:    `section "s": dropped whole: item 0 (ID ""), the first to keep, takes 3 tokens, more than its budget of 1, and not even its shortest cut fits`,
	}, {
		name:    "the heading alone exceeds the budget",
		section: budget.Section{MaxTokens: 2, Heading: "A long heading", Items: []budget.Item{{Text: "x"}}},
		want:    `section "s": its heading and template take 3 tokens, more than its budget of 2`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tok := tt.tok
			if tok == nil {
				tok = tokentest.Words{}
			}
			a := newAssembler(t, budget.Config{Tokenizer: tok, Limit: 1000, Marker: tt.marker})
			tt.section.Name = "s"
			res, err := a.Assemble(tt.section)
			require.NoError(t, err)
			require.Equal(t, budget.Dropped, res.Sections[0].Status)
			require.Equal(t, []string{tt.want}, res.Warnings)
		})
	}
}

// TestHugeWord checks that one item that is a single 10 MB word is dropped
// with a warning after one pass of the tokenizer over it, not two.
func TestHugeWord(t *testing.T) {
	word := strings.Repeat("abcdefghij", 1<<20)
	for _, strategy := range []budget.Strategy{budget.TruncateEnd, budget.DropLowestRank} {
		t.Run(strategy.String(), func(t *testing.T) {
			tok := tokentest.NewCounting(tokentest.FixedWidth{Bytes: 4})
			a := newAssembler(t, budget.Config{Tokenizer: tok, Limit: 1 << 20})
			res, err := a.Assemble(budget.Section{Name: "s", MaxTokens: 100, Strategy: strategy, Items: []budget.Item{{Text: word}}})
			require.NoError(t, err)
			require.Equal(t, budget.Dropped, res.Sections[0].Status)
			require.Len(t, res.Warnings, 1)
			assert.Less(t, tok.Bytes(), len(word)+100, "bytes tokenized")
			assert.Zero(t, tok.Ends(), "token ends of a text that has no cut")
		})
	}
}

// TestWhiteSpaceItems checks the one rule for items without content: an
// item must hold a character that is not white space.
func TestWhiteSpaceItems(t *testing.T) {
	a := newAssembler(t, budget.Config{Tokenizer: tokentest.Words{}, Limit: 100})
	for _, text := range []string{"", " ", "\n\n", "\t \r\n", "\u00a0\u2003"} {
		_, err := a.Assemble(budget.Section{Name: "s", Items: []budget.Item{{Text: "ok"}, {Text: text, ID: "blank"}}})
		require.ErrorIs(t, err, budget.ErrInvalid, "%q", text)
		require.EqualError(t, err, `budget: invalid input: section "s": item 1 (ID "blank"): Text is empty or white space`)
	}
	res, err := a.Assemble(budget.Section{Name: "s", Items: []budget.Item{{Text: " x "}}})
	require.NoError(t, err)
	require.Equal(t, " x ", res.Text, "white space around content is kept")
}

// TestNegativeCount checks that a Tokenizer returning a negative count,
// even for one string among many, is an error rather than a negative
// Result.Tokens.
func TestNegativeCount(t *testing.T) {
	tests := []struct {
		name string
		tok  tokentest.Func
	}{
		{"always", func(s string) int { return -len(s) }},
		{"for the separator", func(s string) int {
			if s == "\n\n" {
				return -1
			}
			return len(strings.Fields(s))
		}},
		{"for the whole text", func(s string) int {
			if strings.Contains(s, "a b") && strings.Contains(s, "c d") {
				return -5
			}
			return len(strings.Fields(s))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAssembler(t, budget.Config{Tokenizer: tt.tok, Limit: 3})
			res, err := a.Assemble(
				budget.Section{Name: "a", MaxTokens: 10, Strategy: budget.DropOldest, Items: []budget.Item{{Text: "a b"}, {Text: "c d"}}},
				budget.Section{Name: "b", Items: []budget.Item{{Text: "e f"}}},
			)
			require.ErrorIs(t, err, budget.ErrTokenizer)
			require.Equal(t, budget.Result{}, res)
		})
	}
}

// TestHugeCounts checks that a Tokenizer that counts far more tokens than
// there are bytes, as none does, costs no memory in proportion to its
// counts.
func TestHugeCounts(t *testing.T) {
	tok := tokentest.Func(func(string) int { return 1 << 18 })
	a := newAssembler(t, budget.Config{Tokenizer: tok, Limit: math.MaxInt})
	text := strings.Repeat("One sentence here, with words. ", 20)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := a.Assemble(budget.Section{Name: "s", MaxTokens: 1<<18 - 1, Items: []budget.Item{{Text: text}}})
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	require.Equal(t, budget.Dropped, res.Sections[0].Status, "every text counts more than the budget")
	require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "bytes allocated")
}

// TestFlowHugeBudgets checks that budgets of math.MaxInt, which mean "no
// limit", do not overflow the pool that Flow shares out.
func TestFlowHugeBudgets(t *testing.T) {
	a := newAssembler(t, budget.Config{Tokenizer: tokentest.Words{}, Limit: math.MaxInt, Flow: true})
	res, err := a.Assemble(
		budget.Section{Name: "huge1", MaxTokens: math.MaxInt, Items: []budget.Item{{Text: "a b"}}},
		budget.Section{Name: "huge2", MaxTokens: math.MaxInt, Items: []budget.Item{{Text: "c"}}},
		budget.Section{Name: "cut", MaxTokens: 2, Strategy: budget.DropOldest, Items: []budget.Item{{Text: "l1 l1"}, {Text: "l2 l2"}, {Text: "l3 l3"}}},
	)
	require.NoError(t, err)
	cut := res.Sections[2]
	require.Equal(t, []string{"l1 l1", "l2 l2", "l3 l3"}, kept(cut))
	require.Equal(t, 4, cut.Extra)
	require.Contains(t, res.String(), "2+4")
}

// TestShedIsNotQuadratic: shedding sections to make the whole fit measures
// the whole a logarithmic number of times in the sections, not once per
// section (issue 24: 2,000/4,000/8,000 sections took 0.54/2.9/11.7 s). The
// bytes reaching the tokenizer grow about as fast as the sections do.
func TestShedIsNotQuadratic(t *testing.T) {
	counted := func(n int) int {
		tok := tokentest.NewCounting(tokentest.Words{})
		a, err := budget.New(budget.Config{Tokenizer: tok, Limit: n})
		require.NoError(t, err)
		secs := make([]budget.Section, n)
		for i := range secs {
			secs[i] = budget.Section{Name: fmt.Sprint("s", i), Priority: i, Items: []budget.Item{{Text: "one two three four"}}}
		}
		tok.Reset()
		res, err := a.Assemble(secs...)
		require.NoError(t, err)
		require.LessOrEqual(t, res.Tokens, n)
		return tok.Bytes()
	}
	small, large := counted(500), counted(2000)
	require.Less(t, float64(large)/float64(small), 8.0, "bytes counted: %d for 500 sections, %d for 2000", small, large)
}

// Many protected spans, each over the whole text, are handled in time
// linear in the sentences and spans (a sentence taken is never visited
// again), and the cut stays exact.
func TestManyKeepSpans(t *testing.T) {
	text := strings.Repeat("One short sentence here. ", 5000)
	keep := make([]segment.Span, 0, 10000)
	for i := range 5000 {
		keep = append(keep, segment.Span{Start: 0, End: len(text)}, segment.Span{Start: i * 25, End: i*25 + 3})
	}
	tok := tokentest.Words{}
	a, err := budget.New(budget.Config{Tokenizer: tok, Limit: 1 << 20})
	require.NoError(t, err)
	res, err := a.Assemble(budget.Section{Name: "s", MaxTokens: 1000, Items: []budget.Item{{Text: text, Keep: keep}}})
	require.NoError(t, err)
	require.Equal(t, tok.Count(res.Text), res.Tokens)
	require.LessOrEqual(t, res.Tokens, 1000)
	require.Greater(t, res.Tokens, 990)
}
