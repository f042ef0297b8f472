package chart

import (
	"fmt"
	"io"
	"slices"
	"strconv"
)

// A Distribution is one row of a Histograms chart: a label and the values
// whose distribution it draws, such as the token counts of one splitter's
// chunks.
type Distribution struct {
	Label  string
	Values []int
}

// Histograms draws one histogram per row over a shared value axis from 0
// to Max, each row's bars the share of its values in each bin, with the
// row's count, median and extremes beside it. A dashed line marks Max.
type Histograms struct {
	Title string
	Rows  []Distribution
	// Max is the right end of the axis, such as a chunker's MaxTokens; a
	// value above it is counted in the last bin and reported beside the
	// row.
	Max int
	// Bins is the number of bins; zero means 16.
	Bins int
	// Axis labels the value axis, such as "chunk size (tokens)".
	Axis string
}

const histRowH = 46

// WriteSVG writes the chart as an SVG document.
func (c Histograms) WriteSVG(w io.Writer) error {
	if len(c.Rows) == 0 || c.Max <= 0 || c.Bins < 0 {
		return fmt.Errorf("%w: no rows, Max %d, Bins %d", ErrInput, c.Max, c.Bins)
	}
	bins := c.Bins
	if bins == 0 {
		bins = 16
	}
	left, right := float64(margin+150), float64(width-margin-200)
	h := titleH + len(c.Rows)*histRowH + axisH
	s := newSVG(h)
	s.title(c.Title)
	x := func(v float64) float64 { return left + v/float64(c.Max)*(right-left) }
	bottom := float64(titleH + len(c.Rows)*histRowH)
	for i := 0; i <= 4; i++ {
		v := float64(c.Max) * float64(i) / 4
		s.line(x(v), titleH, x(v), bottom, "#e0e0e0", false)
		s.text(x(v), bottom+14, "middle", ` fill="#555"`, strconv.Itoa(int(v+0.5)))
	}
	s.line(x(float64(c.Max)), titleH, x(float64(c.Max)), bottom, "#333", true)
	s.text((left+right)/2, bottom+30, "middle", ` fill="#333"`, c.Axis)
	for i, row := range c.Rows {
		top := float64(titleH + i*histRowH)
		base := top + histRowH - 8
		s.text(left-8, base-10, "end", "", clip(row.Label, 22))
		s.line(left, base, right, base, "#999", false)
		counts := binCounts(row.Values, c.Max, bins)
		peak := slices.Max(counts)
		bw := (right - left) / float64(bins)
		for b, n := range counts {
			if n == 0 {
				continue
			}
			// At least 2 px, so that a single crumb among hundreds shows.
			bh := max(float64(n)/float64(peak)*(histRowH-14), 2)
			lo, hi := c.Max*b/bins, c.Max*(b+1)/bins
			s.rect(left+float64(b)*bw+0.5, base-bh, bw-1, bh, palette[i%len(palette)],
				fmt.Sprintf("%s: %d of %d between %d and %d", row.Label, n, len(row.Values), lo, hi))
		}
		s.text(right+10, base-10, "start", ` font-size="11" fill="#333"`, describe(row.Values, c.Max))
	}
	return s.writeTo(w)
}

func binCounts(values []int, maxV, bins int) []int {
	counts := make([]int, bins)
	for _, v := range values {
		b := min(max(v, 0)*bins/maxV, bins-1)
		counts[b]++
	}
	return counts
}

// describe returns "n 12, median 240 (31-256)" for the values, and how
// many exceed maxV if any do.
func describe(values []int, maxV int) string {
	if len(values) == 0 {
		return "no values"
	}
	v := slices.Sorted(slices.Values(values))
	s := fmt.Sprintf("n %d, median %d (%d-%d)", len(v), v[len(v)/2], v[0], v[len(v)-1])
	if i := slices.IndexFunc(v, func(x int) bool { return x > maxV }); i >= 0 {
		s += fmt.Sprintf(", %d over", len(v)-i)
	}
	return s
}
