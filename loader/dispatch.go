package loader

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ragkit/ragkit/document"
)

// FormatsModule is the module whose parsers read the formats that need
// more than the standard library (HTML, DOCX, XLSX, PDF); the reason of a
// file of one of those formats, when no parser reads it, names it.
const FormatsModule = "github.com/ragkit/ragkit/formats"

// elsewhere are the extensions whose parsers live in FormatsModule.
var elsewhere = map[string]bool{".html": true, ".htm": true, ".xhtml": true, ".docx": true, ".xlsx": true, ".pdf": true}

// DefaultParsers returns a new map of the parsers that a load uses when
// Config.Parsers is nil, for the caller to extend or trim:
//
//   - Markdown (.md, .markdown, .mdown, .mkd, .mdx): the text as it is,
//     as [document.Markdown];
//   - plain text (.txt, .text, and names without an extension, such as
//     README or LICENSE): the text as it is, as [document.Text].
//
// Each reads [ContentText] only, so a binary file is never read as text
// whatever its name.
func DefaultParsers() map[string]Parser {
	m := map[string]Parser{}
	for _, ext := range []string{".md", ".markdown", ".mdown", ".mkd", ".mdx"} {
		m[ext] = verbatim{document.Markdown}
	}
	for _, ext := range []string{".txt", ".text", ""} {
		m[ext] = verbatim{document.Text}
	}
	return m
}

// verbatim is the parser of a text format whose file is its text.
type verbatim struct{ format document.Format }

func (verbatim) Reads(c Content) bool { return c == ContentText }

func (v verbatim) Parse(_ context.Context, _ string, data []byte) (document.Document, error) {
	return document.Document{Text: string(data), Format: v.format}, nil
}

// extension returns the lower-case extension of a name, with its dot, by
// which Config.Parsers is looked up; a leading dot (".profile") does not
// start one.
func extension(name string) string {
	return strings.ToLower(path.Ext(strings.TrimPrefix(path.Base(name), ".")))
}

// dispatch returns the name a file is parsed as (without ".gz" for a
// gzipped file whose inner name has a parser) and its parser, or the
// reason no parser reads it.
func (w *walker) dispatch(name string) (string, Parser, error) {
	ext := extension(name)
	if p := w.parsers[ext]; p != nil {
		return name, p, nil
	}
	shown := displayExt(ext)
	if ext == ".gz" {
		inner := strings.TrimSuffix(name, path.Ext(name))
		ext = extension(inner)
		if p := w.parsers[ext]; p != nil {
			return inner, p, nil
		}
		shown = displayExt(ext) + " (gzipped)"
	}
	if elsewhere[ext] {
		return "", nil, fmt.Errorf("%w: no parser for %s: see %s", ErrUnsupported, shown, FormatsModule)
	}
	return "", nil, fmt.Errorf("%w: no parser for %s", ErrUnsupported, shown)
}

// gunzip returns what gzipped data holds, at most limit bytes of it.
func gunzip(data []byte, limit int64) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: not valid gzip: %w", ErrFormat, err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%w: not valid gzip: %w", ErrFormat, err)
	}
	if int64(len(out)) > limit {
		return nil, fmt.Errorf("%w: it decompresses to more than the limit of %d bytes (Config.MaxBytes)", ErrTooLarge, limit)
	}
	return out, nil
}

// parse reads a file's bytes, data, as the file name: gzip opened, the
// content checked against the parser, the parser run and its text
// cleaned. It returns the document without the loader's own fields.
func (w *walker) parse(ctx context.Context, name string, data []byte) (document.Document, Repair, error) {
	inner, p, err := w.dispatch(name)
	if err != nil {
		return document.Document{}, Repair{}, err
	}
	content := Sniff(data)
	if inner != name {
		if content != ContentGzip {
			return document.Document{}, Repair{}, fmt.Errorf("%w: a .gz name, but %s content", ErrFormat, content)
		}
		if data, err = gunzip(data, w.cfg.MaxBytes); err != nil {
			return document.Document{}, Repair{}, err
		}
		content = Sniff(data)
	}
	if !p.Reads(content) {
		if content == ContentBinary {
			return document.Document{}, Repair{}, fmt.Errorf("%w: binary", ErrUnsupported)
		}
		return document.Document{}, Repair{}, fmt.Errorf("%w: %s content, which the parser for %s does not read", ErrUnsupported, content, displayExt(extension(inner)))
	}
	var rep Repair
	if content == ContentText {
		if rest, ok := bytes.CutPrefix(data, []byte("\uFEFF")); ok {
			data, rep.Controls = rest, 1
		}
		if w.cfg.InvalidUTF8 == Refuse && !utf8.Valid(data) {
			off := firstInvalid(data)
			return document.Document{}, rep, fmt.Errorf("%w: an invalid byte 0x%02x at offset %d (Config.InvalidUTF8 is Refuse)", ErrInvalidUTF8, data[off], off+rep.Controls*3)
		}
	}
	d, err := safeParse(ctx, p, inner, data)
	if err != nil {
		return document.Document{}, rep, err
	}
	if !d.Format.Valid() {
		return document.Document{}, rep, fmt.Errorf("%w: the parser for %s returned %v", ErrFormat, displayExt(extension(inner)), d.Format)
	}
	d.Text, d.Marks = cleanText(d.Text, sortMarks(d.Marks, len(d.Text)), &rep)
	if strings.TrimSpace(d.Text) == "" {
		return document.Document{}, rep, ErrEmpty
	}
	if d.Title == "" {
		d.Title = firstTitle(d.Text, d.Format)
	}
	if d.Title == "" {
		base := path.Base(inner)
		d.Title = strings.TrimSuffix(base, path.Ext(base))
	}
	return d, rep, nil
}

// displayExt names an extension in a reason.
func displayExt(ext string) string {
	if ext == "" {
		return "a name without an extension"
	}
	return ext
}

// safeParse runs a parser, recovering a panic into an error, and keeps
// the parser's own sentinels or wraps its error in ErrFormat.
func safeParse(ctx context.Context, p Parser, name string, data []byte) (d document.Document, err error) {
	defer func() {
		if r := recover(); r != nil {
			d, err = document.Document{}, fmt.Errorf("%w: the parser panicked: %v", ErrFormat, r)
		}
	}()
	d, err = p.Parse(ctx, name, data)
	switch {
	case err == nil:
		if ctx.Err() != nil {
			return document.Document{}, ctx.Err()
		}
		return d, nil
	case errors.Is(err, ErrFormat), errors.Is(err, ErrNoText), errors.Is(err, ErrTooLarge),
		errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return document.Document{}, err
	}
	return document.Document{}, fmt.Errorf("%w: %w", ErrFormat, err)
}

// sortMarks returns a parser's marks sorted by offset (stably) and
// clamped into a text of n bytes, so that a careless parser cannot make
// Locate lie.
func sortMarks(marks []document.Mark, n int) []document.Mark {
	if len(marks) == 0 {
		return nil
	}
	marks = slices.Clone(marks)
	for i := range marks {
		marks[i].Offset = min(max(marks[i].Offset, 0), n)
	}
	slices.SortStableFunc(marks, func(a, b document.Mark) int { return cmp.Compare(a.Offset, b.Offset) })
	return marks
}

// firstTitle returns the title of the text's first top-level heading, or
// "".
func firstTitle(text string, f document.Format) string {
	for _, h := range document.Headings(text, f) {
		if h.Level == 1 {
			return h.Title
		}
	}
	return ""
}

// Counts counts files by extension: lower case with its dot, "" for a
// name without one.
type Counts map[string]int

// String returns the counts as one line, the most frequent first (ties
// by extension), such as "12 files: 9 .png, 2 .pdf, 1 without an
// extension"; "0 files" when there are none.
func (c Counts) String() string {
	type entry struct {
		ext string
		n   int
	}
	var entries []entry
	total := 0
	for ext, n := range c {
		entries = append(entries, entry{ext, n})
		total += n
	}
	slices.SortFunc(entries, func(a, b entry) int {
		return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.ext, b.ext))
	})
	var sb strings.Builder
	sb.WriteString(strconv.Itoa(total))
	if total == 1 {
		sb.WriteString(" file")
	} else {
		sb.WriteString(" files")
	}
	for i, e := range entries {
		if i == 0 {
			sb.WriteString(": ")
		} else {
			sb.WriteString(", ")
		}
		sb.WriteString(strconv.Itoa(e.n))
		if e.ext == "" {
			sb.WriteString(" without an extension")
		} else {
			sb.WriteString(" " + e.ext)
		}
	}
	return sb.String()
}
