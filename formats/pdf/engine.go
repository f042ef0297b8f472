package pdf

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/klippa-app/go-pdfium"
	pdferr "github.com/klippa-app/go-pdfium/errors"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// glyph is one character PDFium reports on a page, in PDF user space
// (points, y upwards).
type glyph struct {
	r                        rune
	left, bottom, right, top float64
	base                     float64 // the baseline: the glyph's origin
	size                     float64
	bold                     bool
}

// page is what the engine reads of one page.
type page struct {
	width, height float64
	glyphs        []glyph
}

// info is what the engine reads of a whole document.
type info struct {
	title, author, subject, keywords string
	pages                            []page
}

// compiled caches PDFium's compiled WebAssembly for the whole process, so
// that only the first New pays for the compilation.
var compiled = wazero.NewCompilationCache()

// engine is a pool of PDFium instances, each a WebAssembly module with its
// own memory, and the tokens that bound how many are borrowed at once.
type engine struct {
	pool   pdfium.Pool
	tokens chan struct{}
	cfg    Config

	mu     sync.Mutex
	closed bool
}

func newEngine(cfg Config) (*engine, error) {
	rc := wazero.NewRuntimeConfig().
		WithCoreFeatures(api.CoreFeaturesV2 | experimental.CoreFeaturesExceptionHandling).
		WithCompilationCache(compiled).
		// A file's time limit interrupts the engine mid-call (see kill).
		WithCloseOnContextDone(true).
		WithMemoryLimitPages(uint32(cfg.MaxMemory / (64 << 10)))
	pool, err := webassembly.Init(webassembly.Config{
		MinIdle:       0,
		MaxIdle:       cfg.MaxInstances,
		MaxTotal:      cfg.MaxInstances,
		RuntimeConfig: rc,
		// No file system at all: the engine reads only the bytes it is given.
		FSConfig:     wazero.NewFSConfig(),
		Stdout:       io.Discard,
		Stderr:       io.Discard,
		ReuseWorkers: true,
	})
	if err != nil {
		return nil, fmt.Errorf("pdf: starting PDFium: %w", err)
	}
	tokens := make(chan struct{}, cfg.MaxInstances)
	for range cfg.MaxInstances {
		tokens <- struct{}{}
	}
	return &engine{pool: pool, tokens: tokens, cfg: cfg}, nil
}

var errClosed = errors.New("pdf: parser is closed")

func (e *engine) close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	return e.pool.Close()
}

// instance is one borrowed PDFium instance with the document loaded in it.
type instance struct {
	e   *engine
	p   pdfium.Pdfium
	doc references.FPDF_DOCUMENT
	// ended is set by the first of release and the watcher's kill.
	ended atomic.Bool
	// done stops the watcher.
	done chan struct{}
}

// acquire takes one of the engine's tokens, waiting for one when wait is
// set; without wait it reports false when none is free.
func (e *engine) acquire(ctx context.Context, wait bool) (bool, error) {
	if !wait {
		select {
		case <-e.tokens:
			return true, nil
		default:
			return false, nil
		}
	}
	select {
	case <-e.tokens:
		return true, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

// open borrows an instance for a token already acquired and loads data
// into it; the instance is killed if ctx ends before it is released. The
// token goes back on release, or here on an error.
func (e *engine) open(ctx context.Context, data []byte) (*instance, error) {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		e.tokens <- struct{}{}
		return nil, errClosed
	}
	p, err := e.pool.GetInstanceWithContext(ctx)
	e.mu.Unlock()
	if err != nil {
		e.tokens <- struct{}{}
		return nil, fmt.Errorf("pdf: PDFium instance: %w", err)
	}
	in := &instance{e: e, p: p, done: make(chan struct{})}
	go in.watch(ctx)
	resp, err := p.FPDF_LoadMemDocument64(&requests.FPDF_LoadMemDocument64{Data: &data})
	if err != nil {
		in.release()
		return nil, loadError(ctx, err)
	}
	in.doc = resp.Document
	return in, nil
}

// watch kills the instance when ctx ends before the instance is released:
// the engine then stops mid-call (the runtime closes modules on their
// context's end) and the pool makes a fresh one.
func (in *instance) watch(ctx context.Context) {
	select {
	case <-ctx.Done():
		if in.ended.CompareAndSwap(false, true) {
			in.p.Kill()
		}
	case <-in.done:
	}
}

func (in *instance) release() {
	close(in.done)
	if in.ended.CompareAndSwap(false, true) {
		if in.doc != "" {
			in.p.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: in.doc})
		}
		in.p.Close()
	}
	in.e.tokens <- struct{}{}
}

func loadError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	switch {
	case errors.Is(err, pdferr.ErrPassword), errors.Is(err, pdferr.ErrSecurity):
		return fmt.Errorf("%w: encrypted (a password is needed to read it)", errFormat)
	case errors.Is(err, pdferr.ErrFormat):
		return fmt.Errorf("%w: not a well-formed PDF (truncated or corrupt)", errFormat)
	case errors.Is(err, pdferr.ErrFile):
		return fmt.Errorf("%w: unreadable PDF", errFormat)
	}
	return fmt.Errorf("%w: %s", errFormat, strings.TrimSpace(err.Error()))
}

func (in *instance) pageCount() (int, error) {
	r, err := in.p.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: in.doc})
	if err != nil {
		return 0, err
	}
	return r.PageCount, nil
}

func (in *instance) meta(tag string) string {
	r, err := in.p.FPDF_GetMetaText(&requests.FPDF_GetMetaText{Document: in.doc, Tag: tag})
	if err != nil {
		return ""
	}
	return strings.TrimSpace(r.Value)
}

// readPage reads the glyphs of page i (0-based), at most maxGlyphs, in
// the order of the page's content stream.
func (in *instance) readPage(i, maxGlyphs int) (pg page, err error) {
	p := in.p
	lp, err := p.FPDF_LoadPage(&requests.FPDF_LoadPage{Document: in.doc, Index: i})
	if err != nil {
		return page{}, err
	}
	defer p.FPDF_ClosePage(&requests.FPDF_ClosePage{Page: lp.Page})
	ref := requests.Page{ByReference: &lp.Page}
	w, err := p.FPDF_GetPageWidthF(&requests.FPDF_GetPageWidthF{Page: ref})
	if err != nil {
		return page{}, err
	}
	h, err := p.FPDF_GetPageHeightF(&requests.FPDF_GetPageHeightF{Page: ref})
	if err != nil {
		return page{}, err
	}
	tp, err := p.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: ref})
	if err != nil {
		return page{}, err
	}
	defer p.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage})
	t := tp.TextPage
	cc, err := p.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: t})
	if err != nil {
		return page{}, err
	}
	if cc.Count > maxGlyphs {
		return page{}, fmt.Errorf("%w: page %d has %d characters, the limit is %d (Config.MaxPageChars)", errTooLarge, i+1, cc.Count, maxGlyphs)
	}
	pg = page{width: float64(w.PageWidth), height: float64(h.PageHeight), glyphs: make([]glyph, 0, cc.Count)}
	runes, err := in.text(t, cc.Count)
	if err != nil {
		return page{}, err
	}
	bold := false
	for j, r := range runes {
		g := glyph{r: r}
		if r == ' ' || r == '\r' || r == '\n' || r == 0 {
			pg.glyphs = append(pg.glyphs, g)
			continue
		}
		// The loose box spans the font's ascent to its descent and the
		// glyph's advance, so that the glyphs of a line share its bottom
		// whatever their shapes (a quote mark, a "g").
		box, err := p.FPDFText_GetLooseCharBox(&requests.FPDFText_GetLooseCharBox{TextPage: t, Index: j})
		if err != nil {
			continue // a glyph without a box, such as a zero-width mark
		}
		fs, err := p.FPDFText_GetFontSize(&requests.FPDFText_GetFontSize{TextPage: t, Index: j})
		if err != nil {
			return page{}, err
		}
		// The font's name is the costliest thing asked; it is asked once a
		// word (and where the size changes), which is as fine as headings
		// and table header rows need.
		n := len(pg.glyphs)
		if n == 0 || pg.glyphs[n-1].size == 0 || pg.glyphs[n-1].size != fs.FontSize {
			bold = in.bold(t, j)
		}
		g.left, g.right = float64(box.Rect.Left), float64(box.Rect.Right)
		g.bottom, g.top = float64(box.Rect.Bottom), float64(box.Rect.Top)
		g.base, g.size, g.bold = g.bottom, fs.FontSize, bold
		pg.glyphs = append(pg.glyphs, g)
	}
	return pg, nil
}

// text returns the n characters of text page t, one rune for each.
func (in *instance) text(t references.FPDF_TEXTPAGE, n int) ([]rune, error) {
	if n == 0 {
		return nil, nil
	}
	if r, err := in.p.FPDFText_GetText(&requests.FPDFText_GetText{TextPage: t, StartIndex: 0, Count: n}); err == nil {
		if rs := []rune(strings.TrimRight(r.Text, "\x00")); len(rs) == n {
			return rs, nil
		}
	}
	// Characters outside the Basic Multilingual Plane take two units of
	// the page's text: ask for each character instead.
	rs := make([]rune, n)
	for j := range rs {
		u, err := in.p.FPDFText_GetUnicode(&requests.FPDFText_GetUnicode{TextPage: t, Index: j})
		if err != nil {
			return nil, err
		}
		rs[j] = rune(u.Unicode)
	}
	return rs, nil
}

func (in *instance) bold(t references.FPDF_TEXTPAGE, j int) bool {
	fi, err := in.p.FPDFText_GetFontInfo(&requests.FPDFText_GetFontInfo{TextPage: t, Index: j})
	return err == nil && fi != nil && isBold(fi.Flags, fi.FontName)
}

// forceBold is the ForceBold flag of a font descriptor (PDF 1.7, 9.8.2).
const forceBold = 1 << 18

// isBold reports whether a font is bold by its descriptor's flags or its
// name: PDFium reports no weight for the standard fonts.
func isBold(flags int, name string) bool {
	if flags&forceBold != 0 {
		return true
	}
	n := strings.ToLower(name)
	return strings.Contains(n, "bold") || strings.Contains(n, "black") || strings.Contains(n, "heavy")
}
