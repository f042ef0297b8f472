package budget

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// Assemble fits the sections into Limit - Reserve tokens and returns the
// assembled prompt with a report. Sections appear in the text in the
// order given, each as its rendered block (see [Section]), joined by
// Separator; sections left without content are omitted.
//
// It works in two steps. First each section with a MaxTokens is fitted to
// it by its strategy. Then, if the whole still exceeds Limit - Reserve,
// sections give up content in ascending Priority (among equal priorities,
// the section listed later first): the lowest one is shed as far as it
// may be (to nothing, or to its anchor if it is Required) before the next
// one gives up anything, and the section that makes the whole fit keeps
// as much as fits. With [Config.Flow], unused budget flows to cut
// sections between the two steps.
//
// Every decision is checked with the Tokenizer's exact count of the
// string it is about: a section's block against its budget, the whole
// text against the limit. Estimates from counting each item once only
// guide the search, so that exact passes over the text stay few, and
// items that their section's budget cannot reach are never counted.
//
// Bad sections return a zero Result and an error wrapping one of the
// package's sentinel errors; so does an Assembler not made by [New] (the
// zero Assembler, or nil), with [ErrConfig], and a Tokenizer that
// returns a negative count, with [ErrTokenizer]. If required content
// cannot fit, the error wraps [ErrRequiredTooLarge] and the Result is
// still complete: it holds the smallest assembly the rules allow, whose
// Tokens exceed the space available or a required section's budget, with
// the report.
func (a *Assembler) Assemble(sections ...Section) (Result, error) {
	if a == nil {
		return Result{}, errNoTokenizer
	}
	if err := validate(a.cfg); err != nil {
		return Result{}, err // an Assembler not made by New
	}
	if err := validateSections(sections); err != nil {
		return Result{}, err
	}
	as := newAssembly(a.cfg, sections)
	errs := as.fitBudgets()
	if a.cfg.Flow {
		as.flow()
	}
	for _, p := range as.plans {
		p.fitted = p.st
	}
	if err := as.shed(); err != nil {
		errs = append(errs, err)
	}
	res := as.result()
	if as.c.err != nil {
		return Result{}, as.c.err
	}
	return res, errors.Join(errs...)
}

// An assembly is one call of Assemble in progress.
type assembly struct {
	cfg    Config
	c      *counter
	plans  []*plan
	avail  int
	sep    string
	total  int // exact count of the text in the plans' current states
	blocks []string
}

func newAssembly(cfg Config, sections []Section) *assembly {
	as := &assembly{cfg: cfg, avail: cfg.Limit - cfg.Reserve, sep: cfg.Separator}
	if as.sep == "" {
		as.sep = DefaultSeparator
	}
	marker := cfg.Marker
	if marker == "" {
		marker = DefaultMarker
	}
	as.c = &counter{tok: cfg.Tokenizer, memo: map[string]int{}}
	as.plans = make([]*plan, len(sections))
	for i := range sections {
		as.plans[i] = newPlan(&sections[i], i, as.c, marker)
	}
	as.blocks = make([]string, len(sections))
	return as
}

// fitBudgets fits each section with a MaxTokens to it.
func (as *assembly) fitBudgets() []error {
	var errs []error
	for _, p := range as.plans {
		if p.budget == 0 {
			continue
		}
		st, err := p.fitBudget(p.budget)
		if err != nil {
			errs = append(errs, err)
		}
		p.st = st
	}
	return errs
}

// fitBudget returns the largest state of p whose block fits budget. If
// not even the floor fits, it returns the floor and an error.
func (p *plan) fitBudget(budget int) (state, error) {
	fits := func(st state) (int, bool) {
		n := p.size(st)
		return n, n <= budget
	}
	top := state{len(p.units) + 1, -1} // nothing known above the floor
	if p.small(budget) {
		// A section that likely fits whole is checked whole, with one
		// count and no count per item.
		if _, ok := fits(p.full()); ok {
			return p.full(), nil
		}
		top = p.full()
	}
	fl := p.floorState()
	if n, ok := fits(fl); !ok {
		return fl, fmt.Errorf("%w: section %q: its required anchor has %d tokens, more than its budget of %d",
			ErrRequiredTooLarge, p.sec.Name, n, budget)
	}
	return p.search(top, budget, 0, fits), nil
}

// flow gives the budget that sections left unused to sections that were
// cut to their budget, highest priority first.
func (as *assembly) flow() {
	pool := 0
	for _, p := range as.plans {
		if p.sec.MaxTokens > 0 {
			pool = addSat(pool, max(0, p.sec.MaxTokens-p.size(p.st)))
		}
	}
	order := slices.Clone(as.plans)
	slices.SortStableFunc(order, func(a, b *plan) int { return cmp.Compare(b.sec.Priority, a.sec.Priority) })
	for _, p := range order {
		if pool <= 0 {
			return
		}
		if p.sec.MaxTokens == 0 || p.st == p.full() || p.size(p.st) > p.sec.MaxTokens {
			continue // no budget, nothing cut, or a required anchor over its budget
		}
		used := p.size(p.st)
		st, err := p.fitBudget(addSat(used, pool))
		if err != nil || !less(p.st, st) {
			continue
		}
		pool -= p.size(st) - used
		p.st = st
		p.extra = max(0, p.size(st)-p.sec.MaxTokens)
		p.budget = p.sec.MaxTokens + p.extra
	}
}

// addSat returns a + b for a, b >= 0, or math.MaxInt if that overflows:
// budgets of math.MaxInt mean "no limit" and must not wrap around.
func addSat(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

// less reports whether state a keeps less than state b.
func less(a, b state) bool { return a.k < b.k || a.k == b.k && a.cut < b.cut }

// shed makes the whole fit Limit - Reserve, taking content from sections
// in ascending priority: every section before the one whose shedding
// makes the whole fit goes to its floor, and that one keeps as much as
// fits. That section is found by bisection over the order, so the whole
// is measured O(log n) times for n sections, not once per section.
//
// A whole so long that it cannot fit but at more than eight bytes a
// token (ordinary text has about four) is not counted at all: the search
// that fills the space starts without it, from the estimates, and
// measures only what it keeps and the next larger state. Were it to fit
// after all, the search would find so: exactness does not depend on the
// guess, only the work does.
func (as *assembly) shed() error {
	total, known := 0, as.bytes()/8 <= as.avail
	if known {
		if total = as.measure(); total <= as.avail {
			return nil
		}
	}
	order := slices.Clone(as.plans)
	slices.SortFunc(order, func(a, b *plan) int {
		return cmp.Or(cmp.Compare(a.sec.Priority, b.sec.Priority), cmp.Compare(b.index, a.index))
	})
	var cand []*plan // the sections that have something to shed, in order
	var tops []state // their states before shedding
	for _, p := range order {
		if p.st != p.floorState() {
			cand, tops = append(cand, p), append(tops, p.st)
		}
	}
	// shedTo puts cand[:j] at their floors and the rest at their tops, and
	// measures the whole.
	shedTo := func(j int) int {
		for i, p := range cand {
			p.st = tops[i]
			if i < j {
				p.st = p.floorState()
			}
		}
		return as.measure()
	}
	if len(cand) == 0 || shedTo(len(cand)) > as.avail {
		return fmt.Errorf("%w: %d tokens with every section shed as far as allowed, %d available (Limit %d - Reserve %d)",
			ErrRequiredTooLarge, as.total, as.avail, as.cfg.Limit, as.cfg.Reserve)
	}
	// The fewest sections shed (j of them) that make the whole fit; the
	// whole shrinks as more are shed.
	j := sort.Search(len(cand), func(j int) bool { return shedTo(j+1) <= as.avail }) + 1
	p := cand[j-1]
	topTotal, top := total, tops[j-1]
	switch {
	case j > 1:
		topTotal = shedTo(j - 1)
	case !known && top != p.full():
		topTotal = shedTo(0) // a state cut to its budget: measure it after all
	case !known:
		top = state{len(p.units) + 1, -1} // nothing known above the floor
	}
	fl := p.floorState()
	p.st = fl
	totals := map[state]int{fl: as.measure()}
	size := func(st state) (int, bool) {
		p.st = st
		n := as.measure()
		totals[st] = n
		return n, n <= as.avail && (p.budget == 0 || p.size(st) <= p.budget)
	}
	// The exact counts of top, or of the floor when top was not counted,
	// give the first guess of what the other sections and the joins add
	// to p's block.
	var corr int
	if top.k <= len(p.units) {
		corr = topTotal - p.size(top)
	} else if corr = totals[fl]; fl != (state{0, -1}) {
		corr -= p.size(fl)
	} else if corr > 0 {
		corr += as.c.fixed(as.sep) // p's block will be joined to the others'
	}
	p.st = p.search(top, as.avail, corr, size)
	as.total = totals[p.st]
	return nil
}

// bytes returns the length of the text in the plans' current states,
// without rendering sections kept whole.
func (as *assembly) bytes() int {
	n := 0
	for _, p := range as.plans {
		if b := p.bytes(); b > 0 {
			n += b + len(as.sep)
		}
	}
	return n
}

// render renders the text from the plans' current states and returns it
// with each section's span in it.
func (as *assembly) render() (string, [][2]int) {
	n := 0
	for i, p := range as.plans {
		as.blocks[i] = p.block()
		n += len(as.blocks[i]) + len(as.sep)
	}
	var b strings.Builder
	b.Grow(n)
	spans := make([][2]int, len(as.plans))
	for i, blk := range as.blocks {
		if blk == "" {
			spans[i] = [2]int{b.Len(), b.Len()}
			continue
		}
		if b.Len() > 0 {
			b.WriteString(as.sep)
		}
		spans[i] = [2]int{b.Len(), b.Len() + len(blk)}
		b.WriteString(blk)
	}
	return b.String(), spans
}

// measure counts the text of the plans' current states exactly. A text
// that is one section's block is that block's count, which the section
// remembers: it is not counted twice.
func (as *assembly) measure() int {
	if p := as.only(); p != nil {
		as.total = p.size(p.st)
		return as.total
	}
	text, _ := as.render()
	as.total = as.c.count(text)
	return as.total
}

// only returns the plan whose block is the whole text, if one is the
// only plan that renders something, or nil.
func (as *assembly) only() *plan {
	var only *plan
	for _, p := range as.plans {
		if p.st == (state{0, -1}) {
			continue // renders nothing
		}
		if only != nil {
			return nil
		}
		only = p
	}
	return only
}

// result builds the Result from the plans' current states.
func (as *assembly) result() Result {
	text, spans := as.render()
	res := Result{Text: text, Tokens: as.total, Limit: as.cfg.Limit, Reserve: as.cfg.Reserve}
	res.Sections = make([]SectionReport, len(as.plans))
	for i, p := range as.plans {
		res.Sections[i] = p.report(spans[i])
		res.Messages = p.appendMessages(res.Messages)
	}
	res.Warnings = as.warnings()
	return res
}

func (p *plan) report(span [2]int) SectionReport {
	r := SectionReport{
		Name: p.sec.Name, Priority: p.sec.Priority, Required: p.sec.Required,
		Budget: p.sec.MaxTokens, Extra: p.extra,
		Tokens: p.size(p.st), Start: span[0], End: span[1],
		Limited: p.st != p.fitted,
		Items:   make([]ItemReport, len(p.sec.Items)),
	}
	nkeep := 0
	for _, it := range p.sec.Items {
		nkeep += len(it.Keep)
	}
	kept := make([]bool, nkeep) // one allocation for all the items' SpansKept
	for i, it := range p.sec.Items {
		text, _ := p.itemText(p.st, i)
		r.Items[i] = ItemReport{Index: i, ID: it.ID, Status: p.itemStatus(i), Text: text}
		if n := len(it.Keep); n > 0 {
			r.Items[i].SpansKept = kept[:n:n]
			p.spansKept(i, r.Items[i].Status, kept[:n])
			kept = kept[n:]
		}
	}
	switch {
	case p.st == p.full():
		r.Status = Preserved
	case p.st == state{0, -1}:
		r.Status = Dropped
	default:
		r.Status = Truncated
	}
	return r
}

func (p *plan) appendMessages(msgs []Message) []Message {
	blk := p.block()
	if blk == "" {
		return msgs
	}
	if p.sec.Role != "" {
		return append(msgs, Message{Role: p.sec.Role, Content: blk, Section: p.sec.Name})
	}
	for i, it := range p.sec.Items {
		text, ok := p.itemText(p.st, i)
		if !ok {
			continue
		}
		role := it.Role
		if role == "" {
			role = DefaultRole
		}
		msgs = append(msgs, Message{Role: role, Content: text, Section: p.sec.Name, ID: it.ID})
	}
	return msgs
}

// warnings lists, section by section, what a caller may not expect.
func (as *assembly) warnings() []string {
	var w, limited []string
	for _, p := range as.plans {
		name := p.sec.Name
		if p.sec.MaxTokens > 0 && len(p.units) > 0 && p.fitted == (state{0, -1}) {
			w = append(w, p.droppedWhy())
		}
		if p.st.cut >= 0 && p.st.cut < p.cutsFor(p.st.k).words {
			it := p.units[p.st.k].cutItem
			w = append(w, fmt.Sprintf("section %q: item %d (ID %q) cut inside a sentence: not even one sentence fit", name, it, p.sec.Items[it].ID))
		}
		if p.st != p.fitted {
			limited = append(limited, fmt.Sprintf("%q", name))
		}
	}
	if limited != nil {
		w = append(w, fmt.Sprintf("sections that gave up content to fit the limit of %d tokens (Limit %d - Reserve %d): %s",
			as.avail, as.cfg.Limit, as.cfg.Reserve, strings.Join(limited, ", ")))
	}
	return w
}

// droppedWhy says why a section with items kept none of them within its
// own budget: its heading and template alone exceed it, or the first unit
// of its keep order does not fit whole and cannot be cut to fit.
func (p *plan) droppedWhy() string {
	name := p.sec.Name
	if ovh := p.c.fixed(p.prefix) + p.c.fixed(p.suffix); ovh > p.budget {
		return fmt.Sprintf("section %q: its heading and template take %d tokens, more than its budget of %d", name, ovh, p.budget)
	}
	u := p.units[0]
	what := fmt.Sprintf("item %d (ID %q)", u.items[0], p.sec.Items[u.items[0]].ID)
	if len(u.items) > 1 {
		what = fmt.Sprintf("group %q (%d items)", p.sec.Items[u.items[0]].Group, len(u.items))
	}
	var why string
	switch {
	case p.side == NoCut:
		why = "its Cut is NoCut"
	case !p.cuttable(0):
		why = "the newest item is never cut"
	case p.cutsFor(0).n() == 0:
		why = "it has no sentence or word boundary to cut at"
	case p.c.fixed(p.marker) > p.budget:
		why = fmt.Sprintf("the marker %q alone takes %d tokens", p.marker, p.c.fixed(p.marker))
	default:
		why = "not even its shortest cut fits"
	}
	return fmt.Sprintf("section %q: dropped whole: %s, the first to keep, takes %d tokens, more than its budget of %d, and %s",
		name, what, p.size(state{1, -1}), p.budget, why)
}
