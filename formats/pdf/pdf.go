package pdf

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/loader"
)

// ErrConfig: a [Config] that New refuses; the message names the field.
var ErrConfig = errors.New("pdf: invalid configuration")

// The loader's sentinels, which every error of Parse wraps.
var (
	errFormat   = loader.ErrFormat
	errTooLarge = loader.ErrTooLarge
	errNoText   = loader.ErrNoText
)

// Defaults of [Config]'s zero fields.
const (
	DefaultMaxInstances = 2
	DefaultMaxBytes     = 64 << 20
	DefaultMaxPages     = 2000
	DefaultMaxPageChars = 200_000
	DefaultMaxMemory    = 1 << 30
	DefaultTimeout      = 10 * time.Minute
)

// Config configures a [Parser]. Every zero field means its default.
type Config struct {
	// MaxInstances is how many PDFium instances the parser runs at once,
	// shared by the files parsed concurrently; a file's pages are read in
	// parallel on as many of them as are free. Each instance is a
	// WebAssembly module with its own memory, holding its own copy of the
	// file. Zero means DefaultMaxInstances (2).
	MaxInstances int
	// MaxBytes is the largest file read; a larger one is an error
	// wrapping loader.ErrTooLarge. Zero means DefaultMaxBytes (64 MiB).
	MaxBytes int
	// MaxPages is the most pages a file may have. Zero means
	// DefaultMaxPages (2,000).
	MaxPages int
	// MaxPageChars is the most characters one page may hold. Zero means
	// DefaultMaxPageChars (200,000).
	MaxPageChars int
	// MaxMemory bounds the memory of each instance, in bytes (rounded
	// down to 64 KiB); a file that needs more is an error wrapping
	// loader.ErrFormat. Zero means DefaultMaxMemory (1 GiB); it must be
	// at least 64 MiB, which PDFium needs to start.
	MaxMemory int
	// Timeout bounds the time one file may take, from the moment an
	// instance is free to read it; a slower file is an error wrapping
	// loader.ErrTooLarge. Zero means DefaultTimeout (10 minutes: a
	// 400-page manual takes a minute or two on a busy machine).
	Timeout time.Duration
}

func (c Config) withDefaults() (Config, error) {
	fields := []struct {
		name string
		v    *int
		def  int
	}{
		{"MaxInstances", &c.MaxInstances, DefaultMaxInstances},
		{"MaxBytes", &c.MaxBytes, DefaultMaxBytes},
		{"MaxPages", &c.MaxPages, DefaultMaxPages},
		{"MaxPageChars", &c.MaxPageChars, DefaultMaxPageChars},
		{"MaxMemory", &c.MaxMemory, DefaultMaxMemory},
	}
	for _, f := range fields {
		if *f.v < 0 {
			return c, fmt.Errorf("%w: %s is %d: must not be negative", ErrConfig, f.name, *f.v)
		}
		if *f.v == 0 {
			*f.v = f.def
		}
	}
	if c.MaxMemory < 64<<20 || c.MaxMemory > 4<<30-64<<10 {
		return c, fmt.Errorf("%w: MaxMemory is %d: must be from 64 MiB to 4 GiB", ErrConfig, c.MaxMemory)
	}
	if c.Timeout < 0 {
		return c, fmt.Errorf("%w: Timeout is %v: must not be negative", ErrConfig, c.Timeout)
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	return c, nil
}

// A Parser reads PDF files into Markdown documents through PDFium. It is
// a [loader.Parser], safe for concurrent use; Close it to free its
// engine's instances.
type Parser struct {
	cfg Config
	e   *engine
}

var _ loader.Parser = (*Parser)(nil)

// New returns a parser configured by cfg, with PDFium compiled and ready
// (the first New of a process compiles it; later ones reuse the
// compiled code).
func New(cfg Config) (*Parser, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	e, err := newEngine(cfg)
	if err != nil {
		return nil, err
	}
	return &Parser{cfg: cfg, e: e}, nil
}

// Config returns the parser's configuration, its defaults filled in.
func (p *Parser) Config() Config { return p.cfg }

// Close stops the parser's PDFium instances and frees their memory; a
// Parse under way ends with an error. Parse after Close returns an error;
// Close again does nothing.
func (p *Parser) Close() error { return p.e.close() }

// Reads reports whether the parser reads files of content c: PDF files.
func (p *Parser) Reads(c loader.Content) bool { return c == loader.ContentPDF }

// Parse reads the PDF file data into a Markdown document in reading order
// with a [document.Mark] at the start of each page's text. See the
// package documentation for what it keeps and drops.
func (p *Parser) Parse(ctx context.Context, name string, data []byte) (document.Document, error) {
	if len(data) > p.cfg.MaxBytes {
		return document.Document{}, fmt.Errorf("%w: %d bytes, the limit is %d (Config.MaxBytes)", errTooLarge, len(data), p.cfg.MaxBytes)
	}
	// The limit runs from when an instance is free, so that files queued
	// behind others are not timed out by the wait.
	if _, err := p.e.acquire(ctx, true); err != nil {
		return document.Document{}, err
	}
	tctx, cancel := context.WithTimeout(ctx, p.cfg.Timeout)
	defer cancel()
	inf, err := p.read(tctx, data)
	if err != nil {
		if ctx.Err() != nil {
			return document.Document{}, ctx.Err()
		}
		if tctx.Err() != nil {
			return document.Document{}, fmt.Errorf("%w: reading took longer than %v (Config.Timeout)", errTooLarge, p.cfg.Timeout)
		}
		return document.Document{}, err
	}
	return build(inf)
}

// pagesPerInstance is how many pages make another instance worth loading
// the file into.
const pagesPerInstance = 4

// read reads the document in first, and in as many more free instances
// as its pages are worth, the pages shared out as they are done.
func (p *Parser) read(ctx context.Context, data []byte) (*info, error) {
	first, err := p.e.open(ctx, data)
	if err != nil {
		return nil, err
	}
	ins := []*instance{first}
	defer func() {
		for _, in := range ins {
			in.release()
		}
	}()
	n, err := first.pageCount()
	if err != nil {
		return nil, fmt.Errorf("%w: page count: %v", errFormat, err)
	}
	if n > p.cfg.MaxPages {
		return nil, fmt.Errorf("%w: %d pages, the limit is %d (Config.MaxPages)", errTooLarge, n, p.cfg.MaxPages)
	}
	inf := &info{
		title: first.meta("Title"), author: first.meta("Author"),
		subject: first.meta("Subject"), keywords: first.meta("Keywords"),
		pages: make([]page, n),
	}
	for len(ins) < p.cfg.MaxInstances && len(ins)*pagesPerInstance < n {
		if ok, _ := p.e.acquire(ctx, false); !ok {
			break
		}
		in, err := p.e.open(ctx, data)
		if err != nil {
			break
		}
		ins = append(ins, in)
	}
	var (
		next   atomic.Int64
		wg     sync.WaitGroup
		mu     sync.Mutex
		failed error
	)
	for _, in := range ins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				pg, err := in.readPage(i, p.cfg.MaxPageChars)
				if err != nil {
					mu.Lock()
					if failed == nil {
						if !errors.Is(err, errTooLarge) {
							err = fmt.Errorf("%w: page %d: %v", errFormat, i+1, err)
						}
						failed = err
					}
					mu.Unlock()
					next.Store(int64(n))
					return
				}
				inf.pages[i] = pg
			}
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return inf, failed
}
