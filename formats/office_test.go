package formats_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/formats"
	"github.com/ragkit/ragkit/loader"
)

func parseFile(t *testing.T, p loader.Parser, name string) document.Document {
	t.Helper()
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	doc, err := p.Parse(context.Background(), name, data)
	require.NoError(t, err)
	return doc
}

func headings(doc document.Document) []string {
	var hs []string
	for _, h := range doc.Outline().Headings() {
		hs = append(hs, strings.Repeat("#", h.Level)+" "+h.Title)
	}
	return hs
}

// TestDOCX reads a document LibreOffice wrote from testdata/src/handbook.html.
func TestDOCX(t *testing.T) {
	p, err := formats.NewDOCX(formats.Config{})
	require.NoError(t, err)
	doc := parseFile(t, p, "testdata/handbook.docx")
	require.Equal(t, "Field Station Handbook", doc.Title)
	require.Equal(t, "Mara Lindqvist", doc.Metadata["author"])
	require.Equal(t, document.Markdown, doc.Format)
	require.Equal(t, []string{"# Field Station Handbook", "## Arrival", "## Equipment", "### Generator hours", "## Departure"}, headings(doc))
	for _, want := range []string{
		"1. Show your permit to the warden on duty.\n2. Collect a radio and a first aid kit.\n3. Read",
		"- Spotting scopes are kept in the east cabinet.\n- Soil augers",
		"| Building | Heating | Quiet hours |\n| --- | --- | --- |\n| Mess hall | Wood stove | 22:00 to 07:00 |",
	} {
		require.Contains(t, doc.Text, want)
	}
	src, err := os.ReadFile("testdata/src/handbook.html")
	require.NoError(t, err)
	body := string(src)[strings.Index(string(src), "<body>"):]
	sim := similarity(doc.Text, htmlText(body))
	t.Logf("word similarity to the source: %.3f", sim)
	require.GreaterOrEqual(t, sim, 0.98)
}

// TestXLSX reads spreadsheets LibreOffice wrote from testdata/src.
func TestXLSX(t *testing.T) {
	p, err := formats.NewXLSX(formats.Config{})
	require.NoError(t, err)

	t.Run("one sheet from CSV", func(t *testing.T) {
		doc := parseFile(t, p, "testdata/budget.xlsx")
		f, err := os.Open("testdata/src/budget.csv")
		require.NoError(t, err)
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		require.NoError(t, err)
		var src strings.Builder
		for _, r := range rows {
			src.WriteString(strings.Join(r, " ") + "\n")
		}
		sim := similarity(doc.Text, "budget\n"+src.String())
		t.Logf("word similarity to the source: %.3f", sim)
		require.GreaterOrEqual(t, sim, 0.98)
		require.Contains(t, doc.Text, "| Item | Category | Quarter | Cost (EUR) | Approved |\n| --- |")
		require.Contains(t, doc.Text, "| Weather station sensors | Instruments | Q1 | 1350.5 | yes |")
	})

	t.Run("sheets, dates, formulas, marks", func(t *testing.T) {
		doc := parseFile(t, p, "testdata/station.xlsx")
		require.Equal(t, "Kestrel Ridge station records", doc.Title)
		require.Equal(t, []string{"# Sightings", "# Staff"}, headings(doc))
		for _, want := range []string{
			"| Date | Species | Count | Confirmed |\n| --- | --- | --- | --- |\n| 2026-04-03 | Golden eagle | 2 |",
			"| 2026-04-09 | Ptarmigan | 12 |",
			"| Total |  | 21 |  |",
			"| Tomas Okafor | Cook \\| baker | 0.1 |",
		} {
			require.Contains(t, doc.Text, want)
		}
		at := func(s string) document.Location {
			i := strings.Index(doc.Text, s)
			require.GreaterOrEqual(t, i, 0, s)
			return doc.Locate(i, i+len(s))
		}
		require.Equal(t, "sheet Sightings, row 1", at("Golden eagle").String())
		// The empty row 4 is left out, and row numbers keep the sheet's.
		require.Equal(t, "sheet Sightings, row 4", at("Ptarmigan").String())
		require.Equal(t, "sheet Sightings, rows 1-2", at("Golden eagle | 2 | 1 |\n| 2026-04-05").String())
		require.Equal(t, "sheet Staff, row 2", at("Tomas").String())
		require.Equal(t, "sheet Staff", at("Radio channel").String())
		for i := 1; i < len(doc.Marks); i++ {
			require.Less(t, doc.Marks[i-1].Offset, doc.Marks[i].Offset)
		}
	})
}

// office returns a ZIP archive of the members given as name, content
// pairs, deflated.
func office(t testing.TB, members ...string) []byte {
	return archiveOf(t, zip.Deflate, members...)
}

// archiveOf returns a ZIP archive of the members, compressed by method.
func archiveOf(t testing.TB, method uint16, members ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for i := 0; i < len(members); i += 2 {
		f, err := w.CreateHeader(&zip.FileHeader{Name: members[i], Method: method})
		require.NoError(t, err)
		_, err = f.Write([]byte(members[i+1]))
		require.NoError(t, err)
	}
	require.NoError(t, w.Close())
	return b.Bytes()
}

const wordNS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`

func docxOf(t testing.TB, body string) []byte {
	return office(t, "word/document.xml", `<w:document `+wordNS+`><w:body>`+body+`</w:body></w:document>`)
}

func xlsxOf(t testing.TB, sheet string, extra ...string) []byte {
	return archiveOf(t, zip.Deflate, xlsxMembers(sheet, extra...)...)
}

// xlsxMembers are the members of a workbook of one sheet named S, and
// extra members.
func xlsxMembers(sheet string, extra ...string) []string {
	return append([]string{
		"xl/workbook.xml", `<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels", `<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
		"xl/worksheets/sheet1.xml", `<worksheet><sheetData>` + sheet + `</sheetData></worksheet>`,
	}, extra...)
}

// oleFile returns the start of an OLE compound file holding streams of
// the given names, as an encrypted Office file does: the signature, and
// the names in UTF-16 in its directory.
func oleFile(names ...string) []byte {
	b := []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")
	b = append(b, make([]byte, 504)...)
	for _, n := range names {
		for _, c := range n {
			b = append(b, byte(c), 0)
		}
		b = append(b, make([]byte, 64)...)
	}
	return b
}

func TestOfficeBadInput(t *testing.T) {
	docx, err := formats.NewDOCX(formats.Config{})
	require.NoError(t, err)
	xlsx, err := formats.NewXLSX(formats.Config{})
	require.NoError(t, err)
	small, err := formats.NewDOCX(formats.Config{MaxMemberBytes: 1 << 20, MaxUnzippedBytes: 3 << 20})
	require.NoError(t, err)
	fewCells, err := formats.NewXLSX(formats.Config{MaxCells: 10, MaxTextBytes: 1 << 10})
	require.NoError(t, err)
	handbook, err := os.ReadFile("testdata/handbook.docx")
	require.NoError(t, err)
	para := func(s string) string { return "<w:p><w:r><w:t>" + s + "</w:t></w:r></w:p>" }

	tests := []struct {
		name   string
		p      loader.Parser
		data   []byte
		is     error
		reason string // in the error's message
	}{
		{"encrypted DOCX", docx, oleFile("EncryptionInfo", "EncryptedPackage"), loader.ErrFormat, "encrypted"},
		{"encrypted XLSX", xlsx, oleFile("EncryptionInfo", "EncryptedPackage"), loader.ErrFormat, "encrypted"},
		{"old binary .doc", docx, oleFile("WordDocument"), loader.ErrFormat, ".doc"},
		{"not an archive", docx, []byte("plain text"), loader.ErrFormat, "ZIP"},
		{"truncated", docx, handbook[:len(handbook)/2], loader.ErrFormat, ""},
		{"an archive without a document", docx, office(t, "a.txt", "x"), loader.ErrFormat, "word/document.xml"},
		{"a spreadsheet without a workbook", xlsx, office(t, "a.txt", "x"), loader.ErrFormat, "xl/workbook.xml"},
		{"malformed XML", docx, office(t, "word/document.xml", "<w:document><w:body><w:p>"+strings.Repeat("<", 10)), loader.ErrFormat, "XML"},
		{"zip bomb by ratio", docx, docxOf(t, para(strings.Repeat(" ", 8<<20))), loader.ErrTooLarge, "MaxRatio"},
		{"member over MaxMemberBytes", small, docxOf(t, para(randomWords(2<<20))), loader.ErrTooLarge, "MaxMemberBytes"},
		{"archive over MaxUnzippedBytes", small, office(t,
			"word/styles.xml", "<w:styles>"+randomWords(900<<10)+"</w:styles>",
			"word/numbering.xml", "<w:numbering>"+randomWords(900<<10)+"</w:numbering>",
			"docProps/core.xml", "<cp:coreProperties>"+randomWords(900<<10)+"</cp:coreProperties>",
			"word/document.xml", "<w:document>"+randomWords(900<<10)+"</w:document>"), loader.ErrTooLarge, "MaxUnzippedBytes"},
		{"XML nested 100,000 deep", docx, docxOf(t, strings.Repeat("<w:sdt>", 100_000)), loader.ErrTooLarge, "MaxDepth"},
		{"a sheet over MaxCells", fewCells, xlsxOf(t, `<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c><c r="Z1" t="inlineStr"><is><t>b</t></is></c></row>`), loader.ErrTooLarge, "MaxCells"},
		{"a shared string repeated past MaxTextBytes", fewCells, xlsxOf(t,
			`<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>0</v></c></row>`,
			"xl/sharedStrings.xml", `<sst><si><t>`+strings.Repeat("x", 600)+`</t></si></sst>`), loader.ErrTooLarge, "MaxTextBytes"},
		{"a cell past the last column", xlsx, xlsxOf(t, `<row r="1"><c r="ZZZZ1"><v>1</v></c></row>`), loader.ErrFormat, "column"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.p.Parse(context.Background(), "f", tt.data)
			require.ErrorIs(t, err, tt.is)
			require.Contains(t, err.Error(), tt.reason)
		})
	}
}

// randomWords returns n bytes of words that compress as text does (by a
// few times), not as a bomb.
func randomWords(n int) string {
	var b strings.Builder
	x := uint32(1)
	for b.Len() < n {
		x = x*1664525 + 1013904223
		b.WriteString(strings.Repeat(string(rune('a'+x>>28)), int(x>>24&7)+1))
		b.WriteByte(byte('a' + x>>8%26))
		b.WriteByte(' ')
	}
	return b.String()
}

var spaces = regexp.MustCompile(`\s+`)

func TestXLSXCellTypes(t *testing.T) {
	p, err := formats.NewXLSX(formats.Config{})
	require.NoError(t, err)
	data := xlsxOf(t, `<row r="1"><c r="A1" t="inlineStr"><is><t>kind</t></is></c><c r="B1" t="inlineStr"><is><t>value</t></is></c></row>`+
		`<row r="2"><c r="A2" t="inlineStr"><is><t>bool</t></is></c><c r="B2" t="b"><v>1</v></c></row>`+
		`<row r="3"><c r="A3" t="inlineStr"><is><t>float</t></is></c><c r="B3"><v>0.30000000000000004</v></c></row>`+
		`<row r="4"><c r="A4" t="inlineStr"><is><t>formula</t></is></c><c r="B4" t="str"><f>A1</f><v>kind</v></c></row>`+
		`<row r="5"><c r="A5" t="inlineStr"><is><t>error</t></is></c><c r="B5" t="e"><v>#DIV/0!</v></c></row>`+
		`<row r="6"><c r="A6" t="inlineStr"><is><t>date</t></is></c><c r="B6" s="1"><v>46115.5</v></c></row>`+
		`<row r="7"><c r="A7" t="s"><v>0</v></c><c r="B7" t="s"><v>9</v></c></row>`+
		`<row r="8"><c r="A8" t="inlineStr"><is><t>percent</t></is></c><c r="B8" s="2"><v>0.07</v></c><c r="C8" s="3"><v>0.125</v></c></row>`,
		"xl/sharedStrings.xml", `<sst><si><r><t>rich </t></r><r><t>text</t></r><rPh><t>phonetic</t></rPh></si></sst>`,
		"xl/styles.xml", `<styleSheet><numFmts><numFmt numFmtId="164" formatCode="dd/mm/yyyy\ hh:mm"/><numFmt numFmtId="165" formatCode="0.0&quot;%&quot;\ &quot;d&quot;;0.0%"/></numFmts><cellXfs><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="9"/><xf numFmtId="165"/></cellXfs></styleSheet>`)
	doc, err := p.Parse(context.Background(), "t.xlsx", data)
	require.NoError(t, err)
	text := spaces.ReplaceAllString(doc.Text, " ")
	for _, want := range []string{"| bool | TRUE |", "| float | 0.3 |", "| formula | kind |", "| error | #DIV/0! |", "| rich text | |", "| date | 2026-04-03 12:00 |", "| percent | 7% | 12.5% |"} {
		require.Contains(t, text, want)
	}
	require.NotContains(t, text, "phonetic")

	// A workbook of the 1904 date system counts its dates from 1904-01-01.
	members := xlsxMembers(`<row r="1"><c t="inlineStr"><is><t>when</t></is></c></row><row r="2"><c s="1"><v>366</v></c></row>`,
		"xl/styles.xml", `<styleSheet><cellXfs><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>`)
	members[1] = strings.Replace(members[1], "<sheets>", `<workbookPr date1904="1"/><sheets>`, 1)
	doc, err = p.Parse(context.Background(), "mac.xlsx", archiveOf(t, zip.Deflate, members...))
	require.NoError(t, err)
	require.Contains(t, doc.Text, "| 1905-01-01 |")
}

// TestOfficeFidelity reads files LibreOffice made from text nobody here
// wrote (testdata/README.md): a page of Debian's documentation saved as
// DOCX, against w3m's rendering of the page, with every h1-h3 heading of
// the page a heading of the document; and Debian's release table saved as
// XLSX, against the CSV's cells.
func TestOfficeFidelity(t *testing.T) {
	docx, err := formats.NewDOCX(formats.Config{})
	require.NoError(t, err)
	xlsx, err := formats.NewXLSX(formats.Config{})
	require.NoError(t, err)

	doc := parseFile(t, docx, "testdata/base-passwd-users-and-groups.docx")
	dump, err := os.ReadFile("testdata/html/base-passwd-users-and-groups.w3m.txt")
	require.NoError(t, err)
	sim := similarity(doc.Text, string(dump))
	t.Logf("DOCX: word similarity to w3m -dump of the page: %.3f", sim)
	require.GreaterOrEqual(t, sim, 0.98)
	page, err := os.ReadFile("testdata/html/base-passwd-users-and-groups.html")
	require.NoError(t, err)
	found := map[string]bool{}
	for _, h := range doc.Outline().Headings() {
		found[strings.Join(words(h.Title), " ")] = true
	}
	for _, m := range headingTag.FindAllStringSubmatch(string(page), -1) {
		if h := strings.Join(words(htmlText(m[2])), " "); h != "" {
			require.True(t, found[h], "heading %q", h)
		}
	}

	doc = parseFile(t, xlsx, "testdata/debian-distro-info.xlsx")
	src, err := os.ReadFile("testdata/src/debian-distro-info.csv")
	require.NoError(t, err)
	sim = similarity(doc.Text, "debian-distro-info\n"+string(src))
	t.Logf("XLSX: word similarity to the CSV: %.3f", sim)
	require.GreaterOrEqual(t, sim, 0.98)
	require.Contains(t, doc.Text, "| version | codename | series | created | release | eol | eol-lts | eol-elts |\n| --- |")
}
