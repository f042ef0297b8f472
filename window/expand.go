package window

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
)

// defaultSize is the number of units on each side of a hit when
// ExpanderConfig sets neither Size nor Before and After.
const defaultSize = 3

// ExpanderConfig configures an [Expander]. The zero value of every field
// is the default; Expand needs a Source.
type ExpanderConfig struct {
	// Source gives the units around a hit, for [Expander.Expand], which
	// refuses to run without one. Leave it nil for an Expander that
	// package retrieve's Retriever widens with: the Retriever hands it its
	// store, behind its filter, through [Expander.Widen].
	Source Source
	// Size is the number of units a window takes on each side of a hit:
	// a window of Size w holds w units before the hit and w after.
	// Zero means 3, unless Before or After is set.
	Size int
	// Before and After, if either is set, are the numbers of units a
	// window takes before and after a hit (0: none on that side), in
	// place of Size, which must then be zero: {Before: 2} takes two units
	// before each hit and none after.
	Before, After int
	// Tokenizer counts each window's Tokens. Required with MaxTokens or
	// MaxTotalTokens; without it Tokens is 0.
	Tokenizer tokencount.Tokenizer
	// MaxTokens, if positive, caps each window: it grows outward from its
	// hit, one unit at a time on alternate sides, while the exact count of
	// its text stays within MaxTokens. The window is found with O(log n)
	// counts, not one per unit, assuming that adding a unit never lowers
	// the count; a window never exceeds the cap, whatever the Tokenizer. A hit that alone counts more is
	// returned alone, marked Oversized. Windows that touch are merged only
	// where the merged text fits too.
	MaxTokens int
	// MaxTotalTokens, if positive, caps the sum of the windows' Tokens:
	// windows are kept in order of their best hit until it is spent; the
	// first that does not fit is cut toward its best hit to what remains,
	// marked Trimmed, and the rest are dropped.
	MaxTotalTokens int
	// WithinSections keeps each window inside its hit's section: a window
	// never joins two neighbouring units whose Section paths differ, so
	// it stops at every change of section, and windows that touch across
	// one are not merged. ingest stores each record's section path in the
	// documents' outlines (Markdown ATX and setext headings and plain-text
	// headings alike: a heading's unit opens its section). False: windows
	// cross sections.
	WithinSections bool
	// SectionKey, if set, does the same for a key of the caller's
	// Metadata: a window stops where the units' values under it differ
	// (a page number, a speaker). Empty: no key stops a window.
	SectionKey string
	// Separator, if not empty, joins the units' texts in place of the
	// original text between them.
	Separator string
}

// Expander turns the hits of a query into windows of neighbouring units:
// sentence-window retrieval. It is safe for concurrent use if its Source
// and Tokenizer are. The zero Expander returns an error wrapping
// [ErrConfig].
type Expander struct {
	cfg ExpanderConfig // with Before and After resolved from Size
}

// NewExpander returns an Expander configured by cfg. A negative setting, Size with Before or After, or a cap without a
// Tokenizer gives an error wrapping [ErrConfig].
func NewExpander(cfg ExpanderConfig) (*Expander, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	e := &Expander{cfg: cfg}
	if cfg.Before == 0 && cfg.After == 0 {
		size := cmp.Or(cfg.Size, defaultSize)
		e.cfg.Before, e.cfg.After = size, size
	}
	e.cfg.Size = 0
	return e, nil
}

// check returns what is wrong with cfg, if anything.
func (cfg *ExpanderConfig) check() error {
	for _, f := range []struct {
		name  string
		value int
	}{{"Size", cfg.Size}, {"Before", cfg.Before}, {"After", cfg.After}, {"MaxTokens", cfg.MaxTokens}, {"MaxTotalTokens", cfg.MaxTotalTokens}} {
		if f.value < 0 {
			return configError(f.name, f.value, "must be 0 or more")
		}
	}
	switch {
	case cfg.Size != 0 && (cfg.Before != 0 || cfg.After != 0):
		return configError("Size", cfg.Size, "must be 0 when Before or After is set")
	case (cfg.MaxTokens > 0 || cfg.MaxTotalTokens > 0) && cfg.Tokenizer == nil:
		return configError("Tokenizer", nil, "is required with MaxTokens or MaxTotalTokens")
	}
	return nil
}

// Config returns the configuration of e with its defaults resolved:
// Before and After are the numbers of units used, and Size is zero.
func (e *Expander) Config() ExpanderConfig { return e.cfg }

// Expand returns the windows around hits, best first. Hits are the hits of
// a query, best first, as a VectorStore's Query returns them; a repeated
// ID counts once. Each document is read with one Range call covering all
// its hits' windows, from Before units before its first hit to After units
// after its last, so the units read grow with the distance between them.
// Within a document the windows of the best hits are grown first; windows
// that overlap or touch are merged into one (so
// nothing reaches the model twice), windows of different documents never
// are, and no window reaches past its document's first or last unit.
// The windows are ordered by their best hit's score (ties by the order of
// the hits).
//
// Without a Source it returns an error wrapping [ErrConfig]. A hit whose
// document or unit is gone from the Source (deleted after the query)
// gives a window of the hit alone, marked Vanished, not an error. Another error of the Source stops Expand and is returned wrapping
// [ErrSource] with the document's ID; a cancelled ctx stops it with ctx's
// error. A hit without DocID or ID, or with a negative Index, gives
// [ErrInvalidHit].
func (e *Expander) Expand(ctx context.Context, hits []vectorstore.Hit) ([]Window, error) {
	if e == nil || e.cfg.Source == nil {
		return nil, errNoSource
	}
	docs, err := groupHits(hits)
	if err != nil {
		return nil, err
	}
	out := make([]placed, 0, len(hits))
	var owner []int
	for _, d := range docs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		units, err := fetch(ctx, e.cfg.Source, d.docID, max(0, d.lo-e.cfg.Before), addSat(d.hi, e.cfg.After))
		if err != nil {
			return nil, err
		}
		owner = slices.Grow(owner[:0], len(units))[:len(units)]
		out = e.expandDoc(out, d, units, owner)
	}
	slices.SortFunc(out, byScore)
	return e.budget(out), nil
}

// byScore orders windows by their best hit's score, then by its rank.
func byScore(a, b placed) int {
	if c := cmpScore(a.Score, b.Score); c != 0 {
		return c
	}
	return a.rank - b.rank
}

// cmpScore orders scores from the best.
func cmpScore(a, b float32) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// sortHits orders hits best first and returns the best score.
func sortHits(hits []vectorstore.Hit) float32 {
	slices.SortStableFunc(hits, func(a, b vectorstore.Hit) int { return cmpScore(a.Score, b.Score) })
	if len(hits) == 0 {
		return 0
	}
	return hits[0].Score
}

// placed is a window under construction: units[lo..hi] of its document,
// rank the rank of its best hit.
type placed struct {
	Window
	units  []vectorstore.Record
	lo, hi int
	best   int // position of the best hit
	rank   int
}

// expandDoc grows the windows of one document's hits, best hit first, and
// merges those that touch. owner is scratch space, one int per unit: the window (in ws) that holds
// each unit, or -1.
func (e *Expander) expandDoc(out []placed, d *docHits, units []vectorstore.Record, owner []int) []placed {
	for i := range owner {
		owner[i] = -1
	}
	var ws []placed
	for _, k := range byHitScore(d) {
		h := d.hits[k]
		p := -1
		if units != nil {
			p = find(units, &h)
		}
		if p < 0 {
			out = append(out, placed{Window: vanishedWindow(h, e.cfg.Tokenizer), rank: d.ranks[k], lo: -1})
			continue
		}
		o := owner[p]
		if o < 0 {
			o = len(ws)
			ws = append(ws, placed{units: units, lo: p, hi: p, best: p, rank: d.ranks[k], Window: Window{Score: h.Score}})
			owner[p] = o
			if e.cfg.MaxTokens > 0 && e.cfg.Tokenizer.Count(units[p].Text) > e.cfg.MaxTokens {
				ws[o].Oversized = true
			}
		}
		w := &ws[o]
		w.Hits = append(w.Hits, h)
		if !w.Oversized {
			e.grow(w, owner, o, e.cfg.MaxTokens, units[p].Index)
		}
		for i := w.lo; i <= w.hi; i++ {
			owner[i] = o
		}
	}
	for _, w := range e.merge(ws) {
		out = append(out, e.finish(w))
	}
	return out
}

// grow extends w (window number self) outward, alternating sides, to the
// units within Before and After of a hit's Index, inside the document,
// its section and the token cap (0: none), without entering units that
// owner gives to another window.
//
// With a cap it takes what a walk of one unit at a time, alternating
// sides and stopping a side at the first unit that does not fit, would
// take, without counting the window after each unit: the number of
// alternating steps that fit is found by doubling and then bisection, the
// side whose next step did not fit stops, and the other side's further
// steps are found the same way. That takes O(log n) counts of at most
// twice the window's text, on the assumption that adding a unit never
// lowers the count, which holds for any tokenizer that counts a text's
// tokens. Only windows that were counted and fit are ever taken, so a
// window fits its cap whatever the tokenizer does; with one whose count
// can fall as the text grows it may stop earlier than the walk would.
func (e *Expander) grow(w *placed, owner []int, self, limit, idx int) {
	left := reach{e: e, w: w, owner: owner, self: self, bound: idx - e.cfg.Before, dir: -1}
	right := reach{e: e, w: w, owner: owner, self: self, bound: addSat(idx, e.cfg.After), dir: 1}
	if limit <= 0 {
		w.lo, w.hi = w.lo-left.upTo(math.MaxInt), w.hi+right.upTo(math.MaxInt)
		return
	}
	fits := func(l, r int) bool {
		return e.cfg.Tokenizer.Count(join(w.units, w.lo-l, w.hi+r, e.cfg.Separator)) <= limit
	}
	sides := func(t int) (l, r int) { return alternate(t, left.upTo(t), right.upTo(t)) }
	t := longest(func(c int) int { return min(c, left.upTo(c)+right.upTo(c)) },
		func(t int) bool { return fits(sides(t)) })
	l, r := sides(t)
	if t < min(t+1, left.upTo(t+1)+right.upTo(t+1)) { // step t+1 exists and did not fit: its side stops
		if l1, _ := sides(t + 1); l1 > l {
			r += longest(func(c int) int { return right.upTo(addSat(r, c)) - r }, func(x int) bool { return fits(l, r+x) })
		} else {
			l += longest(func(c int) int { return left.upTo(addSat(l, c)) - l }, func(x int) bool { return fits(l+x, r) })
		}
	}
	w.lo, w.hi = w.lo-l, w.hi+r
}

// alternate returns how many of t steps, taken alternately left and
// right (left first) while each side has steps left, fall on each side,
// when nl steps are possible on the left and nr on the right (or, for
// either, at least t).
func alternate(t, nl, nr int) (l, r int) {
	a := min(nl, nr)
	switch {
	case t <= 2*a:
		return (t + 1) / 2, t / 2
	case nl > nr:
		return t - a, a
	}
	return a, t - a
}

// longest returns the largest t for which fits holds, among the steps
// that avail(c) says exist (it returns their number, capped at c), taking
// t = 0 to fit: it doubles t while fits holds, then bisects, so it calls
// fits O(log t) times and avail with c at most twice the result.
func longest(avail func(c int) int, fits func(t int) bool) int {
	good, bad := 0, 0
	for c := 1; ; c = addSat(c, c) {
		top := min(c, avail(c))
		if top <= good {
			return good
		}
		if !fits(top) {
			bad = top
			break
		}
		good = top
		if top < c {
			return good
		}
	}
	for bad-good > 1 {
		mid := good + (bad-good)/2
		if fits(mid) {
			good = mid
		} else {
			bad = mid
		}
	}
	return good
}

// reach finds, lazily, how many units a window may take on one side
// (dir -1 left, +1 right) by every bound but the token cap: the document,
// the hit's Before or After, the section, and the other windows.
type reach struct {
	e     *Expander
	w     *placed
	owner []int
	self  int
	bound int // the last Index the side may take
	dir   int
	n     int // units found so far
	done  bool
}

// upTo returns the number of units the side may take, capped at c.
func (s *reach) upTo(c int) int {
	units := s.w.units
	for s.n < c && !s.done {
		edge := s.w.lo - s.n // the unit next to q, inside the window
		if s.dir > 0 {
			edge = s.w.hi + s.n
		}
		q := edge + s.dir
		switch {
		case q < 0 || q >= len(units),
			s.owner != nil && s.owner[q] >= 0 && s.owner[q] != s.self,
			s.dir < 0 && (units[q].Index < s.bound || !s.e.sameSection(units, q, edge)),
			s.dir > 0 && (units[q].Index > s.bound || !s.e.sameSection(units, edge, q)):
			s.done = true
		default:
			s.n++
		}
	}
	return min(s.n, c)
}

// byHitScore returns the positions of d's hits, best score first (ties by
// rank).
func byHitScore(d *docHits) []int {
	order := make([]int, len(d.hits))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpScore(d.hits[a].Score, d.hits[b].Score) })
	return order
}

// sameSection reports whether units a and b = a+1 may share a window.
func (e *Expander) sameSection(units []vectorstore.Record, a, b int) bool {
	if e.cfg.WithinSections && !slices.Equal(units[a].Section, units[b].Section) {
		return false
	}
	k := e.cfg.SectionKey
	return k == "" || units[a].Metadata[k] == units[b].Metadata[k]
}

// merge joins windows of one document that overlap or touch, where the
// section and the token cap allow.
func (e *Expander) merge(ws []placed) []placed {
	if len(ws) < 2 {
		return ws
	}
	slices.SortFunc(ws, func(a, b placed) int { return a.lo - b.lo })
	out := ws[:1]
	for _, w := range ws[1:] {
		last := &out[len(out)-1]
		if w.lo <= last.hi+1 && e.sameSection(w.units, last.hi, w.lo) && e.fits(w.units, last.lo, max(last.hi, w.hi)) {
			e.absorb(last, w)
			continue
		}
		out = append(out, w)
	}
	return out
}

func (e *Expander) fits(units []vectorstore.Record, lo, hi int) bool {
	return e.cfg.MaxTokens <= 0 || e.cfg.Tokenizer.Count(join(units, lo, hi, e.cfg.Separator)) <= e.cfg.MaxTokens
}

// absorb merges w into last, keeping the better hit as the best.
func (e *Expander) absorb(last *placed, w placed) {
	last.hi = max(last.hi, w.hi)
	if w.Score > last.Score || w.Score == last.Score && w.rank < last.rank {
		last.rank, last.best, last.Score = w.rank, w.best, w.Score
	}
	last.Hits = append(last.Hits, w.Hits...)
	last.Oversized = false
}

// finish fills in the window's text, offsets, count and hits in order.
func (e *Expander) finish(w placed) placed {
	w.DocID = w.units[w.lo].DocID
	w.First, w.Last = w.units[w.lo].Index, w.units[w.hi].Index
	w.Start, w.End = span(w.units, w.lo, w.hi)
	w.Text = join(w.units, w.lo, w.hi, e.cfg.Separator)
	if e.cfg.Tokenizer != nil {
		w.Tokens = e.cfg.Tokenizer.Count(w.Text)
	}
	w.Score = sortHits(w.Hits)
	return w
}

// budget keeps windows, in order, within MaxTotalTokens.
func (e *Expander) budget(ws []placed) []Window {
	out := make([]Window, 0, len(ws))
	left := e.cfg.MaxTotalTokens
	for _, w := range ws {
		if left <= 0 && e.cfg.MaxTotalTokens > 0 {
			break
		}
		if e.cfg.MaxTotalTokens > 0 && w.Tokens > left {
			if t, ok := e.trim(w, left); ok {
				out = append(out, t.Window)
			}
			break
		}
		left -= w.Tokens
		out = append(out, w.Window)
	}
	return out
}

// trim regrows w from its best hit within its own units and limit tokens.
func (e *Expander) trim(w placed, limit int) (placed, bool) {
	if w.lo < 0 {
		return w, false // a vanished hit cannot be cut
	}
	lo, hi := w.lo, w.hi
	t := placed{units: w.units[lo : hi+1], lo: w.best - lo, hi: w.best - lo, best: w.best - lo, rank: w.rank}
	if e.cfg.Tokenizer.Count(t.units[t.best].Text) > limit {
		return w, false
	}
	e.grow(&t, nil, 0, limit, t.units[t.best].Index)
	for _, h := range w.Hits {
		if p := find(t.units, &h); p >= t.lo && p <= t.hi {
			t.Hits = append(t.Hits, h)
		}
	}
	t = e.finish(t)
	t.Trimmed = true
	return t, true
}
