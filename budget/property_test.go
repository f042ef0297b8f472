package budget_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/tokentest"
)

// The property test and the fuzz target share one generator: a chooser
// reads its choices from bytes, random ones for the property test and the
// fuzzer's for the fuzz target, so that the fuzzer's mutations change the
// shape of the case (sections, items, budgets, limits) rather than only a
// seed.

type chooser struct{ data []byte }

// n returns a choice in [0, k); 0 once the bytes run out.
func (c *chooser) n(k int) int {
	if k <= 1 || len(c.data) == 0 {
		return 0
	}
	v := int(c.data[0])
	c.data = c.data[1:]
	if k > 256 && len(c.data) > 0 {
		v = v<<8 | int(c.data[0])
		c.data = c.data[1:]
	}
	return v % k
}

func pick[T any](c *chooser, xs []T) T { return xs[c.n(len(xs))] }

var (
	separators = []string{"", "\n", " ", "\n---\n", "\n\n"}
	markers    = []string{"", "…", "<cut>"}
	headings   = []string{"", "", "## Context", "Facts:"}
	templates  = []string{"", "", "", "<context>\n" + budget.Placeholder + "\n</context>", "[" + budget.Placeholder + "]"}
	roles      = []string{"", "", "system", "user"}
	oddities   = []string{
		"Naïve café, déjà vu. Crème brûlée!",
		"日本語の文章です。次の文です。",
		"Family: 👩‍👩‍👧‍👦 and flags 🇫🇷🇩🇪. Next one.",
		"x",
		"supercalifragilisticexpialidocious",
		"a\n\nb",
		"  leading and trailing spaces.  ",
		"https://example.com/a/very/long/path?with=query&and=more",
		"Mr. Smith went to Washington. He did not return!",
		"e\u0301\u0301\u0301 combining marks. Z\u0351\u0360a\u036bl\u0343g\u0344o.",
	}
)

type fixture struct {
	sentences  []string
	tokenizers []tokencount.Tokenizer
}

func newFixture(tb testing.TB) fixture {
	text := corpus(tb)
	var sents []string
	for _, s := range segment.Sentences(text) {
		if s.End-s.Start <= 400 {
			sents = append(sents, text[s.Start:s.End])
		}
		if len(sents) == 4000 {
			break
		}
	}
	tok := cl100k(tb)
	return fixture{sentences: sents, tokenizers: []tokencount.Tokenizer{tok, tok, tokentest.Hidden{Tokenizer: tok}, tokentest.Lumpy{}, tokentest.Crowded{}}}
}

func (f fixture) text(c *chooser) string {
	var b strings.Builder
	for i := c.n(6); i >= 0; i-- {
		if c.n(5) == 0 {
			b.WriteString(pick(c, oddities))
		} else {
			b.WriteString(f.sentences[c.n(len(f.sentences))])
		}
		if i > 0 {
			b.WriteString(pick(c, []string{" ", " ", "\n", "\n\n"}))
		}
	}
	return b.String()
}

func (f fixture) generate(c *chooser) (budget.Config, []budget.Section) {
	a := budget.Config{
		Tokenizer: pick(c, f.tokenizers),
		Limit:     1 + c.n(1500),
		Separator: pick(c, separators),
		Marker:    pick(c, markers),
		Flow:      c.n(3) == 0,
	}
	a.Reserve = c.n(a.Limit) / (1 + c.n(4))
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	sections := make([]budget.Section, 1+c.n(6))
	for i := range sections {
		s := budget.Section{
			Name:      fmt.Sprintf("s%d", i),
			Priority:  c.n(4),
			Required:  c.n(4) == 0,
			Strategy:  budget.Strategy(c.n(5)),
			Cut:       budget.Cut(c.n(3)),
			Heading:   pick(c, headings),
			Template:  pick(c, templates),
			Separator: pick(c, separators),
			Role:      pick(c, roles),
		}
		if c.n(4) > 0 {
			s.MaxTokens = 1 + c.n(500)
		}
		for j := c.n(9); j > 0; j-- {
			it := budget.Item{
				Text: f.text(c),
				ID:   fmt.Sprintf("%d.%d", i, len(s.Items)),
				Rank: float64(c.n(4)),
				Role: pick(c, roles),
			}
			if c.n(2) == 0 {
				it.Time = base.Add(time.Duration(c.n(5)) * time.Minute)
			}
			if c.n(3) == 0 {
				it.Group = fmt.Sprintf("g%d", c.n(3))
			}
			s.Items = append(s.Items, it)
		}
		sections[i] = s
	}
	return a, sections
}

func TestProperties(t *testing.T) {
	f := newFixture(t)
	n := 1500
	if testing.Short() {
		n = 200
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		data := make([]byte, 600)
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		a, secs := f.generate(&chooser{data})
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkAssemble(t, a, secs) })
	}
}

func FuzzAssemble(f *testing.F) {
	fx := newFixture(f)
	f.Add([]byte{})
	f.Add([]byte("\x05\x40\x01\x02\x03\x01\x00\x02\x01\x04\x02\x03\x01\x05\x07\x09\x11\x13\x17\x19"))
	f.Add([]byte(strings.Repeat("\x03\x91\x12", 60)))
	f.Add([]byte(strings.Repeat("\xff\x00\x10\x02", 80)))
	rng := rand.New(rand.NewPCG(3, 4))
	for range 8 {
		data := make([]byte, 300)
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, secs := fx.generate(&chooser{data})
		checkAssemble(t, a, secs)
	})
}

// checkAssemble checks every guarantee of Assemble on one case, against
// the documented rules, never against the implementation's internals.
func checkAssemble(t *testing.T, a budget.Config, secs []budget.Section) {
	t.Helper()
	as := newAssembler(t, a)
	res, err := as.Assemble(secs...)
	again, err2 := as.Assemble(secs...)
	require.Equal(t, res, again, "not deterministic")
	require.Equal(t, fmt.Sprint(err), fmt.Sprint(err2), "not deterministic")
	require.Len(t, res.Sections, len(secs), "section reports (err %v)", err)
	if err != nil {
		require.ErrorIs(t, err, budget.ErrRequiredTooLarge)
		checkRequiredTooLarge(t, a, secs)
		return
	}
	tok := a.Tokenizer
	require.Equal(t, tok.Count(res.Text), res.Tokens, "Tokens is the count of Text")
	require.LessOrEqual(t, res.Tokens, a.Limit-a.Reserve, "Tokens within the space available")
	var blocks []string
	used, budgets := 0, 0
	for i, r := range res.Sections {
		block := res.Text[r.Start:r.End]
		require.Equal(t, tok.Count(block), r.Tokens, "section %s: Tokens is the count of its block", r.Name)
		if r.Budget > 0 {
			used += r.Tokens
			budgets += r.Budget
			require.LessOrEqual(t, r.Tokens, r.Budget+r.Extra, "section %s: within its budget %d+%d", r.Name, r.Budget, r.Extra)
		}
		if !a.Flow {
			require.Zero(t, r.Extra, "section %s: extra budget without Flow", r.Name)
		}
		checkSection(t, a, secs[i], r, block)
		if block != "" {
			blocks = append(blocks, block)
		}
	}
	require.LessOrEqual(t, used, budgets, "sections with a budget within their budgets' total")
	require.Equal(t, strings.Join(blocks, or(a.Separator, budget.DefaultSeparator)), res.Text, "Text is the sections' blocks joined")
	checkMessages(t, secs, res)
	checkPriority(t, a, secs, res)
	checkMaximal(t, a, secs, res)
}

// checkMaximal checks that sections that keep whole items only do not
// waste room: one more unit in keep order would exceed the section's
// budget or, for the section that the limit cut short, the limit. (Flow
// budgets and cuts make the next step harder to state, so those cases
// are left to the other checks.)
func checkMaximal(t *testing.T, a budget.Config, secs []budget.Section, res budget.Result) {
	t.Helper()
	for i, r := range res.Sections {
		sec := secs[i]
		if cuts, _ := cutSide(sec); cuts || a.Flow || r.Limited && atFloor(sec, r) || !r.Limited && r.Budget == 0 {
			continue
		}
		units := keepOrder(sec)
		k := 0
		for k < len(units) && r.Items[units[k][0]].Status != budget.Dropped {
			k++
		}
		if k == len(units) {
			continue
		}
		more := map[int]bool{}
		for _, u := range units[:k+1] {
			for _, j := range u {
				more[j] = true
			}
		}
		var texts []string
		for j, it := range sec.Items {
			if more[j] {
				texts = append(texts, it.Text)
			}
		}
		block := render(sec, texts)
		over := r.Budget > 0 && a.Tokenizer.Count(block) > r.Budget
		if r.Limited {
			var blocks []string
			for j, o := range res.Sections {
				b := res.Text[o.Start:o.End]
				if j == i {
					b = block
				}
				if b != "" {
					blocks = append(blocks, b)
				}
			}
			text := strings.Join(blocks, or(a.Separator, budget.DefaultSeparator))
			over = over || a.Tokenizer.Count(text) > a.Limit-a.Reserve
		}
		require.True(t, over, "section %s keeps %d of %d units, but %d would fit", sec.Name, k, len(units), k+1)
	}
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// render renders a section's block from the texts of its kept items, as
// Section documents it.
func render(sec budget.Section, texts []string) string {
	if len(texts) == 0 {
		return ""
	}
	content := strings.Join(texts, or(sec.Separator, budget.DefaultSeparator))
	if sec.Heading != "" {
		content = sec.Heading + "\n" + content
	}
	if sec.Template != "" {
		content = strings.Replace(sec.Template, budget.Placeholder, content, 1)
	}
	return content
}

// keepOrder returns the section's units (groups of item indices, in
// Items order) in the order the strategy keeps them, longest first,
// straight from the docs: Strategy orders items, and Item.Group says that
// a group is kept as long as its longest-kept member would be on its own.
func keepOrder(sec budget.Section) [][]int {
	var units [][]int
	group := map[string]int{}
	for i, it := range sec.Items {
		if u, ok := group[it.Group]; ok && it.Group != "" {
			units[u] = append(units[u], i)
			continue
		}
		group[it.Group] = len(units)
		units = append(units, []int{i})
	}
	longer := keptLonger(sec)
	best := func(u []int) int { // the member kept longest
		b := u[0]
		for _, i := range u[1:] {
			if longer(i, b) {
				b = i
			}
		}
		return b
	}
	sort.SliceStable(units, func(a, b int) bool { return longer(best(units[a]), best(units[b])) })
	return units
}

// keptLonger returns the strategy's order of single items, as Strategy
// documents it: whether item i is kept longer than item j.
func keptLonger(sec budget.Section) func(i, j int) bool {
	items := sec.Items
	switch sec.Strategy {
	case budget.TruncateStart: // the end is kept
		return func(i, j int) bool { return i > j }
	case budget.DropLowestRank: // ascending Rank dropped first; among equals, the later item first
		return func(i, j int) bool {
			if items[i].Rank != items[j].Rank {
				return items[i].Rank > items[j].Rank
			}
			return i < j
		}
	case budget.DropOldest, budget.KeepNewest: // oldest dropped first; among equal times, the earlier item is older
		return func(i, j int) bool {
			if c := items[i].Time.Compare(items[j].Time); c != 0 {
				return c > 0
			}
			return i > j
		}
	}
	return func(i, j int) bool { return i < j } // TruncateEnd: the start is kept
}

// cutSide returns whether the section may cut its boundary item, and at
// which end.
func cutSide(sec budget.Section) (cuts, atEnd bool) {
	switch sec.Strategy {
	case budget.TruncateEnd:
		return true, true
	case budget.TruncateStart:
		return true, false
	}
	return sec.Cut != budget.NoCut, sec.Cut == budget.CutEnd
}

// checkSection checks one section's report and block: the block renders
// the kept items, cuts are at boundaries and marked, the strategy keeps a
// prefix of its order, groups stay together, anchors stay whole.
func checkSection(t *testing.T, a budget.Config, sec budget.Section, r budget.SectionReport, block string) {
	t.Helper()
	cuts, atEnd := cutSide(sec)
	marker := or(a.Marker, budget.DefaultMarker)
	var texts []string
	kept, truncated := 0, 0
	for i, ir := range r.Items {
		require.Equal(t, i, ir.Index, "section %s: item report %d", sec.Name, i)
		require.Equal(t, sec.Items[i].ID, ir.ID, "section %s: item report %d", sec.Name, i)
		switch ir.Status {
		case budget.Preserved:
			require.Equal(t, sec.Items[i].Text, ir.Text, "section %s item %d: preserved text", sec.Name, i)
		case budget.Truncated:
			require.True(t, cuts, "section %s item %d: cut, but %v with %v does not cut", sec.Name, i, sec.Strategy, sec.Cut)
			checkCut(t, sec.Items[i].Text, ir.Text, marker, atEnd)
			truncated++
		case budget.Dropped:
			require.Empty(t, ir.Text, "section %s item %d: dropped", sec.Name, i)
			continue
		}
		kept++
		texts = append(texts, ir.Text)
	}
	require.Equal(t, render(sec, texts), block, "section %s: block", sec.Name)
	wantStatus := budget.Truncated
	switch {
	case kept == len(sec.Items) && truncated == 0:
		wantStatus = budget.Preserved
	case kept == 0:
		wantStatus = budget.Dropped
	}
	require.Equal(t, wantStatus, r.Status, "section %s: %d of %d kept, %d cut", sec.Name, kept, len(sec.Items), truncated)
	require.LessOrEqual(t, truncated, 1, "section %s: items cut", sec.Name)
	checkUnits(t, sec, r, atEnd)
}

// checkUnits checks that the kept units are a prefix of the keep order,
// that groups are kept or dropped together, that a cut falls on the
// boundary unit's documented member, and that anchors stay whole.
func checkUnits(t *testing.T, sec budget.Section, r budget.SectionReport, atEnd bool) {
	t.Helper()
	units := keepOrder(sec)
	prefix := true
	for k, u := range units {
		dropped, cutAt := 0, -1
		for _, i := range u {
			switch r.Items[i].Status {
			case budget.Dropped:
				dropped++
			case budget.Truncated:
				cutAt = i
			}
		}
		require.True(t, dropped == 0 || dropped == len(u), "section %s: group %v split: %d of %d dropped", sec.Name, u, dropped, len(u))
		require.True(t, dropped > 0 || prefix, "section %s: unit %d of the keep order %v kept after a dropped one", sec.Name, k, units)
		if dropped > 0 {
			prefix = false
		}
		if cutAt >= 0 {
			member := u[0]
			if atEnd {
				member = u[len(u)-1]
			}
			require.Equal(t, member, cutAt, "section %s: group %v cut at the wrong member", sec.Name, u)
			require.True(t, k+1 == len(units) || r.Items[units[k+1][0]].Status == budget.Dropped,
				"section %s: unit %d cut but unit %d kept", sec.Name, k, k+1)
		}
		anchor := k == 0 && (sec.Required || sec.Strategy == budget.KeepNewest)
		require.False(t, anchor && cutAt >= 0, "section %s: anchor %v cut", sec.Name, u)
		require.False(t, k == 0 && sec.Required && dropped > 0, "section %s: required anchor %v dropped", sec.Name, u)
	}
	if sec.Strategy == budget.KeepNewest && len(units) > 0 && r.Status != budget.Dropped {
		newest := len(sec.Items) - 1
		for i := range sec.Items {
			if c := sec.Items[i].Time.Compare(sec.Items[newest].Time); c > 0 || c == 0 && i > newest {
				newest = i
			}
		}
		require.Equal(t, budget.Preserved, r.Items[newest].Status, "section %s: newest item %d while the section survives", sec.Name, newest)
	}
}

// checkMessages checks that the messages carry the kept content with the
// documented roles.
func checkMessages(t *testing.T, secs []budget.Section, res budget.Result) {
	t.Helper()
	var want []budget.Message
	for i, r := range res.Sections {
		sec := secs[i]
		if r.Start == r.End {
			continue
		}
		if sec.Role != "" {
			want = append(want, budget.Message{Role: sec.Role, Content: res.Text[r.Start:r.End], Section: sec.Name})
			continue
		}
		for j, ir := range r.Items {
			if ir.Status != budget.Dropped {
				role := or(sec.Items[j].Role, budget.DefaultRole)
				want = append(want, budget.Message{Role: role, Content: ir.Text, Section: sec.Name, ID: ir.ID})
			}
		}
	}
	require.Equal(t, want, res.Messages)
}

// checkPriority checks that shedding follows priority, against the same
// sections assembled without a limit: a section that lost content to the
// limit has only sections below it in shedding order that hold nothing
// they could give up.
func checkPriority(t *testing.T, a budget.Config, secs []budget.Section, res budget.Result) {
	t.Helper()
	free := a
	free.Limit, free.Reserve = math.MaxInt32, 0
	u, err := newAssembler(t, free).Assemble(secs...)
	require.NoError(t, err, "without a limit")
	for i, r := range res.Sections {
		ur := u.Sections[i]
		require.False(t, ur.Limited, "section %s limited without a limit", ur.Name)
		lost := res.Text[r.Start:r.End] != u.Text[ur.Start:ur.End]
		require.Equal(t, lost, r.Limited, "section %s: Limited is whether it lost content to the limit", r.Name)
		if !lost {
			continue
		}
		for j, lower := range res.Sections {
			below := lower.Priority < r.Priority || lower.Priority == r.Priority && j > i
			require.False(t, below && !atFloor(secs[j], lower),
				"section %s (priority %d) gave up content while %s (priority %d) still holds some it could give up",
				r.Name, r.Priority, lower.Name, lower.Priority)
		}
	}
}

// atFloor reports whether a section holds nothing it could give up:
// nothing at all, or, if required, only its anchor, whole.
func atFloor(sec budget.Section, r budget.SectionReport) bool {
	kept := map[int]bool{}
	for i, ir := range r.Items {
		if ir.Status == budget.Truncated {
			return false
		}
		if ir.Status == budget.Preserved {
			kept[i] = true
		}
	}
	if len(kept) == 0 {
		return true
	}
	if !sec.Required {
		return false
	}
	anchor := keepOrder(sec)[0]
	if len(anchor) != len(kept) {
		return false
	}
	for _, i := range anchor {
		if !kept[i] {
			return false
		}
	}
	return true
}

// checkRequiredTooLarge checks that an ErrRequiredTooLarge is true: some
// required anchor exceeds its section's budget, or the anchors together
// exceed the space available.
func checkRequiredTooLarge(t *testing.T, a budget.Config, secs []budget.Section) {
	t.Helper()
	var floors []string
	for _, sec := range secs {
		if !sec.Required || len(sec.Items) == 0 {
			continue
		}
		var texts []string
		for _, i := range keepOrder(sec)[0] {
			texts = append(texts, sec.Items[i].Text)
		}
		block := render(sec, texts)
		if sec.MaxTokens > 0 && a.Tokenizer.Count(block) > sec.MaxTokens {
			return
		}
		floors = append(floors, block)
	}
	text := strings.Join(floors, or(a.Separator, budget.DefaultSeparator))
	require.Greater(t, a.Tokenizer.Count(text), a.Limit-a.Reserve, "ErrRequiredTooLarge, but the required anchors fit")
}
