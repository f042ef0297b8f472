package formats

import (
	"context"
	"encoding/xml"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/loader"
)

// DOCXParser reads Word documents (.docx, Office Open XML) into Markdown:
// paragraphs of the Title and Heading 1-6 styles (or of a style with an
// outline level) as headings, numbered and bulleted paragraphs as lists,
// tables as Markdown tables whose first row is the header, the body's
// text in order; headers, footers, comments, footnotes and deleted
// revisions are left out. The title is the document's core property
// "title", else its Title-styled paragraph; the metadata holds the core
// properties author, subject, description, keywords, created and
// modified.
//
// Every member is read through the limits of its [Config] as it is
// decompressed. A password-protected DOCX is an OLE compound file, not a
// ZIP archive: it is an error wrapping [loader.ErrFormat] that says
// "encrypted", as is an old binary .doc given the name .docx.
type DOCXParser struct{ cfg Config }

// NewDOCX returns a DOCX parser with the limits of cfg; the error wraps
// [ErrConfig].
func NewDOCX(cfg Config) (*DOCXParser, error) {
	cfg, err := cfg.resolved()
	if err != nil {
		return nil, err
	}
	return &DOCXParser{cfg: cfg}, nil
}

// Config returns the parser's configuration, defaults filled in.
func (p *DOCXParser) Config() Config { return p.cfg }

// Reads reports whether c is a ZIP archive, or an OLE file (which Parse
// reports as encrypted or as an old .doc rather than as binary).
func (p *DOCXParser) Reads(c loader.Content) bool {
	return c == loader.ContentZip || c == loader.ContentOLE
}

// Parse reads one DOCX file; see [DOCXParser].
func (p *DOCXParser) Parse(ctx context.Context, name string, data []byte) (document.Document, error) {
	// The loader names the file in its report: the error does not.
	return p.parse(ctx, data)
}

func (p *DOCXParser) parse(ctx context.Context, data []byte) (document.Document, error) {
	a, err := openArchive(p.cfg, data, "DOCX", "an old binary Word document (.doc)")
	if err != nil {
		return document.Document{}, err
	}
	main := a.mainPart(ctx, "word/document.xml")
	if !a.has(main) {
		return document.Document{}, fmt.Errorf("%w: not a Word document: no %s", loader.ErrFormat, main)
	}
	dir := path.Dir(main)
	levels, err := a.headingStyles(ctx, path.Join(dir, "styles.xml"))
	if err != nil {
		return document.Document{}, err
	}
	ordered, err := a.numbering(ctx, path.Join(dir, "numbering.xml"))
	if err != nil {
		return document.Document{}, err
	}
	meta, err := a.coreProperties(ctx)
	if err != nil {
		return document.Document{}, err
	}
	w := &docxWriter{md: markdown{limit: p.cfg.MaxTextBytes}, levels: levels, ordered: ordered, counters: map[string][]int{}}
	if err := w.body(ctx, a, main); err != nil {
		return document.Document{}, err
	}
	if err := w.md.err(); err != nil {
		return document.Document{}, err
	}
	title := meta["title"]
	delete(meta, "title")
	if title == "" {
		title = w.title
	}
	if len(meta) == 0 {
		meta = nil
	}
	return document.Document{Title: title, Text: w.md.String(), Format: document.Markdown, Metadata: meta}, nil
}

// mainPart returns the archive's main document part as its package
// relationships name it, else def.
func (a *archive) mainPart(ctx context.Context, def string) string {
	main := def
	// A missing or broken package relationship leaves the default.
	_ = a.each(ctx, "_rels/.rels", func(t xml.Token) error {
		if e, ok := t.(xml.StartElement); ok && e.Name.Local == "Relationship" &&
			strings.HasSuffix(xattr(e, "Type"), "/officeDocument") {
			if target := strings.TrimPrefix(path.Clean("/"+xattr(e, "Target")), "/"); a.has(target) {
				main = target
			}
			return errStop
		}
		return nil
	})
	return main
}

// headingStyles returns the heading level of each paragraph style that is
// a heading: Title 1, "heading N" N, else its outline level plus one.
func (a *archive) headingStyles(ctx context.Context, name string) (map[string]int, error) {
	levels := map[string]int{}
	if !a.has(name) {
		return levels, nil
	}
	id, level := "", 0
	err := a.each(ctx, name, func(t xml.Token) error {
		switch e := t.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "style":
				id, level = "", 0
				if xattr(e, "type") == "paragraph" {
					id = xattr(e, "styleId")
				}
			case "name":
				n := strings.ToLower(strings.ReplaceAll(xattr(e, "val"), " ", ""))
				if n == "title" {
					level = 1
				} else if v, ok := strings.CutPrefix(n, "heading"); ok {
					if l, err := strconv.Atoi(v); err == nil && l >= 1 && l <= 9 {
						level = min(l, 6)
					}
				}
			case "outlineLvl":
				if l, err := strconv.Atoi(xattr(e, "val")); err == nil && l >= 0 && l < 6 && level == 0 {
					level = l + 1
				}
			}
		case xml.EndElement:
			if e.Name.Local == "style" && id != "" && level > 0 {
				levels[id] = level
			}
		}
		return nil
	})
	return levels, err
}

// numbering returns, per list (numId) and level, whether its items are
// numbered rather than bulleted.
func (a *archive) numbering(ctx context.Context, name string) (map[string][]bool, error) {
	lists := map[string][]bool{}
	if !a.has(name) {
		return lists, nil
	}
	abstract := map[string][]bool{}
	numToAbstract := map[string]string{}
	cur, num, lvl := "", "", -1
	err := a.each(ctx, name, func(t xml.Token) error {
		e, ok := t.(xml.StartElement)
		if !ok {
			return nil
		}
		switch e.Name.Local {
		case "abstractNum":
			cur, num = xattr(e, "abstractNumId"), ""
		case "lvl":
			lvl, _ = strconv.Atoi(xattr(e, "ilvl"))
		case "numFmt":
			if cur != "" && lvl >= 0 && lvl < 9 {
				l := abstract[cur]
				for len(l) <= lvl {
					l = append(l, false)
				}
				f := xattr(e, "val")
				l[lvl] = f != "bullet" && f != "none" && f != ""
				abstract[cur] = l
			}
		case "num":
			num, cur = xattr(e, "numId"), ""
		case "abstractNumId":
			if num != "" {
				numToAbstract[num] = xattr(e, "val")
			}
		}
		return nil
	})
	for n, abs := range numToAbstract {
		lists[n] = abstract[abs]
	}
	return lists, err
}

// coreProperties returns the document's core properties: title, author,
// subject, description, keywords, created, modified.
func (a *archive) coreProperties(ctx context.Context) (map[string]string, error) {
	meta := map[string]string{}
	const name = "docProps/core.xml"
	if !a.has(name) {
		return meta, nil
	}
	keys := map[string]string{"title": "title", "creator": "author", "subject": "subject",
		"description": "description", "keywords": "keywords", "created": "created", "modified": "modified"}
	key := ""
	err := a.each(ctx, name, func(t xml.Token) error {
		switch e := t.(type) {
		case xml.StartElement:
			key = keys[e.Name.Local]
		case xml.CharData:
			if v := oneLine(string(e)); key != "" && v != "" && len(v) <= 4096 {
				meta[key] = v
			}
		case xml.EndElement:
			key = ""
		}
		return nil
	})
	return meta, err
}

// docxWriter renders a document part's body as Markdown.
type docxWriter struct {
	md       markdown
	levels   map[string]int
	ordered  map[string][]bool
	counters map[string][]int // per list, the last number of each level
	title    string
	inList   bool // the last block written is a list item

	// The paragraph being read.
	pDepth      int // paragraphs open: a text box's are inside another's
	style       string
	numID, ilvl string
	inRun, inT  bool
	text        strings.Builder

	tables []*docxTable // open tables, innermost last
	skip   int          // depth inside a part of the body not read
}

type docxTable struct {
	rows [][]string
	row  []string
	cell strings.Builder
	pad  int // empty cells owed after the cell, for a merged one
}

// body reads the main part's paragraphs and tables.
func (w *docxWriter) body(ctx context.Context, a *archive, name string) error {
	err := a.each(ctx, name, func(t xml.Token) error {
		if w.md.over {
			return errStop
		}
		switch e := t.(type) {
		case xml.StartElement:
			w.start(e)
		case xml.EndElement:
			w.end(e)
		case xml.CharData:
			if w.inT && w.skip == 0 {
				w.text.Write(e)
			}
		}
		return nil
	})
	w.endParagraph()
	return err
}

// skipped are the elements whose content is not the body's text: the
// fallback of alternate content (which repeats the choice's text), and
// deleted or moved-away revisions.
var skipped = map[string]bool{"Fallback": true, "del": true, "moveFrom": true, "instrText": true}

func (w *docxWriter) start(e xml.StartElement) {
	n := e.Name.Local
	if w.skip > 0 || skipped[n] {
		w.skip++
		return
	}
	switch n {
	case "p":
		if w.pDepth == 0 {
			w.style, w.numID, w.ilvl = "", "", ""
			w.text.Reset()
		}
		w.pDepth++
	case "pStyle":
		if w.pDepth == 1 {
			w.style = xattr(e, "val")
		}
	case "numId":
		if w.pDepth == 1 {
			w.numID = xattr(e, "val")
		}
	case "ilvl":
		if w.pDepth == 1 {
			w.ilvl = xattr(e, "val")
		}
	case "r":
		w.inRun = true
	case "t":
		w.inT = true
	case "tab":
		if w.inRun {
			w.text.WriteByte('\t')
		}
	case "br", "cr":
		if w.inRun {
			w.text.WriteByte('\n')
		}
	case "noBreakHyphen":
		w.text.WriteByte('-')
	case "tbl":
		if w.pDepth == 0 {
			w.tables = append(w.tables, &docxTable{})
		}
	case "tc":
		if t := w.table(); t != nil {
			t.cell.Reset()
		}
	case "gridSpan":
		// A cell merged across columns: empty cells after it keep the
		// columns in line with the header's.
		if t := w.table(); t != nil {
			if s, err := strconv.Atoi(xattr(e, "val")); err == nil && s > 1 && s <= 64 {
				t.pad += s - 1
			}
		}
	}
}

func (w *docxWriter) end(e xml.EndElement) {
	if w.skip > 0 {
		w.skip--
		return
	}
	switch e.Name.Local {
	case "p":
		if w.pDepth--; w.pDepth == 0 {
			w.endParagraph()
		}
	case "r":
		w.inRun = false
	case "t":
		w.inT = false
	case "tc":
		if t := w.table(); t != nil {
			t.row = append(t.row, t.cell.String())
			for ; t.pad > 0; t.pad-- {
				t.row = append(t.row, "")
			}
		}
	case "tr":
		if t := w.table(); t != nil {
			t.rows = append(t.rows, t.row)
			t.row = nil
		}
	case "tbl":
		t := w.table()
		if t == nil || w.pDepth > 0 {
			return
		}
		w.tables = w.tables[:len(w.tables)-1]
		if outer := w.table(); outer != nil {
			// A table in a cell: its text joins the cell's.
			for _, r := range t.rows {
				appendText(&outer.cell, strings.Join(r, " "))
			}
			return
		}
		w.write(table(t.rows), false)
	}
}

func (w *docxWriter) table() *docxTable {
	if len(w.tables) == 0 {
		return nil
	}
	return w.tables[len(w.tables)-1]
}

// appendText adds s to b after a space.
func appendText(b *strings.Builder, s string) {
	if s = strings.TrimSpace(s); s == "" {
		return
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	b.WriteString(s)
}

// endParagraph writes the paragraph read as a heading, a list item or a
// paragraph, or adds it to the table cell it is in.
func (w *docxWriter) endParagraph() {
	text := strings.TrimSpace(w.text.String())
	w.text.Reset()
	if text == "" {
		return
	}
	if t := w.table(); t != nil {
		appendText(&t.cell, oneLine(text))
		return
	}
	if level := w.levels[w.style]; level > 0 {
		if w.title == "" && strings.EqualFold(w.style, "title") {
			w.title = oneLine(text)
		}
		w.write(heading(level, text), false)
		return
	}
	if w.numID != "" && w.numID != "0" {
		lvl, _ := strconv.Atoi(w.ilvl)
		lvl = min(max(lvl, 0), 8)
		marker := "- "
		if o := w.ordered[w.numID]; lvl < len(o) && o[lvl] {
			c := w.counters[w.numID]
			for len(c) <= lvl {
				c = append(c, 0)
			}
			c[lvl]++
			for i := lvl + 1; i < len(c); i++ {
				c[i] = 0
			}
			w.counters[w.numID] = c
			marker = strconv.Itoa(c[lvl]) + ". "
		}
		indent := strings.Repeat("   ", lvl)
		w.write(prefixLines(paragraph(text), indent+marker, indent+"   "), true)
		return
	}
	w.write(paragraph(text), false)
}

// write writes a block; consecutive list items are written as one list.
func (w *docxWriter) write(s string, item bool) {
	if s == "" {
		return
	}
	if item && w.inList {
		w.md.line(s)
	} else {
		w.md.block(s)
	}
	w.inList = item
}
