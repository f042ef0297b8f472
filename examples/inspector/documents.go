package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/examples/quickstart/corpus"
	"github.com/ragkit/ragkit/formats"
	"github.com/ragkit/ragkit/formats/pdf"
	"github.com/ragkit/ragkit/loader"
)

// corpusInfo is what was loaded: the documents, in ID order, what the
// loader left out, and the example questions offered as buttons.
type corpusInfo struct {
	name      string // "the quickstart's corpus" or the folder
	docs      []document.Document
	byID      map[string]int
	skipped   []string // "path: reason", one per file left out
	questions []string
}

// loadCorpus loads the quickstart's embedded corpus, or the files under
// o.dir in every format ragkit reads, with package loader: the loader's
// own parsers (Markdown, text, CSV, JSON, man pages, source code), those
// of package formats (HTML, DOCX, XLSX) and PDF through package
// formats/pdf, whose engine starts at the first PDF and stops once the
// folder is read. Files the loader leaves out (unreadable, too large,
// empty, binary, of a type no parser reads, dangling links) are kept in
// skipped, for the page to list; no document at all is an error.
func loadCorpus(ctx context.Context, o options) (_ *corpusInfo, err error) {
	var pdfs pdf.Lazy // started at the first PDF only
	defer func() {
		if cerr := pdfs.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	parsers := formats.Parsers()
	parsers[".pdf"] = &pdfs
	cfg := loader.Config{Parsers: parsers, MaxBytes: int64(o.maxFileMiB) << 20}
	c := &corpusInfo{name: "the quickstart's corpus"}
	var res *loader.Result
	if o.dir == "" {
		res, err = loader.FS(ctx, corpus.FS, cfg)
		c.questions = corpus.Questions
	} else {
		res, err = loader.Dir(ctx, o.dir, cfg)
		c.name = o.dir
	}
	if err != nil {
		return nil, err
	}
	for _, s := range res.Skipped {
		c.skipped = append(c.skipped, s.Path+": "+strings.TrimPrefix(s.Reason.Error(), "loader: "))
	}
	if len(res.Documents) == 0 {
		return nil, fmt.Errorf("no file with text under %s (%d left out)", c.name, len(res.Skipped))
	}
	c.byID = make(map[string]int, len(res.Documents))
	for i, d := range res.Documents {
		c.docs = append(c.docs, d)
		c.byID[d.ID] = i
	}
	return c, nil
}
