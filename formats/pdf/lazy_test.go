package pdf_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/formats/pdf"
	"github.com/ragkit/ragkit/loader"
)

// TestLazy: a zero Lazy reads a PDF, starting the engine at the first one;
// a bad Config is New's error until Close; after Close it starts again.
func TestLazy(t *testing.T) {
	ctx := context.Background()
	var l pdf.Lazy
	if !l.Reads(loader.ContentPDF) || l.Reads(loader.ContentText) {
		t.Fatal("Reads: a Lazy reads PDFs only")
	}
	if err := l.Close(); err != nil {
		t.Fatalf("Close before any Parse: %v", err)
	}
	data := minimalPDF("BT /F1 12 Tf 72 720 Td (Lazy engines start late.) Tj ET", "")
	for round := range 2 {
		doc, err := l.Parse(ctx, "late.pdf", data)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if !strings.Contains(doc.Text, "Lazy engines start late.") {
			t.Fatalf("round %d: text %q", round, doc.Text)
		}
		if err := l.Close(); err != nil {
			t.Fatalf("round %d: Close: %v", round, err)
		}
	}

	bad := pdf.Lazy{Config: pdf.Config{MaxInstances: -1}}
	for range 2 {
		if _, err := bad.Parse(ctx, "late.pdf", data); !errors.Is(err, pdf.ErrConfig) {
			t.Fatalf("a bad Config: %v, want ErrConfig", err)
		}
	}
	if err := bad.Close(); err != nil {
		t.Fatal(err)
	}
}
