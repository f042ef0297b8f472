package main

import (
	"context"
	"sync"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/formats/pdf"
	"github.com/ragkit/ragkit/loader"
)

// A lazyPDF is a loader.Parser that starts its pdf.Parser when it is
// first asked to parse. Starting PDFium (compiling its WebAssembly) takes
// seconds, so a folder without a PDF does not pay for it; loadCorpus
// closes it once the folder is read, since every document is loaded
// before the page is served.
type lazyPDF struct {
	mu  sync.Mutex
	p   *pdf.Parser
	err error
}

// Reads reports whether c is a PDF's content.
func (l *lazyPDF) Reads(c loader.Content) bool { return c == loader.ContentPDF }

// Parse reads one PDF, starting the engine first if it has not started.
func (l *lazyPDF) Parse(ctx context.Context, name string, data []byte) (document.Document, error) {
	p, err := l.parser()
	if err != nil {
		return document.Document{}, err
	}
	return p.Parse(ctx, name, data)
}

func (l *lazyPDF) parser() (*pdf.Parser, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.p == nil && l.err == nil {
		l.p, l.err = pdf.New(pdf.Config{})
	}
	return l.p, l.err
}

// Close stops the engine, if it started; a later Parse starts it again.
func (l *lazyPDF) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.p
	l.p, l.err = nil, nil
	if p == nil {
		return nil
	}
	return p.Close()
}
