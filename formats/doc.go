// Package formats reads the documents users have beyond Markdown and
// plain text: HTML pages ([HTMLParser]), Word documents ([DOCXParser]) and
// spreadsheets ([XLSXParser]), each into a [document.Document] whose text
// is Markdown, so that outlines, the chunker's cuts and contextual
// headers (section paths, table header rows) apply as they do to
// Markdown files. A spreadsheet's document carries Marks, so that every
// passage can cite its sheet and rows ([document.Document.Locate]).
//
// The parsers implement [loader.Parser]. [Parsers] returns them by
// extension, for the loader to dispatch on:
//
//	p := formats.Parsers()
//	doc, err := p[".docx"].Parse(ctx, "report.docx", data)
//
// It is a module of its own (github.com/ragkit/ragkit/formats), so that the
// core module gains none of its dependencies: golang.org/x/net/html and
// its charset package (HTML5 parsing as browsers do, and the encodings
// pages declare). DOCX and XLSX are read with the standard library's
// archive/zip and encoding/xml, streamed, so that the limits of [Config]
// hold as a file is decompressed. A PDF parser (PDFium in WebAssembly)
// joins this module later.
//
// # Limits
//
// Every parser bounds what a file can make it do ([Config]): the bytes
// decompressed from an archive, in all and per member, and how much a
// member may grow (a zip bomb), the nesting of elements (HTML or XML
// nested 100,000 deep), a spreadsheet's cells, and the text made. A file
// over a limit is an error wrapping [loader.ErrTooLarge]; a file that is
// not of its format, truncated, or encrypted is one wrapping
// [loader.ErrFormat]. No input makes a parser panic.
package formats
