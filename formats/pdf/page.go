package pdf

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// A line is what the reading order visits: the segments of one row within
// one column, with the column's edges on its page.
type line struct {
	segs              []*segment
	page              int
	colLeft, colRight float64
	base, top         float64
	// resumed says that the line opens a column or a page, so that the
	// space above it says nothing of paragraphs.
	resumed bool
}

func (l *line) left() float64  { return l.segs[0].left }
func (l *line) right() float64 { return l.segs[len(l.segs)-1].right }

func (l *line) size() float64 {
	s := 0.0
	for _, g := range l.segs {
		s = math.Max(s, g.size)
	}
	return s
}

func (l *line) bold() bool {
	for _, g := range l.segs {
		if !g.isBold() {
			return false
		}
	}
	return true
}

func (l *line) text() string {
	parts := make([]string, 0, len(l.segs))
	for _, s := range l.segs {
		if t := s.String(); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " ")
}

// band is the share of a page's height, at its top and at its bottom,
// where running headers, footers and page numbers are looked for.
const band = 0.15

var (
	digits = regexp.MustCompile(`[0-9]+`)
	// enumerator is a numbered list's number: 1 to 3 digits, one
	// letter, or a small Roman numeral.
	enumerator = regexp.MustCompile(`^([0-9]{1,3}|[a-zA-Z]|[ivx]{1,4})$`)
	pageNumber = regexp.MustCompile(`^(?i)[-–—(\[\s]*(page\s*)?([0-9]+|[ivxlc]+)(\s*(of|/)\s*[0-9]+)?[-–—)\]\s]*$`)
)

// runningKey is what a running header or footer has in common across
// pages: its text with the numbers left out, and its place.
func runningKey(s *segment, top bool) string {
	t := strings.ToLower(strings.Join(strings.Fields(digits.ReplaceAllString(s.String(), "#")), " "))
	return t + "@" + strconv.FormatBool(top) + strconv.Itoa(int(math.Round(s.base/4)))
}

// dropRunning removes from every page the segments near its top or bottom
// edge that repeat at the same place on other pages (running headers and
// footers, whatever their page numbers) and lone page numbers there.
func dropRunning(pages [][]*row, heights []float64) {
	if len(pages) < 2 {
		return
	}
	type cand struct {
		page int
		seg  *segment
		key  string
		num  bool
	}
	var cands []cand
	count := map[string]int{}
	for p, rs := range pages {
		seen := map[string]bool{}
		for i, r := range rs {
			if i >= 3 && i < len(rs)-3 {
				continue
			}
			h := heights[p]
			top := r.base > (1-band)*h
			if !top && r.base > band*h {
				continue
			}
			for _, s := range r.segs {
				k := runningKey(s, top)
				cands = append(cands, cand{p, s, k, pageNumber.MatchString(s.String())})
				if !seen[k] {
					seen[k] = true
					count[k]++
				}
			}
		}
	}
	need := max(2, int(math.Ceil(0.4*float64(len(pages)))))
	drop := map[*segment]bool{}
	for _, c := range cands {
		if c.num || count[c.key] >= need {
			drop[c.seg] = true
		}
	}
	for p, rs := range pages {
		kept := rs[:0]
		for _, r := range rs {
			segs := r.segs[:0]
			for _, s := range r.segs {
				if !drop[s] && s.String() != "" {
					segs = append(segs, s)
				}
			}
			if r.segs = segs; len(segs) > 0 {
				kept = append(kept, r)
			}
		}
		pages[p] = kept
	}
}

// columns orders a page's rows into lines: where a gutter runs down the
// page between two columns of prose, the rows between any two that cross
// it are read column by column, left column first; every other row is one
// line.
func columns(rs []*row, pageNo int, body float64) []*line {
	if len(rs) == 0 {
		return nil
	}
	xmin, xmax := rs[0].left(), rs[0].right()
	for _, r := range rs {
		xmin, xmax = math.Min(xmin, r.left()), math.Max(xmax, r.right())
	}
	g0, g1, ok := gutter(rs, xmin, xmax, body)
	var out []*line
	flush := func(section []*row) {
		if len(section) == 0 {
			return
		}
		if ok && len(section) >= 3 && prose(section, g0, g1, xmax-xmin) {
			out = append(out, side(section, pageNo, func(s *segment) bool { return s.right <= g0 })...)
			out = append(out, side(section, pageNo, func(s *segment) bool { return s.left >= g1 })...)
			return
		}
		out = append(out, side(section, pageNo, func(*segment) bool { return true })...)
	}
	var section []*row
	for _, r := range rs {
		if ok && crosses(r, g0, g1) {
			flush(section)
			section = nil
			out = append(out, side([]*row{r}, pageNo, func(*segment) bool { return true })...)
			continue
		}
		section = append(section, r)
	}
	flush(section)
	return out
}

// side returns, as lines, the segments of rows that keep says are on one
// side, with that side's edges.
func side(rs []*row, pageNo int, keep func(*segment) bool) []*line {
	var out []*line
	left, right := math.Inf(1), math.Inf(-1)
	for _, r := range rs {
		var segs []*segment
		for _, s := range r.segs {
			if keep(s) {
				segs = append(segs, s)
			}
		}
		if len(segs) == 0 {
			continue
		}
		l := &line{segs: segs, page: pageNo, base: segs[0].base, top: segs[0].top}
		for _, s := range segs[1:] {
			l.base, l.top = math.Max(l.base, s.base), math.Max(l.top, s.top)
		}
		left, right = math.Min(left, l.left()), math.Max(right, l.right())
		out = append(out, l)
	}
	for i, l := range out {
		l.colLeft, l.colRight = left, right
		l.resumed = i == 0
	}
	return out
}

func crosses(r *row, g0, g1 float64) bool {
	for _, s := range r.segs {
		if s.left < g1 && s.right > g0 {
			return true
		}
	}
	return false
}

// gutter finds the widest vertical strip in the middle half of the page
// that the fewest rows cross, if few enough cross it to be a gutter
// between columns.
func gutter(rs []*row, xmin, xmax, body float64) (g0, g1 float64, ok bool) {
	w := xmax - xmin
	if len(rs) < 6 || w < 10*body || w > 1e5 {
		return 0, 0, false
	}
	n := int(w) + 1
	cover := make([]int, n)
	for _, r := range rs {
		for _, s := range r.segs {
			a, b := int(s.left-xmin), int(math.Ceil(s.right-xmin))
			for x := max(a, 0); x < min(b, n); x++ {
				cover[x]++
			}
		}
	}
	lo, hi := int(0.25*w), int(0.75*w)
	least := len(rs) + 1
	for x := lo; x < hi; x++ {
		least = min(least, cover[x])
	}
	if float64(least) > 0.3*float64(len(rs)) {
		return 0, 0, false
	}
	best, bestLen := 0, 0
	for x := lo; x < hi; {
		if cover[x] != least {
			x++
			continue
		}
		start := x
		for x < n && cover[x] == least {
			x++
		}
		if x-start > bestLen {
			best, bestLen = start, x-start
		}
	}
	if float64(bestLen) < 0.5*body {
		return 0, 0, false
	}
	return xmin + float64(best), xmin + float64(best+bestLen), true
}

// prose reports whether rows split by a gutter are two columns of text
// rather than a table: most rows have text on both sides, and the lines on
// each side are long.
func prose(rs []*row, g0, g1, width float64) bool {
	var lw, rw float64
	var ln, rn int
	for _, r := range rs {
		for _, s := range r.segs {
			if s.right <= g0 {
				lw += s.right - s.left
				ln++
			} else if s.left >= g1 {
				rw += s.right - s.left
				rn++
			}
		}
	}
	if ln == 0 || rn == 0 {
		return false
	}
	return lw/float64(ln) > 0.25*width && rw/float64(rn) > 0.25*width
}

// isBullet reports whether t is a list item's mark: a bullet or dash, or
// a number or letter with a dot or parenthesis.
func isBullet(t string) bool {
	switch t {
	case "•", "◦", "▪", "‣", "∙", "·", "●", "○", "■", "□", "–", "—", "-", "*", "o":
		return true
	}
	if n := len(t); n >= 2 && n <= 5 && (t[n-1] == '.' || t[n-1] == ')') {
		return enumerator.MatchString(strings.TrimPrefix(t[:n-1], "("))
	}
	return false
}
