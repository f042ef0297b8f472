package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/examples/quickstart/corpus"
	"github.com/ragkit/ragkit/loader"
)

// A source is one input file.
type source struct {
	id      string // path relative to the corpus root, with forward slashes
	title   string
	text    string
	format  document.Format
	outline *document.Outline
}

// loadDocuments loads the embedded corpus, or the Markdown and .txt files
// under o.dir, with package loader, in path order. Every file it leaves
// out (too large, empty, a dangling link, a hidden or dependency folder)
// and every file whose text it cleaned is reported on stderr, before any
// other work starts.
func loadDocuments(ctx context.Context, o options, stderr io.Writer) ([]source, error) {
	cfg := loader.Config{MaxBytes: int64(o.maxFileMiB) << 20}
	var res *loader.Result
	var err error
	if o.dir == "" {
		// The embedded corpus (package corpus): policies of a fictional
		// company whose sections do not repeat the policy they belong to,
		// and reports whose later sections do not name their quarter.
		res, err = loader.FS(ctx, corpus.FS, cfg)
	} else {
		res, err = loader.Dir(ctx, o.dir, cfg)
	}
	if err != nil {
		return nil, err
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(stderr, "skipping %s: %s\n", s.Path, strings.TrimPrefix(s.Reason.Error(), "loader: "))
	}
	for _, r := range res.Repaired {
		var what []string
		if r.InvalidBytes > 0 {
			what = append(what, fmt.Sprintf("replaced %s of invalid UTF-8 with U+FFFD", count(r.InvalidBytes, "byte")))
		}
		if r.Controls > 0 {
			what = append(what, "removed "+count(r.Controls, "control character"))
		}
		fmt.Fprintf(stderr, "cleaned %s: %s\n", r.Path, strings.Join(what, ", "))
	}
	if len(res.Documents) == 0 {
		return nil, fmt.Errorf("no Markdown or .txt files with text under %s", o.dir)
	}
	docs := make([]source, len(res.Documents))
	for i, d := range res.Documents {
		docs[i] = source{id: d.ID, title: d.Title, text: d.Text, format: d.Format, outline: d.Outline()}
	}
	return docs, nil
}

// count says n things, as "1 byte" or "2 bytes".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
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
