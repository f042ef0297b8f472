package window

import (
	"cmp"
	"context"
	"math"
	"sort"
	"strconv"

	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
)

// Preset is a set of defaults for an [ExtractorConfig].
type Preset int

const (
	// Balanced: segments of up to 15 units, a moderate penalty for the
	// unretrieved units between retrieved ones. The default.
	Balanced Preset = iota
	// Precision: short segments (up to 8 units) made of retrieved units
	// close together, and only strong ones: a higher penalty and minimum
	// value, a faster decay with rank.
	Precision
	// Recall: long segments (up to 40 units) that bridge wide gaps between
	// retrieved units, and more of them: a low penalty and minimum value,
	// and lower-ranked hits worth almost as much as the first.
	Recall
)

var presetNames = [...]string{Balanced: "Balanced", Precision: "Precision", Recall: "Recall"}

func (p Preset) String() string {
	if p < 0 || int(p) >= len(presetNames) {
		return "Preset(" + strconv.Itoa(int(p)) + ")"
	}
	return presetNames[p]
}

// presets holds MaxUnits, Penalty, Decay, MinValue and Documents of each
// preset.
var presets = [...]ExtractorConfig{
	Balanced:  {MaxUnits: 15, Penalty: 0.2, Decay: 30, MinValue: 0.5, Documents: 10},
	Precision: {MaxUnits: 8, Penalty: 0.3, Decay: 15, MinValue: 0.7, Documents: 5},
	Recall:    {MaxUnits: 40, Penalty: 0.1, Decay: 100, MinValue: 0.3, Documents: 20},
}

// ExtractorConfig configures an [Extractor]. The zero value of every field
// but Source takes the Preset's value; Extract needs a Source.
type ExtractorConfig struct {
	// Source gives the units of the candidate documents, for
	// [Extractor.Extract], which refuses to run without one. Leave it nil
	// for an Extractor that package retrieve's Retriever widens with: the
	// Retriever hands it its store, behind its filter, through
	// [Extractor.Widen].
	Source Source
	// Preset gives the defaults of MaxUnits, Penalty, Decay, MinValue and
	// Documents: [Balanced] (the zero value), [Precision] or [Recall].
	Preset Preset
	// MaxUnits is the longest segment, in units.
	MaxUnits int
	// Penalty is subtracted from the value of every unit, so that a unit
	// not retrieved is worth -Penalty and a segment pays for each one it
	// bridges: a higher penalty makes segments shorter and tighter around
	// the retrieved units, a lower one lets them join hits that lie further
	// apart. Zero means the Preset's; for no penalty, set NoPenalty.
	Penalty float64
	// NoPenalty makes unretrieved units free (a Penalty of exactly 0,
	// which a zero Penalty cannot say): segments bridge any gap up to
	// MaxUnits. Penalty must be 0 with it.
	NoPenalty bool
	// Decay sets how fast a hit's worth falls with its rank: the hit of
	// rank r (from 0) is worth exp(-r/Decay) before the penalty. A larger
	// Decay values lower-ranked hits more, which gives more and longer
	// segments.
	Decay float64
	// MinValue is the least value of a segment: selection stops when the
	// best remaining run is worth less. Higher means fewer segments.
	// Zero means the Preset's; to keep every run worth more than nothing,
	// set NoMinValue.
	MinValue float64
	// NoMinValue keeps every run worth more than nothing (a MinValue of
	// exactly 0). MinValue must be 0 with it.
	NoMinValue bool
	// Documents is how many documents, in order of their best hit, are
	// candidates.
	Documents int
	// UseScores multiplies a hit's worth by its Score, for scores in
	// [0, 1] (cosine similarity, a reranker's relevance); by default only
	// ranks count, which suits any kind of score, fused ones included.
	UseScores bool
	// Tokenizer counts each segment's Tokens. Required with
	// MaxTotalTokens; without it Tokens is 0.
	Tokenizer tokencount.Tokenizer
	// MaxTotalTokens, if positive, caps the sum of the segments' Tokens:
	// a segment that does not fit in what remains is cut, from its less
	// valuable end, until it fits, and kept, marked Trimmed, if it is
	// still worth MinValue; selection goes on with the next best run
	// until the budget is spent. The cut is found with O(log n) counts
	// of at most the segment's text, assuming that removing a unit never
	// raises the count (as for [ExpanderConfig.MaxTokens]); a segment
	// never exceeds the budget, whatever the Tokenizer.
	MaxTotalTokens int
	// Separator, if not empty, joins the units' texts in place of the
	// original text between them.
	Separator string
}

// Extractor picks the most relevant contiguous segments of the documents
// that a query's hits point into: relevant segment extraction, as dsRAG
// introduced it. Where an [Expander] gives every hit the same window,
// an Extractor gives a passage the length its relevance supports: one
// sentence when one sentence matched, a whole section when many of its
// units did. It is safe for concurrent use if its Source and Tokenizer are.
// The zero Extractor returns an error wrapping [ErrConfig].
type Extractor struct{ cfg ExtractorConfig }

// NewExtractor returns an Extractor configured by cfg, with the Preset's
// values where cfg leaves a field zero. An unknown Preset, a negative
// setting, a Decay, Penalty or MinValue that is not finite, a Penalty with
// NoPenalty or a MinValue with NoMinValue, or MaxTotalTokens without a
// Tokenizer gives an error wrapping [ErrConfig].
func NewExtractor(cfg ExtractorConfig) (*Extractor, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	p := presets[cfg.Preset]
	cfg.MaxUnits = cmp.Or(cfg.MaxUnits, p.MaxUnits)
	cfg.Documents = cmp.Or(cfg.Documents, p.Documents)
	cfg.Decay = cmp.Or(cfg.Decay, p.Decay)
	if !cfg.NoPenalty {
		cfg.Penalty = cmp.Or(cfg.Penalty, p.Penalty)
	}
	if !cfg.NoMinValue {
		cfg.MinValue = cmp.Or(cfg.MinValue, p.MinValue)
	}
	return &Extractor{cfg: cfg}, nil
}

// check returns what is wrong with cfg, if anything.
func (cfg *ExtractorConfig) check() error {
	if cfg.Preset < 0 || int(cfg.Preset) >= len(presets) {
		return configError("Preset", cfg.Preset, "must be Balanced, Precision or Recall")
	}
	for _, f := range []struct {
		name  string
		value float64
	}{{"MaxUnits", float64(cfg.MaxUnits)}, {"Documents", float64(cfg.Documents)}, {"MaxTotalTokens", float64(cfg.MaxTotalTokens)},
		{"Decay", cfg.Decay}, {"Penalty", cfg.Penalty}, {"MinValue", cfg.MinValue}} {
		if !(f.value >= 0) || math.IsInf(f.value, 1) { // NaN too
			return configError(f.name, f.value, "must be finite and 0 or more")
		}
	}
	switch {
	case cfg.MaxTotalTokens > 0 && cfg.Tokenizer == nil:
		return configError("Tokenizer", nil, "is required with MaxTotalTokens")
	case cfg.NoPenalty && cfg.Penalty != 0:
		return configError("Penalty", cfg.Penalty, "must be 0 with NoPenalty")
	case cfg.NoMinValue && cfg.MinValue != 0:
		return configError("MinValue", cfg.MinValue, "must be 0 with NoMinValue")
	}
	return nil
}

// Config returns the configuration of x with the Preset's values filled
// in.
func (x *Extractor) Config() ExtractorConfig { return x.cfg }

// candidates is the units of the candidate documents laid end to end.
type candidates struct {
	units    []vectorstore.Record
	values   []float64
	docStart []int
	hits     [][]vectorstore.Hit // hits at each position
	vanished []bool
}

// Extract returns the best segments for hits, the hits of one query, best
// first: it values every unit of the candidate documents between their
// first and last hit (a hit of rank r is worth exp(-r/Decay), times its
// Score with UseScores, minus Penalty; a unit not retrieved -Penalty),
// then takes, again and again, the contiguous run of at most MaxUnits
// units with the largest total value that overlaps no segment taken
// before and stays in one document, until the best remaining run is worth
// less than MinValue (or nothing) or MaxTotalTokens is spent. Segments are
// returned in the order they were taken, most valuable first, each with
// its Value and the hits it holds. Each document is read with one Range
// call. Selection costs O(n + s·MaxUnits·log n) for n candidate units and
// s segments: never quadratic in n.
//
// Errors, vanished documents and cancellation are as for
// [Expander.Expand]: a hit whose unit is gone is a candidate on its own,
// marked Vanished.
func (x *Extractor) Extract(ctx context.Context, hits []vectorstore.Hit) ([]Window, error) {
	if x == nil || x.cfg.Source == nil {
		return nil, errNoSource
	}
	docs, err := groupHits(hits)
	if err != nil {
		return nil, err
	}
	if len(docs) > x.cfg.Documents {
		docs = docs[:x.cfg.Documents]
	}
	c, err := x.gather(ctx, docs)
	if err != nil {
		return nil, err
	}
	return x.pick(c), nil
}

// gather reads the candidate units and values them.
func (x *Extractor) gather(ctx context.Context, docs []*docHits) (*candidates, error) {
	c := &candidates{}
	for _, d := range docs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		units, err := fetch(ctx, x.cfg.Source, d.docID, d.lo, d.hi)
		if err != nil {
			return nil, err
		}
		base := len(c.units)
		for range units {
			c.docStart = append(c.docStart, base)
			c.hits = append(c.hits, nil)
			c.vanished = append(c.vanished, false)
			c.values = append(c.values, -x.cfg.Penalty)
		}
		c.units = append(c.units, units...)
		for k, h := range d.hits {
			p := find(units, &h)
			if p < 0 { // the hit's unit is gone: a block of its own
				p = len(c.units) - base
				c.units = append(c.units, h.Record)
				c.docStart = append(c.docStart, base+p)
				c.hits = append(c.hits, nil)
				c.vanished = append(c.vanished, true)
				c.values = append(c.values, -x.cfg.Penalty)
			}
			c.hits[base+p] = append(c.hits[base+p], h)
			c.values[base+p] += x.worth(h, d.ranks[k])
		}
	}
	return c, nil
}

func (x *Extractor) worth(h vectorstore.Hit, rank int) float64 {
	w := math.Exp(-float64(rank) / x.cfg.Decay)
	if x.cfg.UseScores {
		w *= float64(h.Score)
	}
	return w
}

// pick selects the segments.
func (x *Extractor) pick(c *candidates) []Window {
	var out []Window
	if len(c.units) == 0 {
		return out
	}
	r := newRunPicker(c.values, c.docStart, x.cfg.MaxUnits)
	left := x.cfg.MaxTotalTokens
	for {
		a, b, v, ok := r.best()
		if !ok || v <= 0 || v < x.cfg.MinValue {
			return out
		}
		w := x.segment(c, a, b, v)
		r.take(a, b)
		if x.cfg.MaxTotalTokens > 0 && w.Tokens > left {
			var ok bool
			if w, ok = x.trim(c, a, b, left); !ok {
				continue
			}
		}
		left -= w.Tokens
		out = append(out, w)
		if x.cfg.MaxTotalTokens > 0 && left <= 0 {
			return out
		}
	}
}

func (x *Extractor) segment(c *candidates, a, b int, v float64) Window {
	u := c.units
	w := Window{DocID: u[a].DocID, First: u[a].Index, Last: u[b].Index, Value: v, Vanished: c.vanished[a]}
	w.Start, w.End = span(u, a, b)
	w.Text = join(u, a, b, x.cfg.Separator)
	if x.cfg.Tokenizer != nil {
		w.Tokens = x.cfg.Tokenizer.Count(w.Text)
	}
	for i := a; i <= b; i++ {
		w.Hits = append(w.Hits, c.hits[i]...)
	}
	w.Score = sortHits(w.Hits)
	return w
}

// trim cuts run [a, b] from its less valuable end until it fits in limit
// tokens, and keeps it if it is still worth MinValue.
//
// The cuts are made one unit at a time, and the first that fits is
// taken; but each cut's text lies within the one before, so on the
// assumption that removing a unit never raises the count (as for
// [ExpanderConfig.MaxTokens]) the cuts that fit are the last ones, and
// bisection finds the first with O(log n) counts of at most the run's
// text, where counting each cut in turn cost O(n²). Only a cut that was
// counted and fits is taken, whatever the Tokenizer.
func (x *Extractor) trim(c *candidates, a, b, limit int) (Window, bool) {
	v := 0.0
	for i := a; i <= b; i++ {
		v += c.values[i]
	}
	type cut struct {
		a, b int
		v    float64
	}
	cuts := make([]cut, 0, b-a)
	for a < b {
		if c.values[a] <= c.values[b] {
			v -= c.values[a]
			a++
		} else {
			v -= c.values[b]
			b--
		}
		cuts = append(cuts, cut{a, b, v})
	}
	fits := func(i int) bool {
		return x.cfg.Tokenizer.Count(join(c.units, cuts[i].a, cuts[i].b, x.cfg.Separator)) <= limit
	}
	for i := sort.Search(len(cuts), fits); i < len(cuts); i++ {
		// The first pass takes the cut bisection found; a count that
		// rose as the text shrank makes it go on to the next.
		if w := x.segment(c, cuts[i].a, cuts[i].b, cuts[i].v); w.Tokens <= limit {
			ok := w.Value > 0 && w.Value >= x.cfg.MinValue
			w.Trimmed = true
			return w, ok
		}
	}
	return Window{}, false
}
