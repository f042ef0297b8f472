package document

import (
	"path"
	"strconv"
	"strings"
)

// A Document is a text to chunk, decorate and index, with what is known
// about it.
type Document struct {
	// ID identifies the document: the DocID of its records in a store,
	// and its name in errors and progress. Required wherever documents
	// are stored.
	ID string
	// Title is the document's title, for headers and labels.
	Title string
	// Text is the whole document.
	Text string
	// Format says how to read the text's structure: [Text] (the default)
	// or [Markdown].
	Format Format
	// Metadata holds fields about the document (author, date, version).
	// ingest copies it to every record of the document, where filters
	// match it, and headers render the fields they are asked for.
	Metadata map[string]string
	// Summary, if not empty, is the document's summary: headers use it as
	// is, and no Summarizer is called for the document.
	Summary string
	// Source is where the document was read from, for citations: a file's
	// path (slash-separated, relative to the folder that was read) or a
	// URL. Empty when unknown.
	Source string
	// Marks, sorted by Offset, say where in the source the text comes
	// from, for sources with pages, sheets, rows or lines that the text
	// does not keep (see [Mark]); nil when there are none. [Document.Locate]
	// reads them.
	Marks []Mark

	// outline is the outline WithOutline parsed, which Outline returns
	// while Text and Format are still the ones it was parsed from.
	outline *Outline
}

// Outline returns the outline of the document's text, read as its Format.
//
// It parses the text on every call, unless d was made by
// [Document.WithOutline] (and its Text and Format are unchanged since):
// then it returns the outline parsed then.
func (d Document) Outline() *Outline {
	if o := d.outline; o != nil && o.format == d.Format && o.text == d.Text {
		return o // the same string: == compares the pointers first
	}
	return NewOutline(d.Text, d.Format)
}

// WithOutline returns d carrying its outline, parsed once, so that every
// package the document is handed to (ingest gives it to the chunk
// headers and the records) reads the same [Outline] rather than parsing
// the text again. Changing the copy's Text or Format makes Outline parse
// afresh.
func (d Document) WithOutline() Document {
	d.outline = d.Outline()
	return d
}

// Format tells how to read a text's structure.
type Format int

const (
	// Text is plain text: paragraphs are separated by blank lines, and
	// headings are lines that look like headings (see [Headings]).
	Text Format = iota
	// Markdown is CommonMark or GitHub-flavoured Markdown: ATX and setext
	// headings open sections, and fenced or indented code, tables, lists,
	// block quotes, HTML blocks and thematic breaks are blocks.
	Markdown
)

var formatNames = [...]string{Text: "Text", Markdown: "Markdown"}

// String returns the constant's name, such as "Markdown".
func (f Format) String() string {
	if f < 0 || int(f) >= len(formatNames) {
		return "Format(" + strconv.Itoa(int(f)) + ")"
	}
	return formatNames[f]
}

// Valid reports whether f is one of the Formats above. Functions that take
// a Format refuse any other with an error.
func (f Format) Valid() bool { return f >= 0 && int(f) < len(formatNames) }

// FormatOf returns the Format of a file by its name's extension: [Markdown]
// for .md, .markdown, .mdown, .mkd and .mdx (in any case), [Text] for any
// other name.
func FormatOf(name string) Format {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown", ".mdown", ".mkd", ".mdx":
		return Markdown
	}
	return Text
}
