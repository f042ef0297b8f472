package budget

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/ragkit/ragkit/tokencount"
)

// A state is how much of a section is kept: its first k units in keep
// order, whole, and, if cut >= 0, unit k in part, cut at its cut-th
// candidate. States compare by content: (k, -1) < (k, 0) < (k, 1) < ... <
// (k+1, -1).
type state struct{ k, cut int }

// A unit is what a section keeps or drops as a whole: one item, or the
// items of one group.
type unit struct {
	items   []int // indices into Section.Items, ascending
	cutItem int   // the member a cut applies to
}

// counter counts with the Assembler's Tokenizer, remembering the counts
// of the few fixed strings (separators, headings, markers) it meets again.
// A negative count is kept as err and counts as 0, so that the assembly
// runs to its end on sane numbers and then reports it.
type counter struct {
	tok  tokencount.Tokenizer
	memo map[string]int
	err  error
}

func (c *counter) count(s string) int {
	if s == "" {
		return 0
	}
	n := c.tok.Count(s)
	if n < 0 {
		if c.err == nil {
			c.err = fmt.Errorf("%w: %d for %d bytes of text", ErrTokenizer, n, len(s))
		}
		return 0
	}
	return n
}

func (c *counter) fixed(s string) int {
	n, ok := c.memo[s]
	if !ok {
		n = c.count(s)
		c.memo[s] = n
	}
	return n
}

// A plan is one section being fitted: its units in keep order, the
// estimates that guide the search, and the exact counts that decide it.
type plan struct {
	sec    *Section
	index  int // position among Assemble's arguments
	c      *counter
	marker string

	prefix, suffix, sep string
	side                Cut // the cut the strategy allows, or NoCut
	minCut              int // the first keep position that may be cut
	floor               int // units a required section never gives up

	units []unit
	pos   []int // pos[i]: keep position of the unit holding item i

	// Estimates, filled lazily in keep order: units beyond what the
	// budget can hold are never counted.
	itemTok []int // count of each item alone; -1 until counted
	sum     []int // sum[k]: tokens of the items of units 0..k-1
	nitems  []int // nitems[k]: number of items in units 0..k-1
	ovh     int   // tokens of prefix and suffix
	sepTok  int
	markTok int

	cuts   map[int]*cutPoints // cut candidates by unit, computed on demand
	sizes  map[state]int      // exact counts of blocks
	blocks map[state]string   // rendered blocks

	budget int   // MaxTokens plus any extra from Flow; 0: none
	extra  int   // budget received from Flow
	st     state // current state
	fitted state // state after fitting to its own budget
}

func newPlan(sec *Section, index int, c *counter, marker string) *plan {
	p := &plan{sec: sec, index: index, c: c, marker: marker, sep: sec.Separator, budget: sec.MaxTokens}
	if p.sep == "" {
		p.sep = DefaultSeparator
	}
	if sec.Heading != "" {
		p.prefix = sec.Heading + "\n"
	}
	if i := strings.Index(sec.Template, Placeholder); i >= 0 {
		p.prefix = sec.Template[:i] + p.prefix
		p.suffix = sec.Template[i+len(Placeholder):]
	}
	p.side = sideOf(sec)
	p.units, p.pos = buildUnits(sec, p.side)
	if sec.Required && len(p.units) > 0 {
		p.floor, p.minCut = 1, 1
	}
	if sec.Strategy == KeepNewest {
		p.minCut = 1
	}
	p.itemTok = make([]int, len(sec.Items))
	for i := range p.itemTok {
		p.itemTok[i] = -1
	}
	p.sum, p.nitems = []int{0}, []int{0}
	p.sizes = map[state]int{{0, -1}: 0}
	p.blocks = map[state]string{}
	p.st = p.full()
	return p
}

// sideOf returns the cut that sec's strategy allows.
func sideOf(sec *Section) Cut {
	switch sec.Strategy {
	case TruncateEnd:
		return CutEnd
	case TruncateStart:
		return CutStart
	}
	return sec.Cut
}

// buildUnits groups the items and orders the units by how long they are
// kept, first to last; pos maps each item to its unit's keep position.
// A cut on side applies to a unit's first or last member.
func buildUnits(sec *Section, side Cut) ([]unit, []int) {
	items := sec.Items
	units := make([]unit, 0, len(items))
	// Single items share one backing array; only groups allocate.
	ident := make([]int, len(items))
	var group map[string]int
	for i, it := range items {
		ident[i] = i
		if it.Group != "" {
			if group == nil {
				group = map[string]int{}
			}
			if u, ok := group[it.Group]; ok {
				units[u].items = append(units[u].items, i)
				continue
			}
			group[it.Group] = len(units)
		}
		units = append(units, unit{items: ident[i : i+1 : i+1]})
	}
	units = sortUnits(sec.Strategy, items, units)
	pos := make([]int, len(items))
	for k := range units {
		u := &units[k]
		u.cutItem = u.items[0]
		if side != CutStart {
			u.cutItem = last(*u)
		}
		for _, i := range u.items {
			pos[i] = k
		}
	}
	return units, pos
}

// sortUnits orders units, which are in order of their first member, by
// how long strategy keeps them. A unit is kept as long as its
// longest-kept member would be on its own, so units compare by that
// member, tie-break included: a group tied in Rank with another unit
// takes the position of its best-ranked member. It sorts indices rather
// than units, whose slices would cost a write barrier on every move.
func sortUnits(strategy Strategy, items []Item, units []unit) []unit {
	keep := keepCompare(strategy, items)
	if keep == nil {
		return units // TruncateEnd: Items order, which units are in
	}
	best := make([]int, len(units))
	order := make([]int, len(units))
	for k, u := range units {
		best[k] = u.items[0]
		for _, i := range u.items[1:] {
			if keep(i, best[k]) < 0 {
				best[k] = i
			}
		}
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int { return keep(best[a], best[b]) })
	sorted := make([]unit, len(units))
	for k, u := range order {
		sorted[k] = units[u]
	}
	return sorted
}

// keepCompare returns the order in which strategy keeps single items:
// negative if item i is kept longer than item j. It is total (ties in
// Rank or Time are broken by position), so the order of units needs no
// stable sort. It returns nil for TruncateEnd, which keeps Items order.
func keepCompare(strategy Strategy, items []Item) func(i, j int) int {
	switch strategy {
	case TruncateStart:
		return func(i, j int) int { return cmp.Compare(j, i) }
	case DropLowestRank:
		return func(i, j int) int { return cmp.Or(cmp.Compare(items[j].Rank, items[i].Rank), cmp.Compare(i, j)) }
	case DropOldest, KeepNewest:
		return func(i, j int) int { return compareAge(items, j, i) }
	}
	return nil
}

func last(u unit) int { return u.items[len(u.items)-1] }

// compareAge compares items i and j by Time, then by position: a later
// item is newer.
func compareAge(items []Item, i, j int) int {
	if c := items[i].Time.Compare(items[j].Time); c != 0 {
		return c
	}
	return cmp.Compare(i, j)
}

// full is the state that keeps everything.
func (p *plan) full() state { return state{len(p.units), -1} }

func (p *plan) floorState() state { return state{p.floor, -1} }

// cuttable reports whether unit k exists and may be kept in part.
func (p *plan) cuttable(k int) bool {
	return p.side != NoCut && k >= p.minCut && k < len(p.units)
}

// ensure counts the units up to keep position k (exclusive).
func (p *plan) ensure(k int) {
	if len(p.sum) == 1 && k > 0 {
		p.countFixed()
	}
	for u := len(p.sum) - 1; u < k; u++ {
		t := 0
		for _, i := range p.units[u].items {
			t += p.item(i)
		}
		p.sum = append(p.sum, p.sum[u]+t)
		p.nitems = append(p.nitems, p.nitems[u]+len(p.units[u].items))
	}
}

// countFixed counts the parts of the block that do not depend on the
// state, on the first estimate: sections that never need one never count
// them.
func (p *plan) countFixed() {
	p.ovh = p.c.fixed(p.prefix) + p.c.fixed(p.suffix)
	p.sepTok = p.c.fixed(p.sep)
	if len(p.units) > 1 {
		// What a join adds in place: the separator often merges with the
		// end of the text before it ("." and "\n\n" are one token of
		// cl100k_base), and a join costed at the separator's own count
		// would overestimate every block by a token per item. One count
		// of the first two items joined calibrates it.
		a, b := p.units[0].items[0], p.units[1].items[0]
		j := p.c.count(p.sec.Items[a].Text+p.sep+p.sec.Items[b].Text) - p.item(a) - p.item(b)
		p.sepTok = max(j, -1) // -1 at most: estimates must not fall as items are added
	}
	switch p.side {
	case CutStart:
		p.markTok = p.c.fixed(p.marker + " ")
	case CutEnd:
		p.markTok = p.c.fixed(" " + p.marker)
	}
}

func (p *plan) item(i int) int {
	if p.itemTok[i] < 0 {
		p.itemTok[i] = p.c.count(p.sec.Items[i].Text)
	}
	return p.itemTok[i]
}

// small reports whether the section's whole block is so short that it
// likely fits budget: no longer than four bytes per token, about the
// average of English text. It only chooses where the search starts.
func (p *plan) small(budget int) bool {
	n := len(p.prefix) + len(p.suffix) + len(p.sep)*len(p.sec.Items)
	for _, it := range p.sec.Items {
		if n += len(it.Text); n/4 > budget { // not n > 4*budget, which overflows
			return false
		}
	}
	return true
}

// est estimates the tokens of the section's block in state st: the sum of
// its parts, which is close to but not always the exact count.
func (p *plan) est(st state) int {
	if st.k == 0 && st.cut < 0 {
		return 0
	}
	n := st.k
	if st.cut >= 0 {
		n++
	}
	p.ensure(n)
	t := p.ovh + p.sum[n] + (p.nitems[n]-1)*p.sepTok
	if st.cut >= 0 {
		c := p.cutsFor(st.k)
		t += c.est(st.cut, p.markTok) - p.item(p.units[st.k].cutItem)
	}
	return t
}

// size returns the exact count of the block in state st.
func (p *plan) size(st state) int {
	n, ok := p.sizes[st]
	if !ok {
		if i, one := p.single(st); one {
			n = p.item(i) // the same string: a huge item is counted once
		} else {
			n = p.c.count(p.render(st))
		}
		p.sizes[st] = n
	}
	return n
}

// single reports whether the block of state st is exactly the text of
// one whole item, and which: no heading, no template, one unit of one
// item.
func (p *plan) single(st state) (int, bool) {
	if st != (state{1, -1}) || p.prefix != "" || p.suffix != "" || len(p.units[0].items) != 1 {
		return 0, false
	}
	return p.units[0].items[0], true
}

// bytes returns the length of the section's block in its current state;
// a section kept whole is not rendered for it.
func (p *plan) bytes() int {
	if p.st != p.full() || len(p.units) == 0 {
		return len(p.block())
	}
	n := len(p.prefix) + len(p.suffix) + len(p.sep)*(len(p.sec.Items)-1)
	for _, it := range p.sec.Items {
		n += len(it.Text)
	}
	return n
}

// block returns the section's block in its current state.
func (p *plan) block() string { return p.render(p.st) }

// render returns the section's block in state st.
func (p *plan) render(st state) string {
	if st.k == 0 && st.cut < 0 {
		return ""
	}
	if s, ok := p.blocks[st]; ok {
		return s
	}
	s := p.renderNew(st)
	p.blocks[st] = s
	return s
}

func (p *plan) renderNew(st state) string {
	if i, one := p.single(st); one {
		return p.sec.Items[i].Text // no copy of what may be a huge item
	}
	var b strings.Builder
	b.WriteString(p.prefix)
	for j, i := range p.keptItems(st) {
		if j > 0 {
			b.WriteString(p.sep)
		}
		text, _ := p.itemText(st, i)
		b.WriteString(text)
	}
	b.WriteString(p.suffix)
	return b.String()
}

// keptItems returns the indices of the items kept in state st, in Items
// order. It looks only at the kept units, not at every item.
func (p *plan) keptItems(st state) []int {
	n := st.k
	if st.cut >= 0 {
		n++
	}
	var idx []int
	for _, u := range p.units[:n] {
		idx = append(idx, u.items...)
	}
	slices.Sort(idx)
	return idx
}

// itemText returns item i's text as kept in state st, and whether it is kept.
func (p *plan) itemText(st state, i int) (string, bool) {
	u := p.pos[i]
	switch {
	case u < st.k:
		return p.sec.Items[i].Text, true
	case u == st.k && st.cut >= 0:
		if i != p.units[u].cutItem {
			return p.sec.Items[i].Text, true
		}
		return p.cutsFor(u).kept(st.cut, p.marker), true
	}
	return "", false
}

// spansKept sets kept[j] to whether item i's text keeps its j'th
// protected span whole in the current state, where it has status st.
func (p *plan) spansKept(i int, st Status, kept []bool) {
	switch st {
	case Preserved:
		for j := range kept {
			kept[j] = true
		}
	case Truncated:
		if c := p.cutsFor(p.st.k); c.keep != nil {
			c.keep.held(p.st.cut, p.sec.Items[i].Keep, kept)
		}
	}
}

// itemStatus reports how item i fares in the current state.
func (p *plan) itemStatus(i int) Status {
	u := p.pos[i]
	switch {
	case u < p.st.k:
		return Preserved
	case u == p.st.k && p.st.cut >= 0:
		if i == p.units[u].cutItem {
			return Truncated
		}
		return Preserved
	}
	return Dropped
}

func (p *plan) cutsFor(k int) *cutPoints {
	c, ok := p.cuts[k]
	if !ok {
		if p.cuts == nil {
			p.cuts = map[int]*cutPoints{}
		}
		i := p.units[k].cutItem
		it := &p.sec.Items[i]
		c = newCutPoints(p.c.tok, it.Text, p.item(i), p.side, it.Keep)
		p.cuts[k] = c
	}
	return c
}
