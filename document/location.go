package document

import (
	"sort"
	"strconv"
	"strings"
)

// A Mark says where in its source the text of a [Document] comes from,
// from the mark's Offset up to the next mark's. Parsers of formats with
// pages, sheets or rows set them (a PDF parser one mark per page, a
// spreadsheet's parser one per row), so that every stretch of the text can
// be located, and cited, in the source.
//
// A field's zero value means the source has no such place there: a mark
// of a PDF page has a Page and no Row.
type Mark struct {
	// Offset is the byte offset in the document's Text where this place
	// of the source starts.
	Offset int
	// Page is the page (1-based) of a paged source, such as a PDF.
	Page int
	// Line is the line (1-based) of the source file that the text at
	// Offset comes from, where the text is not the file's own bytes
	// (a man page, source code read into sections).
	Line int
	// Sheet is the name of a spreadsheet's sheet.
	Sheet string
	// Row is the row (1-based, the header row not counted) of a table
	// source: a CSV file or a sheet.
	Row int
}

// A Location is where a stretch of a document's text is in its source: the
// first and last page, line and row it covers. A zero field means the
// source has no such place; a Location with every field zero says nothing.
//
// Its JSON form, which stores that keep a location as JSON use, names the
// fields in snake case and leaves zero ones out: {"page": 3, "last_page": 4}.
type Location struct {
	// Page and LastPage are the first and last page (1-based).
	Page     int `json:"page,omitempty"`
	LastPage int `json:"last_page,omitempty"`
	// Line and LastLine are the first and last line (1-based) of the
	// source file.
	Line     int `json:"line,omitempty"`
	LastLine int `json:"last_line,omitempty"`
	// Sheet is the spreadsheet's sheet of the stretch's start.
	Sheet string `json:"sheet,omitempty"`
	// Row and LastRow are the first and last row (1-based) of a table
	// source. A stretch that spans two sheets has no rows.
	Row     int `json:"row,omitempty"`
	LastRow int `json:"last_row,omitempty"`
}

// IsZero reports whether the location says nothing.
func (l Location) IsZero() bool { return l == Location{} }

// String returns the location as a citation reads it, such as "p. 3",
// "pp. 3-4", "lines 10-24" or "sheet Costs, rows 2-5"; the empty string for
// the zero Location.
func (l Location) String() string {
	var parts []string
	if l.Page > 0 {
		if l.LastPage > l.Page {
			parts = append(parts, "pp. "+strconv.Itoa(l.Page)+"-"+strconv.Itoa(l.LastPage))
		} else {
			parts = append(parts, "p. "+strconv.Itoa(l.Page))
		}
	}
	if l.Sheet != "" {
		parts = append(parts, "sheet "+l.Sheet)
	}
	if l.Row > 0 {
		parts = append(parts, span("row", "rows", l.Row, l.LastRow))
	}
	if l.Line > 0 {
		parts = append(parts, span("line", "lines", l.Line, l.LastLine))
	}
	return strings.Join(parts, ", ")
}

func span(one, many string, first, last int) string {
	if last > first {
		return many + " " + strconv.Itoa(first) + "-" + strconv.Itoa(last)
	}
	return one + " " + strconv.Itoa(first)
}

// Locate returns the location in the source of d.Text[start:end], from the
// marks that hold at start and at the stretch's last byte: the zero
// Location when d has no Marks or none before start. Locate never fails:
// offsets outside the text are clamped, and marks out of order are read as
// if each held up to the first later mark with a greater offset (sort them,
// as parsers do, for the documented meaning).
func (d Document) Locate(start, end int) Location {
	if len(d.Marks) == 0 {
		return Location{}
	}
	start, end = clamp(start, len(d.Text)), clamp(end, len(d.Text))
	if end < start {
		end = start
	}
	last := end - 1
	if last < start {
		last = start
	}
	first, ok := d.markAt(start)
	if !ok {
		return Location{}
	}
	final, _ := d.markAt(last)
	loc := Location{
		Page: first.Page, LastPage: max(first.Page, final.Page),
		Line: first.Line, LastLine: max(first.Line, final.Line),
		Sheet: first.Sheet,
	}
	if first.Sheet == final.Sheet {
		loc.Row, loc.LastRow = first.Row, max(first.Row, final.Row)
	}
	if loc.Page == 0 {
		loc.LastPage = 0
	}
	if loc.Line == 0 {
		loc.LastLine = 0
	}
	if loc.Row == 0 {
		loc.LastRow = 0
	}
	return loc
}

// markAt returns the last mark whose Offset is at most off.
func (d Document) markAt(off int) (Mark, bool) {
	i := sort.Search(len(d.Marks), func(i int) bool { return d.Marks[i].Offset > off })
	if i == 0 {
		return Mark{}, false
	}
	return d.Marks[i-1], true
}

func clamp(x, n int) int { return min(max(x, 0), n) }
