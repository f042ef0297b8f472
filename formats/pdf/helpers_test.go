package pdf_test

import (
	"fmt"
	"strings"
	"testing"
)

// minimalPDF writes a one-page PDF whose page draws content (Helvetica is
// its font F1), with extra added to its trailer dictionary.
func minimalPDF(content, extra string) []byte {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
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
