package pdf_test

import (
	"fmt"
	"strings"
	"testing"
)

// minimalPDF writes a one-page PDF whose page draws content (Helvetica is
// its font F1), with extra added to its trailer dictionary.
func minimalPDF(content, extra string) []byte { return pagesPDF([]string{content}, extra) }

// pagesPDF writes a PDF of one page per content stream.
func pagesPDF(contents []string, extra string) []byte {
	n := len(contents)
	kids := make([]string, n)
	for i := range contents {
		kids[i] = fmt.Sprintf("%d 0 R", 4+2*i)
	}
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	for i, c := range contents {
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << /F1 3 0 R >> >> >>", 5+2*i),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(c), c))
	}
	var b strings.Builder
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R %s >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, extra, xref)
	return []byte(b.String())
}

// numberedPages is a PDF of n pages, each with a line "This is page N of
// the test." at its top and lines of filler words under it.
func numberedPages(n, lines int) []byte {
	contents := make([]string, n)
	for i := range contents {
		var c strings.Builder
		fmt.Fprintf(&c, "BT /F1 10 Tf 72 600 Td 12 TL (This is page %d of the test.) Tj", i+1)
		for j := range lines {
			fmt.Fprintf(&c, " T* (Line %d holds words that fill the page for the reader.) Tj", j+1)
		}
		c.WriteString(" ET")
		contents[i] = c.String()
	}
	return pagesPDF(contents, "")
}

// noText is a page that draws a filled square and no text, as a scan's
// page draws an image.
var noText = minimalPDF("0 0 1 rg 100 100 200 200 re f", "")

// encrypted is a PDF under the standard security handler whose user
// password is not empty.
func encrypted(testing.TB) []byte {
	h := strings.Repeat("7a", 32)
	return minimalPDF("BT /F1 12 Tf 72 700 Td (secret) Tj ET",
		"/Encrypt << /Filter /Standard /V 1 /R 2 /Length 40 /O <"+h+"> /U <"+h+"> /P -4 >> /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>]")
}
