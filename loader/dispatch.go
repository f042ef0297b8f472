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
	"github.com/ragkit/ragkit/loader/internal/parse"
)

// FormatsModule is the module whose parsers read the formats that need
// more than the standard library (HTML, DOCX, XLSX; PDF in its own module,
// FormatsModule+"/pdf"); the reason of a file of one of those formats,
// when no parser reads it, names the module.
const FormatsModule = "github.com/ragkit/ragkit/formats"

// elsewhere maps the extensions whose parsers live in FormatsModule, or in
// its PDF module, to the module to name.
var elsewhere = map[string]string{
	".html": FormatsModule, ".htm": FormatsModule, ".xhtml": FormatsModule,
	".docx": FormatsModule, ".xlsx": FormatsModule, ".pdf": FormatsModule + "/pdf",
}

// DefaultParsers returns a new map of the parsers that a load uses when
// Config.Parsers is nil, for the caller to extend or trim. Each reads
// [ContentText] only, so that a binary file is never read as text
// whatever its name, and each but plain text makes Markdown:
//
//   - Markdown (.md, .markdown, .mdown, .mkd, .mdx): the text as it is,
//     but YAML ("---") or TOML ("+++") front matter, which gives the
//     Title (its title field) and Metadata (its other top-level fields)
//     and is left out of the text;
//   - plain text (.txt, .text, names without an extension, and README,
//     LICENSE, COPYING, CHANGELOG, NEWS, INSTALL, AUTHORS and TODO with
//     any extension: README.Debian, NEWS.old): the text as it is, as
//     [document.Text]; the Title from the NAME line of a man page
//     rendered as text ("ls - list directory contents");
//   - CSV (.csv; comma, or semicolon when the header row says so) and TSV
//     (.tsv, .tab): the first row is the header; each row a section of
//     "column: value" lines under a heading that identifies it (the value
//     of a key column, the first of the first three whose values are all
//     different, else "Row N"),
//     so that a row means what it says in any chunk and a changed row
//     changes its own chunk alone; a Mark per row (Row and Line);
//   - JSON (.json) and JSON Lines (.jsonl, .ndjson): "path: value" lines
//     ("server.ports[0]: 8080"); a top-level array's elements, and the
//     lines of JSON Lines, are rows as a CSV file's are; a top-level
//     object's array and object fields are sections, the objects of an
//     array field rows within its section; nesting deeper than 512 is
//     refused ([ErrTooLarge]);
//   - man pages (.1 to .9, .man, .roff, and a section with a suffix such as
//     .3pm or .1ssl, through the parser of .man): roff source of the man
//     or mdoc macros; the Title from the NAME section ("ls - list
//     directory contents"), .SH and .SS as sections, fonts and escapes
//     taken out, .TP and .IP items as list items, .nf/.fi and .EX/.EE as
//     code blocks, a Mark per block with its Line; macro definitions and
//     includes skipped, never run. Gzipped, as Debian installs them
//     (ls.1.gz), through the gzip path;
//   - reStructuredText (.rst, .rest): section titles as headings, their
//     levels by the order of their adornments' first appearance; literal
//     blocks ("::") and code directives as fenced code; comments,
//     targets and substitutions dropped; a Mark per heading with its
//     Line;
//   - AsciiDoc (.adoc, .asciidoc): "= Title" to "====== Section" as
//     headings; header attributes (":author: Ann") as Metadata; listing
//     and literal blocks as fenced code in their [source] language;
//     comments dropped; a Mark per heading with its Line;
//   - Go (.go), through go/parser: the package clause and imports under
//     a heading "package NAME (FILE)", then each type, function, method
//     and const or var group a section with its doc comment as text and
//     its code in a fenced block; a Mark per section with its Line;
//   - source code of Rust (.rs), Python (.py, .pyi), JavaScript and
//     TypeScript (.js, .mjs, .cjs, .jsx, .ts, .tsx, .mts), C and C++ (.c,
//     .h, .cc, .cpp, .cxx, .hpp, .hh, .hxx), Java (.java) and shell (.sh,
//     .bash, .zsh): each top-level block (a function, type, class, impl
//     block, with the comments and attributes before it) a section under
//     its first line, its code in a fenced block; runs of other
//     statements (imports) one section; a Mark per section with its Line.
func DefaultParsers() map[string]Parser {
	m := map[string]Parser{}
	markdown := textParser{"Markdown", func(_, data string) (document.Document, error) { return parse.Markdown(data), nil }}
	for _, ext := range []string{".md", ".markdown", ".mdown", ".mkd", ".mdx"} {
		m[ext] = markdown
	}
	plain := textParser{"text", func(_, data string) (document.Document, error) { return parse.Text(data), nil }}
	for _, ext := range []string{".txt", ".text", ""} {
		m[ext] = plain
	}
	m[".csv"] = textParser{"CSV", func(_, data string) (document.Document, error) { return parse.CSV(data, ',') }}
	tsv := textParser{"TSV", func(_, data string) (document.Document, error) { return parse.CSV(data, '\t') }}
	m[".tsv"], m[".tab"] = tsv, tsv
	m[".json"] = textParser{"JSON", func(_, data string) (document.Document, error) { return parse.JSON(data) }}
	jsonl := textParser{"JSON Lines", func(_, data string) (document.Document, error) { return parse.JSONLines(data) }}
	m[".jsonl"], m[".ndjson"] = jsonl, jsonl
	man := textParser{"man page", func(_, data string) (document.Document, error) { return parse.Man(data) }}
	for _, ext := range []string{".1", ".2", ".3", ".4", ".5", ".6", ".7", ".8", ".9", ".man", ".roff"} {
		m[ext] = man
	}
	rst := textParser{"reStructuredText", func(_, data string) (document.Document, error) { return parse.RST(data) }}
	m[".rst"], m[".rest"] = rst, rst
	adoc := textParser{"AsciiDoc", func(_, data string) (document.Document, error) { return parse.AsciiDoc(data) }}
	m[".adoc"], m[".asciidoc"] = adoc, adoc
	m[".go"] = textParser{"Go", parse.Go}
	for ext, lang := range parse.Langs {
		m[ext] = textParser{lang, func(name, data string) (document.Document, error) { return parse.Code(name, data, lang) }}
	}
	return m
}

// textParser is a built-in parser of a text format, named format in
// errors.
type textParser struct {
	format string
	parse  func(name, data string) (document.Document, error)
}

func (textParser) Reads(c Content) bool { return c == ContentText }

func (p textParser) Parse(ctx context.Context, name string, data []byte) (document.Document, error) {
	if err := ctx.Err(); err != nil {
		return document.Document{}, err
	}
	d, err := p.parse(name, string(data))
	switch {
	case errors.Is(err, parse.ErrLimit):
		return document.Document{}, fmt.Errorf("%w: %s: %w", ErrTooLarge, p.format, err)
	case err != nil:
		return document.Document{}, fmt.Errorf("%w: %s: %w", ErrFormat, p.format, err)
	}
	return d, nil
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
	if p := w.lookupName(name); p != nil && (ext != ".gz" || w.parsers[".gz"] != nil) {
		return name, p, nil
	}
	shown := displayExt(ext)
	if ext == ".gz" {
		inner := strings.TrimSuffix(name, path.Ext(name))
		ext = extension(inner)
		if p := w.lookupName(inner); p != nil {
			return inner, p, nil
		}
		shown = displayExt(ext) + " (gzipped)"
	}
	if mod := elsewhere[ext]; mod != "" {
		return "", nil, fmt.Errorf("%w: no parser for %s: see %s", ErrUnsupported, shown, mod)
	}
	return "", nil, fmt.Errorf("%w: no parser for %s", ErrUnsupported, shown)
}

// lookup returns the parser of an extension: Config.Parsers's, or for a
// man page's section with a suffix (".3pm", ".1ssl") the parser of
// ".man"; nil if none.
func (w *walker) lookup(ext string) Parser {
	if p := w.parsers[ext]; p != nil {
		return p
	}
	if len(ext) > 2 && len(ext) <= 6 && ext[1] >= '1' && ext[1] <= '9' &&
		strings.Trim(ext[2:], "abcdefghijklmnopqrstuvwxyz") == "" {
		return w.parsers[".man"]
	}
	return nil
}

// textNames are the names of the text files that come with software,
// read as plain text whatever their extension ("README.Debian").
var textNames = map[string]bool{
	"readme": true, "license": true, "licence": true, "copying": true, "changelog": true,
	"changes": true, "news": true, "install": true, "authors": true, "todo": true, "thanks": true,
}

// lookupName returns the parser of a file by its name: its extension's,
// or for a file such as README.Debian the parser of names without an
// extension.
func (w *walker) lookupName(name string) Parser {
	if p := w.lookup(extension(name)); p != nil {
		return p
	}
	stem, _, _ := strings.Cut(strings.ToLower(path.Base(name)), ".")
	if textNames[stem] {
		return w.parsers[""]
	}
	return nil
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
	d.Title = strings.Join(strings.Fields(cleanField(d.Title)), " ")
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

// cleanField returns a parser's title or metadata value as valid UTF-8
// without control characters, as the text is cleaned but not counted.
func cleanField(s string) string {
	if utf8.ValidString(s) && !hasControl(s) {
		return s
	}
	var rep Repair
	s, _ = cleanText(s, nil, &rep)
	return s
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
