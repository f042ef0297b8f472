package pdf

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/document"
)

// Metadata keys of the documents Parse returns, where the file sets them.
const (
	AuthorKey   = "author"
	SubjectKey  = "subject"
	KeywordsKey = "keywords"
	// PagesKey is the file's page count, in decimal.
	PagesKey = "pages"
)

// build lays the pages the engine read out as one Markdown document.
func build(inf *info) (document.Document, error) {
	pages := make([][]*row, len(inf.pages))
	heights := make([]float64, len(inf.pages))
	sizes := map[float64]int{}
	glyphs := 0
	for i, pg := range inf.pages {
		segs := segments(pg.glyphs)
		for _, s := range segs {
			sizes[math.Round(s.size*2)/2] += len(s.text)
			glyphs += len(s.text)
		}
		pages[i], heights[i] = rows(segs), pg.height
	}
	if glyphs == 0 {
		return document.Document{}, fmt.Errorf("%w: none of its %d pages has a text layer (scanned pages?)", errNoText, len(inf.pages))
	}
	body := bodySize(sizes)
	dropRunning(pages, heights)
	var flow []*line
	for i, rs := range pages {
		flow = append(flow, columns(rs, i+1, body)...)
	}
	for _, l := range flow {
		// A list's mark or a section's number set apart from its text by
		// a tab stop or a quad is one cell with it, not a table's first
		// column.
		if len(l.segs) >= 2 && (isBullet(l.segs[0].String()) || sectionNumber(l)) {
			m := *l.segs[1]
			m.text = append(append(append([]rune(nil), l.segs[0].text...), ' '), l.segs[1].text...)
			m.left = l.segs[0].left
			l.segs = append([]*segment{&m}, l.segs[2:]...)
		}
	}
	b := &builder{body: body, spacing: spacing(flow, body)}
	b.blocks(flow)
	b.levels()
	d := document.Document{Format: document.Markdown, Metadata: map[string]string{PagesKey: strconv.Itoa(len(inf.pages))}}
	for k, v := range map[string]string{AuthorKey: inf.author, SubjectKey: inf.subject, KeywordsKey: inf.keywords} {
		if v != "" {
			d.Metadata[k] = v
		}
	}
	d.Text, d.Marks = b.render()
	d.Title = inf.title
	if d.Title == "" {
		d.Title = b.title()
	}
	if strings.TrimSpace(d.Text) == "" {
		return document.Document{}, fmt.Errorf("%w: its %d pages hold only running headers and page numbers", errNoText, len(inf.pages))
	}
	return d, nil
}

var numberOnly = regexp.MustCompile(`^([0-9]+|[A-Z])(\.[0-9]+)*\.?$`)

// sectionNumber reports whether l is a section's number and its title:
// two segments, the first a number such as "4.11.1", not far apart.
func sectionNumber(l *line) bool {
	if len(l.segs) != 2 || !numberOnly.MatchString(l.segs[0].String()) {
		return false
	}
	a, b := l.segs[0], l.segs[1]
	return b.left-a.right < 3*math.Max(a.size, b.size)
}

// bodySize is the font size of most of the text.
func bodySize(sizes map[float64]int) float64 {
	best, n := 10.0, -1
	for s, c := range sizes {
		if c > n || (c == n && s < best) {
			best, n = s, c
		}
	}
	return best
}

// spacing is the usual distance between the baselines of two lines of
// body text in a paragraph.
func spacing(flow []*line, body float64) float64 {
	count := map[float64]int{}
	for i := 1; i < len(flow); i++ {
		a, b := flow[i-1], flow[i]
		if b.resumed || a.page != b.page || math.Abs(a.size()-body) > 0.5 || math.Abs(b.size()-body) > 0.5 {
			continue
		}
		if d := a.base - b.base; d > 0 && d < 4*body {
			count[math.Round(d*2)/2]++
		}
	}
	best, n := 1.2*body, 0
	for d, c := range count {
		if c > n || (c == n && d < best) {
			best, n = d, c
		}
	}
	return best
}

type kind int

const (
	paragraph kind = iota
	heading
	item
	table
)

// A block is a paragraph, a heading, a list item or a table, with the
// pages its lines come from.
type block struct {
	kind  kind
	size  float64
	bold  bool
	level int
	text  string
	// starts are the offsets in text where a page's lines start.
	starts []pageStart
	rows   [][]string // a table's cells, its header row first
}

type pageStart struct{ offset, page int }

type builder struct {
	body, spacing float64
	out           []*block
}

var numbered = regexp.MustCompile(`^([0-9]+(\.[0-9]+)*)\.?\s`)

func (b *builder) isHeading(l *line) bool {
	t := l.text()
	// A heading is a line on its own: the labels of a chart, a row of
	// larger type with gaps in it, are not.
	if len(l.segs) != 1 || utf8.RuneCountInString(t) > 200 || !strings.ContainsFunc(t, unicode.IsLetter) {
		return false
	}
	if l.size() >= 1.15*b.body {
		return true
	}
	return l.bold() && utf8.RuneCountInString(t) < 120 && !strings.HasSuffix(t, ".")
}

// blocks groups the lines of the flow into blocks.
func (b *builder) blocks(flow []*line) {
	for i := 0; i < len(flow); {
		if n := b.table(flow[i:]); n > 0 {
			i += n
			continue
		}
		b.add(flow, i)
		i++
	}
}

// add puts line i of the flow into the last block or a new one.
func (b *builder) add(flow []*line, i int) {
	l := flow[i]
	t := l.text()
	var last *block
	if n := len(b.out); n > 0 {
		last = b.out[n-1]
	}
	var prev *line
	if i > 0 {
		prev = flow[i-1]
	}
	gap := prev != nil && !l.resumed && prev.page == l.page && prev.base-l.base > 1.25*b.spacing*math.Max(1, l.size()/b.body)
	// A first line's indent is seen against the line before it, so that a
	// block indented as a whole (a quotation, an abstract) is one
	// paragraph; at a column's or page's top, against the column's edge.
	indent := l.left()-l.colLeft > 0.8*b.body
	if prev != nil && !l.resumed && prev.page == l.page {
		indent = l.left()-prev.left() > 0.8*b.body
	}
	switch {
	case b.isHeading(l):
		if last != nil && last.kind == heading && !gap && math.Abs(last.size-l.size()) < 0.5 && last.bold == l.bold() && prev != nil && prev.page == l.page {
			last.join(t, l.page)
			return
		}
		b.start(&block{kind: heading, size: l.size(), bold: l.bold()}, t, l.page)
	case len(l.segs) > 0 && isBullet(firstWord(t)) && !(last != nil && last.kind == paragraph && numberedInside(t, prev)):
		b.start(&block{kind: item}, t, l.page)
	case last != nil && (last.kind == paragraph || last.kind == item) && !gap && !(indent && last.kind == paragraph) &&
		!(last.kind == item && prev != nil && l.left() < prev.left()-0.5*b.body && !l.resumed):
		last.join(t, l.page)
	default:
		b.start(&block{kind: paragraph}, t, l.page)
	}
}

// numberedInside reports whether a line opening with a number, such as
// "2004. The year", continues the sentence of the line before it rather
// than opening a numbered list.
func numberedInside(t string, prev *line) bool {
	if prev == nil {
		return false
	}
	p := prev.text()
	r, _ := utf8.DecodeLastRuneInString(p)
	f := firstWord(t)
	return strings.IndexAny(f, "0123456789") >= 0 && !strings.ContainsRune(".:!?", r)
}

func firstWord(t string) string {
	if i := strings.IndexByte(t, ' '); i > 0 {
		return t[:i]
	}
	return ""
}

func (b *builder) start(k *block, t string, page int) {
	k.text = t
	k.starts = []pageStart{{0, page}}
	b.out = append(b.out, k)
}

// join appends line text t of page to the block, joining a word that the
// line's end hyphenated.
func (k *block) join(t string, page int) {
	r, _ := utf8.DecodeRuneInString(t)
	h := len(k.text)
	if strings.HasSuffix(k.text, "-") && h >= 2 && unicode.IsLetter(rune(k.text[h-2])) && unicode.IsLower(r) {
		k.text = k.text[:h-1]
	} else {
		k.text += " "
	}
	if k.starts[len(k.starts)-1].page != page {
		k.starts = append(k.starts, pageStart{len(k.text), page})
	}
	k.text += t
}

// table reads a table at the start of flow: two rows or more on one page
// whose cells line up in columns that no cell crosses. It returns how many
// lines it took, 0 when there is no table there.
func (b *builder) table(flow []*line) int {
	n := 0
	for n < len(flow) && len(flow[n].segs) >= 2 && flow[n].page == flow[0].page && (n == 0 || !flow[n].resumed) {
		n++
	}
	if n < 2 {
		return 0
	}
	cols := tableColumns(flow[:n], b.body)
	if len(cols) < 2 {
		return 0
	}
	k := &block{kind: table, starts: []pageStart{{0, flow[0].page}}}
	for _, l := range flow[:n] {
		cells := make([]string, len(cols))
		for _, s := range l.segs {
			c := column(cols, (s.left+s.right)/2)
			cells[c] = strings.TrimSpace(cells[c] + " " + s.String())
		}
		k.rows = append(k.rows, cells)
	}
	// A line under a row with one cell inside one column is the rest of
	// that cell's text.
	for n < len(flow) && len(flow[n].segs) == 1 && !flow[n].resumed && flow[n].page == flow[0].page &&
		flow[n-1].base-flow[n].base < 1.25*b.spacing {
		s := flow[n].segs[0]
		c := column(cols, s.left)
		if c != column(cols, s.right) || c == 0 && len(cols) > 1 && s.left < cols[0][0]+b.body && !b.isHeading(flow[n]) && k.rows[len(k.rows)-1][c] == "" {
			break
		}
		if s.left < cols[c][0]-0.5*b.body {
			break
		}
		last := k.rows[len(k.rows)-1]
		last[c] = strings.TrimSpace(last[c] + " " + s.String())
		n++
	}
	b.out = append(b.out, k)
	return n
}

// tableColumns returns the extents of the columns of rows: the stretches
// between the gaps that no row's segments cross.
func tableColumns(rows []*line, body float64) [][2]float64 {
	var spans [][2]float64
	for _, l := range rows {
		for _, s := range l.segs {
			spans = append(spans, [2]float64{s.left, s.right})
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var cols [][2]float64
	for _, sp := range spans {
		if n := len(cols); n > 0 && sp[0] < cols[n-1][1]+0.5*body {
			cols[n-1][1] = math.Max(cols[n-1][1], sp[1])
			continue
		}
		cols = append(cols, sp)
	}
	// Every row of a table fills most of its columns; prose that happens
	// to have a wide gap does not line up.
	for _, l := range rows {
		used := map[int]bool{}
		for _, s := range l.segs {
			used[column(cols, (s.left+s.right)/2)] = true
		}
		if 2*len(used) < len(cols) {
			return nil
		}
	}
	return cols
}

// column returns the index of the column that x falls in or is nearest.
func column(cols [][2]float64, x float64) int {
	for i, c := range cols {
		if x < c[1] || i == len(cols)-1 {
			return i
		}
		if x < cols[i+1][0] {
			if x-c[1] < cols[i+1][0]-x {
				return i
			}
			return i + 1
		}
	}
	return 0
}

// levels gives headings their levels: larger type first, one level per
// size; headings in bold body type come after, deeper by their numbering
// ("1.2" one deeper than "1.").
func (b *builder) levels() {
	var sizes []float64
	for _, k := range b.out {
		if k.kind == heading && k.size >= 1.15*b.body {
			s := math.Round(k.size*2) / 2
			if !containsFloat(sizes, s) {
				sizes = append(sizes, s)
			}
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(sizes)))
	for _, k := range b.out {
		if k.kind != heading {
			continue
		}
		s := math.Round(k.size*2) / 2
		switch i := indexFloat(sizes, s); {
		case i >= 0:
			k.level = i + 1
		default:
			k.level = len(sizes) + 1
			if m := numbered.FindStringSubmatch(k.text); m != nil {
				k.level += strings.Count(m[1], ".")
			}
		}
		k.level = min(k.level, 6)
	}
}

func containsFloat(xs []float64, x float64) bool { return indexFloat(xs, x) >= 0 }

func indexFloat(xs []float64, x float64) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// title is the text of the heading in the largest type on the first page
// that has headings, the first of them if several share it.
func (b *builder) title() string {
	best, t, page := 0.0, "", 0
	for _, k := range b.out {
		if k.kind != heading {
			continue
		}
		if page == 0 {
			page = k.starts[0].page
		}
		if k.starts[0].page != page {
			break
		}
		if k.size > best {
			best, t = k.size, k.text
		}
	}
	return t
}

// render writes the blocks as Markdown, with a mark where each page's
// text starts.
func (b *builder) render() (string, []document.Mark) {
	var sb strings.Builder
	var marks []document.Mark
	for i, k := range b.out {
		if i > 0 {
			if k.kind == item && b.out[i-1].kind == item {
				sb.WriteString("\n")
			} else {
				sb.WriteString("\n\n")
			}
		}
		start := sb.Len()
		prefix, text := "", k.text
		switch k.kind {
		case heading:
			prefix = strings.Repeat("#", k.level) + " "
		case item:
			if f := firstWord(text); f != "" && !strings.ContainsAny(f, "0123456789") {
				// Bullets of every kind read as Markdown's; numbers stay.
				prefix, text = "- ", strings.TrimSpace(text[len(f):])
			}
		case paragraph:
			text = escape(text)
		}
		// Where a page starts inside the block, its offset moves by what
		// the prefix and the bullet or escape changed at the text's start.
		shift := len(prefix) + len(text) - len(k.text)
		for j, ps := range k.starts {
			if len(marks) == 0 || marks[len(marks)-1].Page < ps.page {
				off := start
				if j > 0 {
					off += ps.offset + shift
				}
				marks = append(marks, document.Mark{Offset: off, Page: ps.page})
			}
		}
		sb.WriteString(prefix)
		if k.kind == table {
			writeTable(&sb, k.rows)
		} else {
			sb.WriteString(text)
		}
	}
	return sb.String(), marks
}

// escape keeps a paragraph's text from reading as Markdown structure it
// does not have: a heading, a list or a table row at its start.
func escape(t string) string {
	if t != "" && strings.ContainsRune("#>|", rune(t[0])) {
		return `\` + t
	}
	return t
}

func writeTable(sb *strings.Builder, rows [][]string) {
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	for i, r := range rows {
		if i > 0 {
			sb.WriteString("\n")
		}
		sb.WriteString("|")
		for _, c := range r {
			sb.WriteString(" " + cell(c) + " |")
		}
		if i == 0 {
			sb.WriteString("\n|")
			for range r {
				sb.WriteString(" --- |")
			}
		}
	}
}
