// Package chart writes the report's charts as small, self-contained SVG
// files: horizontal bar charts (linear or logarithmic axis) and rows of
// histograms. It needs nothing but the standard library, and the same
// input always gives the same bytes, so regenerated charts diff cleanly.
package chart

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// ErrInput means a chart was given nothing to draw or values it cannot
// draw (NaN or infinite values, a logarithmic axis with a value <= 0,
// series of the wrong length).
var ErrInput = errors.New("chart: invalid input")

// Colours of the series, in order; they repeat after the last.
var palette = []string{"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1", "#edc948", "#9c755f"}

const (
	width    = 760
	font     = `font-family="Helvetica,Arial,sans-serif" font-size="12"`
	rowGap   = 6
	barH     = 14
	titleH   = 28
	axisH    = 34
	legendH  = 22
	margin   = 12
	valueGap = 4
)

// svg accumulates an SVG document.
type svg struct{ b bytes.Buffer }

func newSVG(h int) *svg {
	s := &svg{}
	fmt.Fprintf(&s.b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" %s>`+"\n", width, h, width, h, font)
	fmt.Fprintf(&s.b, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", width, h)
	return s
}

func (s *svg) text(x, y float64, anchor, attrs, text string) {
	fmt.Fprintf(&s.b, `<text x="%s" y="%s" text-anchor="%s"%s>`, num(x), num(y), anchor, attrs)
	xml.EscapeText(&s.b, []byte(text))
	s.b.WriteString("</text>\n")
}

func (s *svg) rect(x, y, w, h float64, fill, title string) {
	fmt.Fprintf(&s.b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s">`, num(x), num(y), num(w), num(h), fill)
	if title != "" {
		s.b.WriteString("<title>")
		xml.EscapeText(&s.b, []byte(title))
		s.b.WriteString("</title>")
	}
	s.b.WriteString("</rect>\n")
}

func (s *svg) line(x1, y1, x2, y2 float64, stroke string, dash bool) {
	d := ""
	if dash {
		d = ` stroke-dasharray="4 3"`
	}
	fmt.Fprintf(&s.b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"%s/>`+"\n", num(x1), num(y1), num(x2), num(y2), stroke, d)
}

func (s *svg) title(t string) {
	s.text(margin, 18, "start", ` font-size="14" font-weight="bold"`, t)
}

func (s *svg) legend(y float64, names []string) {
	x := float64(margin)
	for i, n := range names {
		s.rect(x, y-10, 12, 12, palette[i%len(palette)], "")
		s.text(x+16, y, "start", "", n)
		x += 16 + 7*float64(len(n)) + 18
	}
}

func (s *svg) writeTo(w io.Writer) error {
	s.b.WriteString("</svg>\n")
	_, err := w.Write(s.b.Bytes())
	return err
}

// num formats a coordinate with at most one decimal, so output is short
// and the same on every platform.
func num(x float64) string { return strconv.FormatFloat(math.Round(x*10)/10, 'f', -1, 64) }

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
