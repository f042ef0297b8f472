package pdf

import (
	"context"
	"sync"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/loader"
)

// A Lazy is a loader.Parser that starts a [Parser] with its Config at the
// first PDF it is asked to parse. Starting PDFium (compiling its
// WebAssembly) takes seconds, so a program that reads folders through
// loader.Config.Parsers pays for it only where a folder holds a PDF:
//
//	pdfs := &pdf.Lazy{}
//	defer pdfs.Close()
//	parsers := formats.Parsers()
//	parsers[".pdf"] = pdfs
//
// The zero value starts a Parser of the default Config. A Lazy is safe for
// concurrent use; it must not be copied after first use.
type Lazy struct {
	// Config configures the Parser it starts; read at the start.
	Config Config

	mu  sync.Mutex
	p   *Parser
	err error // New's error, returned until Close
}

// Reads reports whether c is a PDF's content; it starts nothing.
func (l *Lazy) Reads(c loader.Content) bool { return c == loader.ContentPDF }

// Parse reads one PDF as [Parser.Parse] does, starting the Parser first if
// it has not started. If it cannot start, Parse returns New's error, and
// so does every later Parse until Close.
func (l *Lazy) Parse(ctx context.Context, name string, data []byte) (document.Document, error) {
	p, err := l.parser()
	if err != nil {
		return document.Document{}, err
	}
	return p.Parse(ctx, name, data)
}

func (l *Lazy) parser() (*Parser, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.p == nil && l.err == nil {
		l.p, l.err = New(l.Config)
	}
	return l.p, l.err
}

// Close stops the Parser, if it started, and forgets a failed start; a
// later Parse starts one again.
func (l *Lazy) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.p
	l.p, l.err = nil, nil
	if p == nil {
		return nil
	}
	return p.Close()
}
