package pdf

import (
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// A segment is a run of glyphs on one baseline with no wide gap: a line of
// a column, a table cell, a running header.
type segment struct {
	text                   []rune
	left, right, base, top float64
	size                   float64 // the largest glyph's size
	bold, plain            int     // glyphs in bold and in other fonts
	lastRight, lastWidth   float64
	space                  bool // a space is pending before the next glyph
}

func (s *segment) isBold() bool { return s.bold > 0 && s.bold >= 4*s.plain }

// String returns the segment's text without the dot leaders of a table
// of contents.
func (s *segment) String() string {
	return strings.TrimSpace(leaders.ReplaceAllString(string(s.text), " "))
}

var leaders = regexp.MustCompile(`(\s*\.){4,}\s*`)

// splitGap is the gap, in ems of the font size, that ends a segment: wider
// than any word space of justified prose, narrower than the space between
// table columns or text columns.
const splitGap = 1.0

// segments cuts a page's glyphs, in the order of the content stream, into
// segments.
func segments(gs []glyph) []*segment {
	var out []*segment
	var cur *segment
	for _, g := range gs {
		switch {
		case g.r == '\r' || g.r == '\n':
			if cur != nil {
				cur.space = true
			}
			continue
		case g.r == ' ' || g.r == '\t' || g.r == '\u00a0' || (g.r >= '\u2000' && g.r <= '\u200a'):
			if cur != nil {
				cur.space = true
			}
			continue
		case g.r == '\u0002' || g.r == '\u00ad' || g.r == '\ufffe':
			g.r = '-' // PDFium's marks of a hyphen at a line's end
		case unicode.IsControl(g.r) || g.r == '\uffff' || g.r == '\ufffd':
			continue
		}
		size := g.size
		if size <= 0 {
			size = math.Max(g.top-g.bottom, 1)
		}
		if cur != nil && cur.continues(g, size) {
			if cur.space || g.left-cur.lastRight > 0.3*size {
				cur.text = append(cur.text, ' ')
			}
		} else {
			cur = &segment{left: g.left, base: g.base, top: g.top, right: g.right}
			out = append(out, cur)
		}
		cur.space = false
		cur.text = appendNormal(cur.text, g.r)
		cur.left, cur.right = math.Min(cur.left, g.left), math.Max(cur.right, g.right)
		cur.top = math.Max(cur.top, g.top)
		cur.size = math.Max(cur.size, size)
		cur.lastRight, cur.lastWidth = g.right, g.right-g.left
		if g.bold {
			cur.bold++
		} else {
			cur.plain++
		}
	}
	return out
}

// continues reports whether glyph g, of font size size, goes on segment s:
// on its baseline, after it (a ligature's glyphs share one box) and not
// beyond a wide gap.
func (s *segment) continues(g glyph, size float64) bool {
	if math.Abs(g.base-s.base) > 0.3*math.Max(size, s.size) {
		// Off the baseline: only a smaller glyph inside the line's
		// height (a superscript, a subscript) stays on it.
		mid := (g.bottom + g.top) / 2
		if size >= s.size || mid < s.base || mid > s.top {
			return false
		}
	}
	if g.left < s.lastRight-s.lastWidth-0.5 {
		return false
	}
	return g.left-s.lastRight < splitGap*math.Max(size, s.size)
}

// appendNormal appends r, with ligatures and presentation forms (U+FB00 to
// U+FDFF, U+FE10 to U+FEFF, full-width ASCII) replaced by what they
// stand for, so that "ﬁ" reads and matches as "fi".
func appendNormal(text []rune, r rune) []rune {
	if (r >= 0xfb00 && r <= 0xfdff) || (r >= 0xfe10 && r <= 0xfeff) || (r >= 0xff01 && r <= 0xff5e) {
		return append(text, []rune(norm.NFKC.String(string(r)))...)
	}
	return append(text, r)
}

// A row is the segments of a page on one baseline, left to right.
type row struct {
	segs []*segment
	base float64
	top  float64
}

func (r *row) left() float64  { return r.segs[0].left }
func (r *row) right() float64 { return r.segs[len(r.segs)-1].right }

// rows groups a page's segments by baseline, top of the page first, and
// merges segments of one row that the content stream had cut apart.
func rows(segs []*segment) []*row {
	sorted := append([]*segment(nil), segs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].base > sorted[j].base })
	var out []*row
	for _, s := range sorted {
		if n := len(out); n > 0 {
			r := out[n-1]
			if r.base-s.base < 0.4*math.Min(s.size, r.segs[0].size) {
				r.segs = append(r.segs, s)
				r.top = math.Max(r.top, s.top)
				continue
			}
		}
		out = append(out, &row{segs: []*segment{s}, base: s.base, top: s.top})
	}
	for _, r := range out {
		sort.SliceStable(r.segs, func(i, j int) bool { return r.segs[i].left < r.segs[j].left })
		merged := r.segs[:1]
		for _, s := range r.segs[1:] {
			last := merged[len(merged)-1]
			if s.left-last.right < splitGap*math.Max(s.size, last.size) && s.left >= last.right-1 {
				last.text = append(append(last.text, ' '), s.text...)
				last.right = math.Max(last.right, s.right)
				last.size = math.Max(last.size, s.size)
				last.bold += s.bold
				last.plain += s.plain
				continue
			}
			merged = append(merged, s)
		}
		r.segs = merged
	}
	return out
}
