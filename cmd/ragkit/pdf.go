package main

import "github.com/ragkit/ragkit/formats/pdf"

// pdfs reads the PDFs of every command: PDFium starts at the first PDF a
// command reads, not for folders without one, and once per process; main
// closes it on the way out.
var pdfs pdf.Lazy
