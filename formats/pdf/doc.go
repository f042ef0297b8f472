// Package pdf reads PDF files into Markdown documents with their layout:
// it is a [loader.Parser] built on PDFium, the PDF engine of Chromium,
// compiled to WebAssembly and run by wazero (pure Go, no cgo; the engine
// is embedded in the module, about 6 MB). It lives in a module of its own
// so that only programs that read PDFs take it on.
//
//	p, err := pdf.New(pdf.Config{})
//	if err != nil { ... }
//	defer p.Close()
//	doc, err := p.Parse(ctx, "report.pdf", data)
//	// doc.Text is Markdown in reading order; doc.Locate(start, end).Page
//	// is the page a stretch of it comes from.
//
// # What is read
//
// From each character's box, baseline, font size and font name as PDFium
// reports them, the parser rebuilds:
//
//   - Lines, cut where the gap between two characters is wider than an em,
//     and blocks: paragraphs end at a larger space between lines, an
//     indent, or a change of type.
//   - Columns: where a gutter runs down a page between two columns of
//     prose, the text between any two lines that cross it (a title, a
//     figure caption across the page) is read column by column.
//   - Running headers, footers and page numbers: text within the top or
//     bottom 15% of a page that repeats at the same height on at least two
//     pages and on 40% of them, whatever the numbers in it, and lone page
//     numbers there, are removed. A one-page file keeps its header and
//     footer, since nothing repeats; only a lone page number goes.
//   - Hyphenated line ends are joined ("unfa-" "miliar" is "unfamiliar",
//     "good-look-" "ing" is "good-looking"), and ligatures and
//     presentation forms (U+FB00 to U+FDFF, U+FE10 to U+FEFF, full-width
//     ASCII) are normalised by NFKC ("ﬁ" reads "fi").
//   - Headings: lines in type at least 15% larger than the body's (the most
//     common size) are headings, one level per size, largest first; short
//     lines all in bold at the body size come after them, one level deeper
//     per numbering component ("1.2" under "1."). They are written as
//     Markdown headings, so outlines and chunk cuts apply.
//   - Lists: lines opening with a bullet, a dash, or a number or letter and
//     a dot or parenthesis are list items ("- " for bullets).
//   - Tables: two or more lines whose cells line up in columns that no
//     cell crosses are a Markdown table, the first line its header row; a
//     line under a row that fits one column continues that cell.
//   - Pages: a [document.Mark] with the page (1-based) where each page's
//     text starts, so that every chunk and record carries its pages; a
//     page with no text has no mark.
//   - The title is the file's metadata Title, else the first heading of
//     the highest level; Author, Subject and Keywords go into Metadata
//     under [AuthorKey], [SubjectKey] and [KeywordsKey], the page count
//     under [PagesKey].
//
// Text that PDFium cannot map to Unicode, images and vector drawings are
// not read; text in rotated lines is read as PDFium orders it.
//
// # Errors and limits
//
// A file that is not a well-formed PDF (truncated, corrupt) or that needs
// a password is an error wrapping [loader.ErrFormat] that says which; a
// file whose pages hold no text (scanned pages without a text layer)
// wraps [loader.ErrNoText]; a file over one of [Config]'s limits (bytes,
// pages, characters on a page, time) wraps [loader.ErrTooLarge]. The
// memory of each engine instance is bounded by Config.MaxMemory; the time
// of a file by Config.Timeout and by Parse's context, whose end stops the
// engine mid-call. The engine is given no file system: it reads only the
// bytes it is passed.
//
// # Cost
//
// [New] compiles the engine, which takes seconds; the compiled code is
// kept for the process, so a second New is quick. Each instance holds a
// copy of the file it reads and PDFium's memory for it. A file's pages are
// read in parallel on as many instances as are free (one more per four
// pages, up to Config.MaxInstances). Reading asks the engine for each
// character's box and size, and for its font once a word; each call to
// the engine watches the context, which is what lets a time limit stop
// it. The layout is linear in a page's characters, apart from the column
// search, linear in the page's width times its lines. Figures, against
// pdftotext, are in benchmarks/README.md.
package pdf
