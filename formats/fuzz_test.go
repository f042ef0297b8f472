package formats_test

import (
	"archive/zip"
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/formats"
	"github.com/ragkit/ragkit/loader"
)

// fuzzConfig keeps fuzzed inputs' limits small, so that the limits are
// reached and each input is quick.
var fuzzConfig = formats.Config{MaxCells: 2000, MaxTextBytes: 1 << 20, MaxMemberBytes: 4 << 20, MaxUnzippedBytes: 8 << 20, MaxDepth: 64}

// checkParsed checks what every parser promises of any input: no panic,
// an error that wraps one of the parser sentinels, or a document whose
// text is within the limit and whose marks are sorted and inside it.
func checkParsed(t *testing.T, doc document.Document, err error) {
	t.Helper()
	if err != nil {
		if !errors.Is(err, loader.ErrFormat) && !errors.Is(err, loader.ErrTooLarge) {
			t.Fatalf("error wraps no sentinel: %v", err)
		}
		return
	}
	if doc.Format != document.Markdown {
		t.Fatalf("format %v", doc.Format)
	}
	if int64(len(doc.Text)) > fuzzConfig.MaxTextBytes {
		t.Fatalf("text of %d bytes over the limit", len(doc.Text))
	}
	for i, m := range doc.Marks {
		if m.Offset < 0 || m.Offset > len(doc.Text) || (i > 0 && m.Offset < doc.Marks[i-1].Offset) {
			t.Fatalf("mark %d at %d: out of order or outside a text of %d bytes", i, m.Offset, len(doc.Text))
		}
	}
	_ = doc.Outline()
}

// parseWithin parses data, failing the test if the parser does not return
// within a few seconds: a hang is a bug the fuzzer must report (it has no
// deadline of its own), with the input that caused it.
func parseWithin(t *testing.T, p loader.Parser, name string, data []byte) {
	t.Helper()
	type result struct {
		doc document.Document
		err error
	}
	done := make(chan result, 1)
	go func() {
		doc, err := p.Parse(context.Background(), name, data)
		done <- result{doc, err}
	}()
	select {
	case r := <-done:
		checkParsed(t, r.doc, r.err)
	case <-time.After(10 * time.Second):
		t.Fatalf("Parse of %d bytes did not return within 10 s", len(data))
	}
}

func FuzzHTML(f *testing.F) {
	for _, s := range []string{
		`<h1>T</h1><p>a <b>b</b></p><ul><li>x<ol><li>y</li></ol></li></ul>`,
		`<table><thead><tr><th>a</th><th>b</th></tr></thead><tr><td>1</td><td><table><tr><td>n</td></tr></table></td></tr></table>`,
		`<meta charset="koi8-r"><pre>` + "\xf0\xd2" + "```" + `</pre><blockquote><h2>q</h2></blockquote>`,
		`<main><article><header>h</header><nav>n</nav><p hidden>x</p></article></main>`,
	} {
		f.Add([]byte(s))
	}
	if data, err := os.ReadFile("testdata/html/w3m-faq.html"); err == nil {
		f.Add(data)
	}
	p, err := formats.NewHTML(fuzzConfig)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, page []byte) {
		parseWithin(t, p, "f.html", page)
	})
}

func FuzzDOCX(f *testing.F) {
	if data, err := os.ReadFile("testdata/handbook.docx"); err == nil {
		f.Add(data, "", "")
	}
	f.Add([]byte(nil), `<w:p><w:pPr><w:pStyle w:val="H"/><w:numPr><w:ilvl w:val="1"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>x</w:t><w:br/><w:tab/></w:r></w:p>`+
		`<w:tbl><w:tr><w:tc><w:tcPr><w:gridSpan w:val="3"/></w:tcPr><w:p><w:r><w:t>a</w:t></w:r></w:p><w:tbl><w:tr><w:tc><w:p><w:r><w:t>n</w:t></w:r></w:p></w:tc></w:tr></w:tbl></w:tc></w:tr></w:tbl>`,
		`<w:styles><w:style w:type="paragraph" w:styleId="H"><w:name w:val="heading 2"/></w:style></w:styles>`)
	p, err := formats.NewDOCX(fuzzConfig)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte, body, styles string) {
		parseWithin(t, p, "f.docx", raw)
		data := archiveOf(t, zip.Store, "word/document.xml", `<w:document `+wordNS+`><w:body>`+body+`</w:body></w:document>`,
			"word/styles.xml", styles,
			"word/numbering.xml", `<w:numbering><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="1"><w:numFmt w:val="decimal"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`)
		parseWithin(t, p, "f.docx", data)
	})
}

func FuzzXLSX(f *testing.F) {
	if data, err := os.ReadFile("testdata/station.xlsx"); err == nil {
		f.Add(data, "", "")
	}
	f.Add([]byte(nil), `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="C1" t="inlineStr"><is><t>h</t></is></c></row><row><c t="b"><v>1</v></c><c s="1"><v>45000.25</v></c><c r="XFD2"><v>1e300</v></c></row>`,
		`<sst><si><t>a|b</t></si></sst>`)
	p, err := formats.NewXLSX(fuzzConfig)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte, sheet, shared string) {
		parseWithin(t, p, "f.xlsx", raw)
		data := archiveOf(t, zip.Store, xlsxMembers(sheet, "xl/sharedStrings.xml", shared,
			"xl/styles.xml", `<styleSheet><cellXfs><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>`)...)
		parseWithin(t, p, "f.xlsx", data)
	})
}
