// Package parse holds the loader's built-in parsers, of the text formats
// the standard library reads: Markdown with front matter, CSV and TSV,
// JSON and JSON Lines, man pages (roff), reStructuredText, AsciiDoc and
// source code. Each turns a file's bytes into a document whose Text is
// Markdown, so that outlines, chunk cuts and headers apply unchanged, with
// Marks where the text does not keep the source's rows or lines.
//
// The functions take the whole file, already checked to be text, and
// never panic: a file they cannot read is an error, one over a limit an
// error wrapping [ErrLimit]. Package loader wraps them as its
// DefaultParsers:
//
//	d, err := parse.CSV("prices.csv", data, ',')
package parse
