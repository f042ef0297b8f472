package budget_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/tokentest"
)

// TestGroupTies pins how a group ranks against another unit when they tie
// in Rank or Time: a group takes the place of its longest-kept member,
// tie-break included (issue 18).
func TestGroupTies(t *testing.T) {
	tok := cl100k(t)
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	t1 := t0.Add(time.Minute)
	tests := []struct {
		name     string
		strategy budget.Strategy
		items    []budget.Item
		want     []string
	}{{
		// gamma, the group's best member (Rank .9, position 2), ties with
		// beta (Rank .9, position 1) and comes after it.
		name:     "rank tie: the group's best member comes after",
		strategy: budget.DropLowestRank,
		items:    []budget.Item{{Text: "alpha", Rank: .5, Group: "g"}, {Text: "beta", Rank: .9}, {Text: "gamma", Rank: .9, Group: "g"}},
		want:     []string{"beta"},
	}, {
		name:     "rank tie: the group's best member comes first",
		strategy: budget.DropLowestRank,
		items:    []budget.Item{{Text: "alpha", Rank: .9, Group: "g"}, {Text: "beta", Rank: .9}, {Text: "gamma", Rank: .5, Group: "g"}},
		want:     []string{"alpha", "gamma"},
	}, {
		name:     "time tie: the group's newest member comes after",
		strategy: budget.DropOldest,
		items:    []budget.Item{{Text: "alpha", Time: t1, Group: "g"}, {Text: "beta", Time: t1}, {Text: "gamma", Time: t0, Group: "g"}},
		want:     []string{"beta"},
	}, {
		name:     "time tie: the group's newest member is later",
		strategy: budget.KeepNewest,
		items:    []budget.Item{{Text: "alpha", Time: t0, Group: "g"}, {Text: "beta", Time: t1}, {Text: "gamma", Time: t1, Group: "g"}},
		want:     []string{"alpha", "gamma"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAssembler(t, budget.Config{Tokenizer: tok, Limit: 100})
			group := tok.Count("alpha\n\ngamma")
			require.Equal(t, 3, group)
			res, err := a.Assemble(budget.Section{Name: "s", MaxTokens: group, Strategy: tt.strategy, Items: tt.items})
			require.NoError(t, err)
			require.Equal(t, tt.want, kept(res.Sections[0]))
		})
	}
}

// TestRequiredAnchorTie checks that a required section's anchor is the
// documented one when a group ties with a single item: here the single
// item, which fits, not the group, which would not (issue 18 found a
// spurious ErrRequiredTooLarge).
func TestRequiredAnchorTie(t *testing.T) {
	tok := cl100k(t)
	a := newAssembler(t, budget.Config{Tokenizer: tok, Limit: 100})
	res, err := a.Assemble(budget.Section{Name: "s", MaxTokens: tok.Count("beta"), Required: true, Strategy: budget.DropLowestRank,
		Items: []budget.Item{{Text: "alpha", Rank: .5, Group: "g"}, {Text: "beta", Rank: .9}, {Text: "gamma", Rank: .9, Group: "g"}}})
	require.NoError(t, err)
	require.Equal(t, "beta", res.Text)
}

// TestKeepOrderProperty compares the items each strategy keeps with a
// direct implementation of the documented order (keepOrder) on random
// sections full of groups and ties in Rank and Time. The tokenizers are
// monotone (more kept content never counts fewer tokens), so the
// documented result is unique: the longest prefix of the keep order that
// fits (at least the anchor if the section is required), then, where the
// strategy cuts, possibly the next unit in part.
func TestKeepOrderProperty(t *testing.T) {
	toks := []tokencount.Tokenizer{tokentest.Words{}, tokentest.FixedWidth{Bytes: 4}, tokentest.Lumpy{}}
	rng := rand.New(rand.NewPCG(18, 18))
	n := 3000
	if testing.Short() {
		n = 500
	}
	for i := range n {
		tok := toks[rng.IntN(len(toks))]
		sec := randomTieSection(rng)
		limit, room := 1000, sec.MaxTokens
		if rng.IntN(3) == 0 { // the limit, not the section's budget, constrains it
			limit, sec.MaxTokens = room, 0
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			res, err := newAssembler(t, budget.Config{Tokenizer: tok, Limit: limit}).Assemble(sec)
			checkKeepOrder(t, tok, sec, room, res, err)
		})
	}
}

// randomTieSection returns a section of one of the ordering strategies
// with up to 8 items, few distinct ranks and times, and groups.
func randomTieSection(rng *rand.Rand) budget.Section {
	strategies := []budget.Strategy{budget.DropLowestRank, budget.DropOldest, budget.KeepNewest, budget.TruncateEnd, budget.TruncateStart}
	words := []string{"one", "two", "three", "four.", "Five", "six", "seven.", "Eight"}
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	sec := budget.Section{
		Name:      "s",
		Strategy:  strategies[rng.IntN(len(strategies))],
		Cut:       budget.Cut(rng.IntN(3)),
		Required:  rng.IntN(3) == 0,
		Separator: []string{"", "\n", " | "}[rng.IntN(3)],
		MaxTokens: 1 + rng.IntN(30),
	}
	for j := rng.IntN(9); j > 0; j-- {
		text := make([]string, 1+rng.IntN(6))
		for k := range text {
			text[k] = words[rng.IntN(len(words))]
		}
		it := budget.Item{Text: strings.Join(text, " "), ID: fmt.Sprint(len(sec.Items)), Rank: float64(rng.IntN(3))}
		if rng.IntN(3) > 0 {
			it.Time = base.Add(time.Duration(rng.IntN(3)) * time.Minute)
		}
		if rng.IntN(2) == 0 {
			it.Group = fmt.Sprint("g", rng.IntN(3))
		}
		sec.Items = append(sec.Items, it)
	}
	return sec
}

// checkKeepOrder checks a single section's result against keepOrder
// under budget, given a monotone tokenizer.
func checkKeepOrder(t *testing.T, tok tokencount.Tokenizer, sec budget.Section, room int, res budget.Result, err error) {
	t.Helper()
	units := keepOrder(sec)
	fits := func(k int) bool {
		var texts []string
		for j, it := range sec.Items {
			if slices.ContainsFunc(units[:k], func(u []int) bool { return slices.Contains(u, j) }) {
				texts = append(texts, it.Text)
			}
		}
		return tok.Count(render(sec, texts)) <= room
	}
	floor := 0
	if sec.Required && len(units) > 0 {
		floor = 1
	}
	if !fits(floor) {
		require.ErrorIs(t, err, budget.ErrRequiredTooLarge)
	} else {
		require.NoError(t, err)
	}
	k := floor
	for k < len(units) && fits(k+1) {
		k++
	}
	cuttable, _ := cutSide(sec)
	minCut := floor
	if sec.Strategy == budget.KeepNewest {
		minCut = 1
	}
	r := res.Sections[0]
	for u, members := range units {
		var got []budget.Status
		for _, j := range members {
			got = append(got, r.Items[j].Status)
		}
		switch {
		case u < k:
			assert.NotContains(t, got, budget.Dropped, "unit %d of %v kept whole", u, units)
			assert.NotContains(t, got, budget.Truncated, "unit %d of %v kept whole", u, units)
		case u == k && cuttable && k >= minCut && !allEqual(got, budget.Dropped):
			assert.NotContains(t, got, budget.Dropped, "unit %d of %v kept in part", u, units)
			assert.Contains(t, got, budget.Truncated, "unit %d of %v kept in part", u, units)
		default:
			assert.True(t, allEqual(got, budget.Dropped), "unit %d of %v dropped: %v", u, units, got)
		}
	}
}

func allEqual(xs []budget.Status, s budget.Status) bool {
	for _, x := range xs {
		if x != s {
			return false
		}
	}
	return true
}
