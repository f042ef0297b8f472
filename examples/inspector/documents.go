package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/examples/quickstart/corpus"
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

// loadCorpus loads the quickstart's embedded corpus, or the Markdown and
// .txt files under o.dir, with package loader. Files the loader leaves out
// (unreadable, too large, empty, dangling links) are kept in skipped, for
// the page to list; no document at all is an error.
func loadCorpus(ctx context.Context, o options) (*corpusInfo, error) {
	cfg := loader.Config{MaxBytes: int64(o.maxFileMiB) << 20}
	c := &corpusInfo{name: "the quickstart's corpus"}
	var res *loader.Result
	var err error
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
		return nil, fmt.Errorf("no Markdown or .txt files with text under %s (%d left out)", c.name, len(res.Skipped))
	}
	c.byID = make(map[string]int, len(res.Documents))
	for i, d := range res.Documents {
		c.docs = append(c.docs, d)
		c.byID[d.ID] = i
	}
	return c, nil
}
