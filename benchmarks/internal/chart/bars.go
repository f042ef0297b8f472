package chart

import (
	"fmt"
	"io"
	"math"
	"strconv"
)

// A Series is one set of values, one per category, drawn in one colour.
type Series struct {
	Name   string
	Values []float64
}

// Bars is a horizontal bar chart: for each category, one bar per series.
type Bars struct {
	Title      string
	Categories []string
	Series     []Series
	// Axis labels the value axis, such as "failures (% of questions)".
	Axis string
	// Log draws the value axis in powers of ten, for ratios; bars then
	// start at 1, so a value below 1 points left.
	Log bool
	// Reference, if positive, draws a dashed line at that value, such
	// as 1 for a ratio.
	Reference float64
	// Format writes a bar's value label; nil means three significant
	// digits.
	Format func(float64) string
}

// WriteSVG writes the chart as an SVG document.
func (c Bars) WriteSVG(w io.Writer) error {
	lo, hi, err := c.bounds()
	if err != nil {
		return err
	}
	labelW := 0
	for _, cat := range c.Categories {
		labelW = max(labelW, len(cat))
	}
	left := float64(margin) + float64(min(48, labelW))*7.5 + 8
	right := float64(width - margin - 56)
	group := len(c.Series)*barH + rowGap*2
	top := titleH
	if len(c.Series) > 1 {
		top += legendH
	}
	h := top + len(c.Categories)*group + axisH
	s := newSVG(h)
	s.title(c.Title)
	if len(c.Series) > 1 {
		names := make([]string, len(c.Series))
		for i, se := range c.Series {
			names[i] = se.Name
		}
		s.legend(float64(titleH+12), names)
	}
	x := c.scale(lo, hi, left, right)
	bottom := float64(top + len(c.Categories)*group)
	for _, t := range ticks(lo, hi, c.Log) {
		s.line(x(t), float64(top), x(t), bottom, "#e0e0e0", false)
		s.text(x(t), bottom+14, "middle", ` fill="#555"`, tickLabel(t))
	}
	s.text((left+right)/2, bottom+30, "middle", ` fill="#333"`, c.Axis)
	base := 0.0
	if c.Log {
		base = 1
	}
	format := c.Format
	if format == nil {
		format = func(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }
	}
	for i, cat := range c.Categories {
		y := float64(top + i*group + rowGap)
		s.text(left-8, y+float64(len(c.Series)*barH)/2+4, "end", "", clip(cat, 48))
		for j, se := range c.Series {
			v := se.Values[i]
			x0, x1 := math.Min(x(base), x(v)), math.Max(x(base), x(v))
			label := format(v)
			s.rect(x0, y, math.Max(x1-x0, 1), barH-2, palette[j%len(palette)], fmt.Sprintf("%s, %s: %s", cat, se.Name, label))
			s.text(x1+valueGap, y+barH-4, "start", ` font-size="11" fill="#333"`, label)
			y += barH
		}
	}
	s.line(x(base), float64(top), x(base), bottom, "#333", false)
	if c.Reference > 0 && c.Reference != base {
		s.line(x(c.Reference), float64(top), x(c.Reference), bottom, "#333", true)
	}
	return s.writeTo(w)
}

// bounds checks the input and returns the value axis's range.
func (c Bars) bounds() (lo, hi float64, err error) {
	if len(c.Categories) == 0 || len(c.Series) == 0 {
		return 0, 0, fmt.Errorf("%w: no categories or no series", ErrInput)
	}
	lo, hi = 0, 0
	if c.Log {
		lo, hi = 1, 1
	}
	for _, se := range c.Series {
		if len(se.Values) != len(c.Categories) {
			return 0, 0, fmt.Errorf("%w: series %q has %d values for %d categories", ErrInput, se.Name, len(se.Values), len(c.Categories))
		}
		for _, v := range se.Values {
			if !finite(v) || c.Log && v <= 0 {
				return 0, 0, fmt.Errorf("%w: series %q has the value %v", ErrInput, se.Name, v)
			}
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if c.Reference > 0 {
		lo, hi = math.Min(lo, c.Reference), math.Max(hi, c.Reference)
	}
	if c.Log {
		return math.Pow(10, math.Floor(math.Log10(lo))), math.Pow(10, math.Ceil(math.Log10(hi))), nil
	}
	if hi == lo {
		hi = lo + 1
	}
	step := niceStep((hi - lo) / 5)
	return math.Floor(lo/step) * step, math.Ceil(hi/step) * step, nil
}

func (c Bars) scale(lo, hi, left, right float64) func(float64) float64 {
	if c.Log {
		l, h := math.Log10(lo), math.Log10(hi)
		return func(v float64) float64 { return left + (math.Log10(v)-l)/(h-l)*(right-left) }
	}
	return func(v float64) float64 { return left + (v-lo)/(hi-lo)*(right-left) }
}

// ticks returns the axis's tick values: 1, 2 and 5 times each power of
// ten on a log axis, multiples of a round step on a linear one.
func ticks(lo, hi float64, log bool) []float64 {
	var out []float64
	if log {
		for p := lo; p <= hi*1.0001; p *= 10 {
			for _, m := range []float64{1, 2, 5} {
				if v := p * m; v <= hi*1.0001 {
					out = append(out, v)
				}
			}
		}
		return out
	}
	step := niceStep((hi - lo) / 5)
	for v := lo; v <= hi+step/1000; v += step {
		out = append(out, math.Round(v/step)*step)
	}
	return out
}

// niceStep returns 1, 2 or 5 times a power of ten, at least x.
func niceStep(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

func tickLabel(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

// clip shortens s to n characters, ending it with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
