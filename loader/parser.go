package loader

import (
	"bytes"
	"context"
	"errors"

	"github.com/ragkit/ragkit/document"
)

// A Parser reads the files of one format into documents. The loader
// chooses a file's parser by the extension of its name ([Config.Parsers])
// and checks it by the file's content ([Sniff]): a parser is given only
// the files whose content it [Parser.Reads], so that a binary file is
// never read as text whatever its name.
//
// A Parser must be safe for concurrent use, must not keep data after
// Parse returns, and must bound the time and memory a file can make it
// use (a zip bomb, a sheet of a million cells, HTML nested 100,000 deep):
// a file over a parser's limit is an error wrapping [ErrTooLarge].
type Parser interface {
	// Reads reports whether the parser reads files whose content is c:
	// a text format's parser reads [ContentText], a DOCX parser
	// [ContentZip].
	Reads(c Content) bool
	// Parse reads one whole file, data, whose path relative to the root
	// is name (slash-separated), into a document: its Text (Markdown
	// where the format has structure, so that outlines, chunk cuts and
	// headers apply), Format, Title where the file names one, Metadata
	// from the file's own properties, and Marks where the source has
	// pages, sheets, rows or lines that the text does not keep. The
	// loader sets ID and Source, cleans the Text (moving the Marks with
	// it) and adds its own metadata.
	//
	// An error wrapping [ErrFormat] says that the file is not a readable
	// file of its format (malformed, truncated, encrypted), [ErrNoText]
	// that it holds no text to read (a scanned PDF), [ErrTooLarge] that
	// it is over one of the parser's limits; the loader reports the file
	// as skipped with the error as its reason. Any other error is
	// reported wrapped in ErrFormat. Parse must return when ctx is done.
	Parse(ctx context.Context, name string, data []byte) (document.Document, error)
}

// Errors a [Parser] returns, reported as the reasons of a [Skip].
var (
	// ErrFormat: a file that its parser cannot read: malformed,
	// truncated or encrypted, the message says which.
	ErrFormat = errors.New("loader: cannot parse")
	// ErrNoText: a file of a readable format that holds no text, such as
	// a PDF of scanned pages without a text layer.
	ErrNoText = errors.New("loader: no text layer")
)

// Content is what a file's first bytes say it holds, as [Sniff] reads
// them.
type Content string

// The contents [Sniff] tells apart.
const (
	// ContentText is text: no byte-order mark of UTF-16 or UTF-32 and no
	// NUL byte in the first bytes, and no known binary signature.
	ContentText Content = "text"
	// ContentPDF is a PDF file ("%PDF-").
	ContentPDF Content = "pdf"
	// ContentZip is a ZIP archive, such as a DOCX, XLSX or ODT file.
	ContentZip Content = "zip"
	// ContentGzip is gzip-compressed data; the loader reads what it
	// holds by the name without ".gz".
	ContentGzip Content = "gzip"
	// ContentOLE is an OLE compound file: an old Office document (.doc,
	// .xls) or an encrypted, password-protected DOCX or XLSX.
	ContentOLE Content = "ole"
	// ContentBinary is any other binary data: images, audio, programs,
	// UTF-16 text, data with NUL bytes.
	ContentBinary Content = "binary"
)

// sniffLen is how many of a file's first bytes Sniff reads.
const sniffLen = 8 << 10

var signatures = []struct {
	magic   string
	content Content
}{
	{"%PDF-", ContentPDF},
	{"PK\x03\x04", ContentZip},
	{"PK\x05\x06", ContentZip}, // an empty archive
	{"\x1f\x8b", ContentGzip},
	{"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", ContentOLE},
	{"\xff\xfe", ContentBinary}, // UTF-16 or UTF-32 little-endian
	{"\xfe\xff", ContentBinary}, // UTF-16 big-endian
	{"\x00\x00\xfe\xff", ContentBinary},
	{"\x89PNG\r\n\x1a\n", ContentBinary},
	{"\xff\xd8\xff", ContentBinary}, // JPEG
	{"GIF8", ContentBinary},
	{"\x7fELF", ContentBinary},
	{"MZ", ContentBinary},
	{"\x00asm", ContentBinary}, // WebAssembly
	{"BZh", ContentBinary},
	{"\xfd7zXZ\x00", ContentBinary},
	{"7z\xbc\xaf\x27\x1c", ContentBinary},
	{"\x28\xb5\x2f\xfd", ContentBinary}, // zstd
	{"RIFF", ContentBinary},
	{"OggS", ContentBinary},
	{"ID3", ContentBinary},
	{"SQLite format 3\x00", ContentBinary},
}

// Sniff returns what data, a file's content or its first bytes, holds:
// a known binary signature at its start, else [ContentBinary] if a NUL
// byte appears in its first 8 KiB, else [ContentText]. A text file may
// still be invalid UTF-8; the loader repairs or refuses that as
// [Config.InvalidUTF8] says.
func Sniff(data []byte) Content {
	for _, s := range signatures {
		if bytes.HasPrefix(data, []byte(s.magic)) {
			return s.content
		}
	}
	if bytes.IndexByte(data[:min(len(data), sniffLen)], 0) >= 0 {
		return ContentBinary
	}
	return ContentText
}
