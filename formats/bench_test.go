package formats_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/formats"
	"github.com/ragkit/ragkit/loader"
)

// BenchmarkParse reads each test document, alone and repeated 4 times
// (an HTML page's body, a DOCX's paragraphs, a sheet's rows), for MB/s
// per format and whether the time grows linearly.
func BenchmarkParse(b *testing.B) {
	html, err := os.ReadFile("testdata/html/base-passwd-users-and-groups.html")
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1, 4} {
		// The page has no <body> tag: its content repeated is a page n times as long.
		bench(b, fmt.Sprintf("html/x%d", n), must(formats.NewHTML(formats.Config{})), bytes.Repeat(html, n))
		para := strings.Repeat("<w:p><w:pPr><w:pStyle w:val=\"Heading2\"/></w:pPr><w:r><w:t>A heading of the report</w:t></w:r></w:p>"+
			strings.Repeat("<w:p><w:r><w:t>"+randomWords(400)+"</w:t></w:r></w:p>", 8), 25*n)
		bench(b, fmt.Sprintf("docx/x%d", n), must(formats.NewDOCX(formats.Config{})), docxOf(b, para))
		bench(b, fmt.Sprintf("xlsx/x%d", n), must(formats.NewXLSX(formats.Config{})), xlsxOf(b, sheetRows(2500*n, 8)))
	}
}

func bench(b *testing.B, name string, p loader.Parser, data []byte) {
	b.Run(name, func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(unzipped(data))
		for b.Loop() {
			if _, err := p.Parse(context.Background(), name, data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// unzipped is the size of data decompressed, if it is an archive: the
// bytes a parser reads.
func unzipped(data []byte) int64 {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return int64(len(data))
	}
	n := int64(0)
	for _, f := range zr.File {
		n += int64(f.UncompressedSize64)
	}
	return n
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// sheetRows returns the XML of rows of cols inline-string cells each.
func sheetRows(rows, cols int) string {
	var s strings.Builder
	for r := 1; r <= rows; r++ {
		fmt.Fprintf(&s, `<row r="%d">`, r)
		for c := range cols {
			fmt.Fprintf(&s, `<c r="%c%d" t="inlineStr"><is><t>cell %d of row %d</t></is></c>`, 'A'+c, r, c, r)
		}
		s.WriteString("</row>")
	}
	return s.String()
}

// BenchmarkMillionCells parses a sheet of 1,000,000 numeric cells (1,000
// rows of 1,000 columns) with the default limit (refused as it passes
// the millionth cell) and with the limit raised to read it all: the
// memory either takes is what -benchmem reports.
func BenchmarkMillionCells(b *testing.B) {
	var s bytes.Buffer
	for r := 1; r <= 1000; r++ {
		fmt.Fprintf(&s, `<row r="%d">`, r)
		for c := range 1000 {
			fmt.Fprintf(&s, `<c><v>%d</v></c>`, c)
		}
		s.WriteString("</row>")
	}
	s.WriteString(`<row r="1001"><c><v>1</v></c></row>`)
	var z bytes.Buffer
	w := zip.NewWriter(&z)
	for _, m := range [][2]string{
		{"xl/workbook.xml", `<workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>`},
		{"xl/_rels/workbook.xml.rels", `<Relationships><Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/></Relationships>`},
		{"xl/worksheets/sheet1.xml", `<worksheet><sheetData>` + s.String() + `</sheetData></worksheet>`},
	} {
		f, _ := w.Create(m[0])
		f.Write([]byte(m[1]))
	}
	w.Close()
	data := z.Bytes()
	for _, limit := range []int{0, 2_000_000} {
		p := must(formats.NewXLSX(formats.Config{MaxCells: limit}))
		b.Run(fmt.Sprintf("MaxCells=%d", p.Config().MaxCells), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(unzipped(data))
			for b.Loop() {
				_, err := p.Parse(context.Background(), "million.xlsx", data)
				if limit == 0 && !errors.Is(err, loader.ErrTooLarge) || limit > 0 && err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
