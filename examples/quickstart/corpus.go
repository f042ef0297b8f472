package main

import (
	"embed"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
)

// The embedded corpus: policies of a fictional company, whose sections do
// not repeat the policy they belong to, and reports whose later sections do
// not name their quarter or project. Written for this program; it is not the
// corpus of the retrieval evaluation in benchmarks/eval.
//
//go:embed corpus/*.md
var corpus embed.FS

// A source is one input file.
type source struct {
	id      string // path relative to the corpus root, with forward slashes
	title   string
	text    string
	format  document.Format
	outline *document.Outline
}

// loadDocuments reads the embedded corpus, or the .md and .txt files under
// dir, in path order. Files that are empty or not valid UTF-8 are skipped
// with a note on stderr.
func loadDocuments(dir string, stderr io.Writer) ([]source, error) {
	fsys, root := fs.FS(corpus), "corpus"
	if dir != "" {
		fsys, root = os.DirFS(dir), "."
	}
	var docs []source
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := strings.ToLower(path.Ext(p))
		if ext != ".md" && ext != ".txt" {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		id := strings.TrimPrefix(p, root+"/")
		if !utf8.Valid(b) || strings.TrimSpace(string(b)) == "" {
			fmt.Fprintf(stderr, "skipping %s: empty or not UTF-8 text\n", id)
			return nil
		}
		docs = append(docs, newDocument(id, string(b), ext == ".md"))
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("no .md or .txt files with text under %s", filepath.Clean(dir))
	}
	return docs, nil
}

// newDocument finds a document's headings and takes its title from the
// first top-level heading, or else from its file name.
func newDocument(id, text string, markdown bool) source {
	d := source{id: id, text: text, format: document.Text}
	if markdown {
		d.format = document.Markdown
	}
	d.outline = document.NewOutline(text, d.format)
	for _, h := range d.outline.Headings() {
		if h.Level == 1 {
			d.title = h.Title
			break
		}
	}
	if d.title == "" {
		d.title = strings.TrimSuffix(path.Base(id), path.Ext(id))
	}
	return d
}

// sections names the sections of the document's bytes [start, end): the
// section path at start, without the title, as " > "-joined headings, then
// the headings that open further sections inside, joined by "; ". Text
// before the first section has no section path; the result may be empty.
func (d source) sections(start, end int) string {
	var names []string
	p := d.outline.Path(start, start)
	if len(p) > 0 && p[0] == d.title {
		p = p[1:]
	}
	if len(p) > 0 {
		names = append(names, strings.Join(p, contextheader.PathSeparator))
	}
	for _, h := range d.outline.Headings() {
		if h.Start > start && h.Start < end && h.Level > 1 {
			names = append(names, h.Title)
		}
	}
	return strings.Join(names, "; ")
}
