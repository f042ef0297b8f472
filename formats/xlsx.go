package formats

import (
	"context"
	"encoding/xml"
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/loader"
)

// XLSXParser reads spreadsheets (.xlsx, Office Open XML) into Markdown:
// each sheet a section headed by its name, its rows a Markdown table whose
// header is the sheet's first row that is not empty. A number is written
// as the sheet holds it (to 15 significant digits, as spreadsheets show
// them), a date-formatted number as a date (2026-01-31, with the time
// where it has one; the 1904 date system of old Mac workbooks read as
// such), a percentage-formatted one as a percentage (0.25 as 25%), a
// boolean as TRUE or FALSE, a formula as its cached value; other formats
// (currency, thousands separators) are not applied. Empty rows, and columns past the last one holding a value, are
// left out. The document's Marks give each row's sheet and row (the
// sheet's row number less the header's, so 1 is the first row under the
// header), so that a passage cites "sheet Costs, rows 4-9". The title and
// metadata come from the core properties, as for [DOCXParser].
//
// The cells read (empty ones inside a row included) are bounded by
// Config.MaxCells, the text by Config.MaxTextBytes, and every member by
// the archive limits, as the sheet is streamed: a sheet of a million
// cells is refused without holding it.
type XLSXParser struct{ cfg Config }

// NewXLSX returns an XLSX parser with the limits of cfg; the error wraps
// [ErrConfig].
func NewXLSX(cfg Config) (*XLSXParser, error) {
	cfg, err := cfg.resolved()
	if err != nil {
		return nil, err
	}
	return &XLSXParser{cfg: cfg}, nil
}

// Config returns the parser's configuration, defaults filled in.
func (p *XLSXParser) Config() Config { return p.cfg }

// Reads reports whether c is a ZIP archive, or an OLE file (which Parse
// reports as encrypted or as an old .xls).
func (p *XLSXParser) Reads(c loader.Content) bool {
	return c == loader.ContentZip || c == loader.ContentOLE
}

// Parse reads one XLSX file; see [XLSXParser].
func (p *XLSXParser) Parse(ctx context.Context, name string, data []byte) (document.Document, error) {
	// The loader names the file in its report: the error does not.
	return p.parse(ctx, data)
}

// maxColumns is a sheet's width in Excel and LibreOffice.
const maxColumns = 16384

type sheetRef struct{ name, part string }

func (p *XLSXParser) parse(ctx context.Context, data []byte) (document.Document, error) {
	a, err := openArchive(p.cfg, data, "XLSX", "an old binary Excel workbook (.xls)")
	if err != nil {
		return document.Document{}, err
	}
	main := a.mainPart(ctx, "xl/workbook.xml")
	if !a.has(main) {
		return document.Document{}, fmt.Errorf("%w: not a spreadsheet: no %s", loader.ErrFormat, main)
	}
	rels, err := a.relationships(ctx, main)
	if err != nil {
		return document.Document{}, err
	}
	sheets, date1904, err := a.sheets(ctx, main, rels)
	if err != nil {
		return document.Document{}, err
	}
	s := &sheetReader{cfg: p.cfg, md: markdown{limit: p.cfg.MaxTextBytes}, date1904: date1904}
	if part := rels.byType["sharedStrings"]; a.has(part) {
		if s.shared, err = a.sharedStrings(ctx, part, p.cfg); err != nil {
			return document.Document{}, err
		}
	}
	if part := rels.byType["styles"]; a.has(part) {
		if s.kinds, err = a.numberStyles(ctx, part); err != nil {
			return document.Document{}, err
		}
	}
	meta, err := a.coreProperties(ctx)
	if err != nil {
		return document.Document{}, err
	}
	for _, sh := range sheets {
		if err := s.read(ctx, a, sh); err != nil {
			return document.Document{}, fmt.Errorf("sheet %q: %w", sh.name, err)
		}
	}
	if err := s.md.err(); err != nil {
		return document.Document{}, err
	}
	title := meta["title"]
	delete(meta, "title")
	if len(meta) == 0 {
		meta = nil
	}
	return document.Document{Title: title, Text: s.md.String(), Format: document.Markdown, Metadata: meta, Marks: s.marks}, nil
}

// rels are a part's relationships: targets by id, and the first target
// of each type (the type's last path element, such as "sharedStrings").
type rels struct {
	byID, byType map[string]string
}

func (a *archive) relationships(ctx context.Context, part string) (rels, error) {
	r := rels{byID: map[string]string{}, byType: map[string]string{}}
	dir := path.Dir(part)
	name := path.Join(dir, "_rels", path.Base(part)+".rels")
	if !a.has(name) {
		return r, nil
	}
	err := a.each(ctx, name, func(t xml.Token) error {
		e, ok := t.(xml.StartElement)
		if !ok || e.Name.Local != "Relationship" {
			return nil
		}
		target := xattr(e, "Target")
		if strings.HasPrefix(target, "/") {
			target = path.Clean(target)[1:]
		} else {
			target = strings.TrimPrefix(path.Clean("/"+path.Join(dir, target)), "/")
		}
		r.byID[xattr(e, "Id")] = target
		typ := path.Base(xattr(e, "Type"))
		if _, ok := r.byType[typ]; !ok {
			r.byType[typ] = target
		}
		return nil
	})
	return r, err
}

// sheets returns the workbook's sheets in order, with their parts, and
// whether its dates count from 1904 (as old Mac workbooks' do).
func (a *archive) sheets(ctx context.Context, main string, r rels) ([]sheetRef, bool, error) {
	var sheets []sheetRef
	date1904 := false
	err := a.each(ctx, main, func(t xml.Token) error {
		e, ok := t.(xml.StartElement)
		switch {
		case !ok:
		case e.Name.Local == "workbookPr":
			v := xattr(e, "date1904")
			date1904 = v == "1" || v == "true"
		case e.Name.Local == "sheet":
			if part := r.byID[xattr(e, "id")]; part != "" && a.has(part) {
				sheets = append(sheets, sheetRef{name: oneLine(xattr(e, "name")), part: part})
			}
		}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return sheets, date1904, nil
}

// sharedStrings reads the workbook's table of strings, bounded by
// MaxCells strings.
func (a *archive) sharedStrings(ctx context.Context, part string, cfg Config) ([]string, error) {
	var out []string
	var b strings.Builder
	inT, phonetic := false, 0
	err := a.each(ctx, part, func(t xml.Token) error {
		switch e := t.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "si":
				b.Reset()
			case "t":
				inT = true
			case "rPh": // a phonetic reading, not the text
				phonetic++
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "si":
				if len(out) >= cfg.MaxCells {
					return fmt.Errorf("%w: more than %d shared strings (Config.MaxCells)", loader.ErrTooLarge, cfg.MaxCells)
				}
				out = append(out, b.String())
			case "t":
				inT = false
			case "rPh":
				phonetic--
			}
		case xml.CharData:
			if inT && phonetic == 0 {
				b.Write(e)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// A numberKind is how a number format shows a number.
type numberKind uint8

const (
	general numberKind = iota
	date               // a date or time
	percent            // the number times 100, with a percent sign
)

// numberStyles returns, per cell style index, how its number format
// shows a number.
func (a *archive) numberStyles(ctx context.Context, part string) ([]numberKind, error) {
	custom := map[int]numberKind{}
	var styles []numberKind
	inXfs := false
	err := a.each(ctx, part, func(t xml.Token) error {
		switch e := t.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "numFmt":
				id, _ := strconv.Atoi(xattr(e, "numFmtId"))
				custom[id] = formatKind(xattr(e, "formatCode"))
			case "cellXfs":
				inXfs = true
			case "xf":
				if inXfs && len(styles) < 1<<16 {
					id, _ := strconv.Atoi(xattr(e, "numFmtId"))
					kind, ok := custom[id]
					switch {
					case ok:
					case (id >= 14 && id <= 22) || (id >= 45 && id <= 47):
						kind = date
					case id == 9 || id == 10:
						kind = percent
					}
					styles = append(styles, kind)
				}
			}
		case xml.EndElement:
			if e.Name.Local == "cellXfs" {
				inXfs = false
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return styles, nil
}

// formatKind reads a number format code: a date or time if it has a d,
// m, y, h or s outside quotes, brackets and escapes, a percentage if it
// has a percent sign there.
func formatKind(code string) numberKind {
	quoted, bracket, kind := false, false, general
	for i := 0; i < len(code); i++ {
		switch ch := code[i]; {
		case ch == '"':
			quoted = !quoted
		case quoted:
		case ch == '\\' || ch == '_' || ch == '*':
			i++
		case ch == '[':
			bracket = true
		case ch == ']':
			bracket = false
		case bracket:
		case strings.IndexByte("dmyhsDMYHS", ch) >= 0:
			return date
		case ch == '%':
			kind = percent
		}
	}
	return kind
}

// sheetReader reads sheets into one document.
type sheetReader struct {
	cfg      Config
	md       markdown
	shared   []string
	kinds    []numberKind // by cell style
	date1904 bool
	cells    int   // read so far, all sheets
	bytes    int64 // of cell text read so far, all sheets
	marks    []document.Mark

	// The sheet being read.
	name   string
	header sheetRow // its first row with a value; n is 0 before it
	width  int      // the header's columns
}

type sheetRow struct {
	n     int // the sheet's row number
	cells []string
}

// read reads a sheet, writing each row that holds a value as it ends:
// only the header and the current row are held.
func (s *sheetReader) read(ctx context.Context, a *archive, sh sheetRef) error {
	s.name, s.header, s.width = sh.name, sheetRow{}, 0
	var row sheetRow
	var cell struct {
		col       int
		typ       string
		style     int
		value     strings.Builder
		inV, inIs bool
	}
	next := 0 // the column of a cell without a reference
	last := 0 // the sheet's last row number so far
	return a.each(ctx, sh.part, func(t xml.Token) error {
		switch e := t.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "row":
				last++
				if n, err := strconv.Atoi(xattr(e, "r")); err == nil && n > 0 {
					last = n
				}
				row, next = sheetRow{n: last, cells: row.cells[:0]}, 0
			case "c":
				cell.col = next
				if col, ok := column(xattr(e, "r")); ok {
					cell.col = col
				}
				if cell.col >= maxColumns {
					return fmt.Errorf("%w: a cell past column %d", loader.ErrFormat, maxColumns)
				}
				next = cell.col + 1
				cell.typ = xattr(e, "t")
				cell.style, _ = strconv.Atoi(xattr(e, "s"))
				cell.value.Reset()
			case "v":
				cell.inV = true
			case "is":
				cell.inIs = true
			}
		case xml.CharData:
			if cell.inV || cell.inIs {
				cell.value.Write(e)
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "v":
				cell.inV = false
			case "is":
				cell.inIs = false
			case "c":
				v := s.value(cell.typ, cell.style, cell.value.String())
				if v == "" {
					return nil
				}
				grow := cell.col + 1 - len(row.cells)
				if s.cells += max(grow, 1); s.cells > s.cfg.MaxCells {
					return fmt.Errorf("%w: more than %d cells (Config.MaxCells)", loader.ErrTooLarge, s.cfg.MaxCells)
				}
				if s.bytes += int64(len(v)); s.bytes > s.cfg.MaxTextBytes {
					return fmt.Errorf("%w: more than %d bytes of cell text (Config.MaxTextBytes)", loader.ErrTooLarge, s.cfg.MaxTextBytes)
				}
				for len(row.cells) <= cell.col {
					row.cells = append(row.cells, "")
				}
				row.cells[cell.col] = v
			case "row":
				if len(row.cells) > 0 {
					s.write(row)
				}
			}
		}
		return nil
	})
}

// value returns a cell's text by its type and style.
func (s *sheetReader) value(typ string, style int, v string) string {
	switch typ {
	case "s":
		i, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || i < 0 || i >= len(s.shared) {
			return ""
		}
		return oneLine(s.shared[i])
	case "b":
		if strings.TrimSpace(v) == "1" {
			return "TRUE"
		}
		return "FALSE"
	case "inlineStr", "str", "e":
		return oneLine(v)
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		return oneLine(v)
	}
	if style < 0 || style >= len(s.kinds) {
		return number(f)
	}
	switch s.kinds[style] {
	case date:
		if d, ok := serialDate(f, s.date1904); ok {
			return d
		}
	case percent:
		return number(f*100) + "%"
	}
	return number(f)
}

// number writes f as a spreadsheet shows it: 15 significant digits, no
// exponent for ordinary magnitudes.
func number(f float64) string {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 15, 64), 64)
	if a := math.Abs(r); a == 0 || (a >= 1e-9 && a < 1e15) {
		return strconv.FormatFloat(r, 'f', -1, 64)
	}
	return strconv.FormatFloat(r, 'g', -1, 64)
}

// serialDate converts a date serial (days since 1899-12-30 in the 1900
// date system, since 1904-01-01 in the 1904 one; the fraction the time of
// day) to ISO 8601.
func serialDate(f float64, date1904 bool) (string, bool) {
	if f < 0 || f > 2958465 { // 9999-12-31
		return "", false
	}
	epoch := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)
	if date1904 {
		epoch = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	days := math.Floor(f)
	secs := math.Round((f - days) * 86400)
	t := epoch.AddDate(0, 0, int(days)).Add(time.Duration(secs) * time.Second)
	clock := "15:04"
	if int64(secs)%60 != 0 {
		clock = "15:04:05"
	}
	switch {
	case days == 0 && secs > 0:
		return t.Format(clock), true
	case secs == 0:
		return t.Format("2006-01-02"), true
	}
	return t.Format("2006-01-02 " + clock), true
}

// column returns the 0-based column of a cell reference such as "AB12".
func column(ref string) (int, bool) {
	col, n := 0, 0
	for n < len(ref) && ref[n] >= 'A' && ref[n] <= 'Z' {
		col = col*26 + int(ref[n]-'A'+1)
		if n++; col > maxColumns {
			return maxColumns, true
		}
	}
	if n == 0 {
		return 0, false
	}
	return col - 1, true
}

// write writes a row of the sheet being read: the first opens the
// sheet's section and is its table's header; each later row is one line
// of the table, marked with its sheet and row, padded to the header's
// columns (a row wider than the header keeps its cells).
func (s *sheetReader) write(row sheetRow) {
	if s.header.n == 0 {
		s.header = sheetRow{n: row.n, cells: append([]string(nil), row.cells...)}
		s.width = len(row.cells)
		s.marks = append(s.marks, document.Mark{Offset: s.md.offset(), Sheet: s.name})
		s.md.block(heading(1, s.name))
		s.md.block(tableHeader(s.header.cells, s.width))
		return
	}
	s.marks = append(s.marks, document.Mark{Offset: s.md.len() + 1, Sheet: s.name, Row: row.n - s.header.n})
	s.md.line(tableRow(row.cells, max(s.width, len(row.cells))))
}
