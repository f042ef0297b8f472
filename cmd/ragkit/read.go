package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ragkit/ragkit/document"
)

// readCmd prints each file as parsed.
func readCmd(ctx context.Context, args []string, io ios) error {
	fs := newFlags("read", "[-json] FILE...", io.stderr)
	asJSON := fs.Bool("json", false, "print one JSON object per document per line: id, title, format, text, metadata, source, marks")
	maxBytes := maxFileFlag(fs)
	if err := parse(fs, args, needFiles); err != nil {
		return err
	}
	docs, err := loadFiles(ctx, fs.Args(), maxBytes(), io.stderr)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(io.stdout)
	enc.SetEscapeHTML(false)
	for i, d := range docs {
		if *asJSON {
			if err := enc.Encode(jsonOf(d)); err != nil {
				return err
			}
			continue
		}
		if i > 0 {
			fmt.Fprintln(io.stdout)
		}
		// An HTML comment names each document without adding to its
		// Markdown's structure; "--" cannot end it early.
		about := fmt.Sprintf("%s: %q, %s", d.ID, d.Title, strings.ToLower(d.Format.String()))
		fmt.Fprintf(io.stdout, "<!-- %s -->\n\n%s\n", strings.ReplaceAll(about, "--", "- -"), strings.TrimRight(d.Text, "\n"))
	}
	return nil
}

func needFiles(rest []string) error {
	if len(rest) == 0 {
		return errors.New("name at least one file")
	}
	return nil
}

// jsonDoc is a document as read -json prints it.
type jsonDoc struct {
	ID       string            `json:"id"`
	Title    string            `json:"title"`
	Format   string            `json:"format"`
	Text     string            `json:"text"`
	Metadata map[string]string `json:"metadata"`
	Source   string            `json:"source,omitempty"`
	Marks    []jsonMark        `json:"marks,omitempty"`
}

type jsonMark struct {
	Offset int    `json:"offset"`
	Page   int    `json:"page,omitempty"`
	Line   int    `json:"line,omitempty"`
	Sheet  string `json:"sheet,omitempty"`
	Row    int    `json:"row,omitempty"`
}

func jsonOf(d document.Document) jsonDoc {
	j := jsonDoc{ID: d.ID, Title: d.Title, Format: strings.ToLower(d.Format.String()), Text: d.Text, Metadata: d.Metadata, Source: d.Source}
	if j.Metadata == nil {
		j.Metadata = map[string]string{}
	}
	for _, m := range d.Marks {
		j.Marks = append(j.Marks, jsonMark(m))
	}
	return j
}
