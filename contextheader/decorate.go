package contextheader

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/internal/chunks"
	"github.com/ragkit/ragkit/internal/markdown"
	"github.com/ragkit/ragkit/internal/parallel"
	"github.com/ragkit/ragkit/internal/space"
)

// Decorate returns doc's chunks with their contextual headers, in order.
// chunks must have been cut from doc.Text (by a [chunker.Chunker], or any
// way that keeps their offsets: doc.Text[Start:End] == Text).
//
// Each header is rendered from Config.Parts, cut to MaxHeaderTokens by
// exact count, and then, if MaxEmbedTokens is set and the embed text is
// over it, cut further until it fits; see the package documentation. A
// Summary part costs at most one Summarizer call for the document, none
// when its summary is cached or Document.Summary is set; a ChunkContext
// part costs one call per chunk not in the cache, at most
// Config.Concurrency in flight.
//
// Errors: the document and chunks are checked first ([ErrInvalidDocument], [ErrChunk]); a failing Summarizer or Cache, or a
// cancelled ctx, gives a [*DocumentError] that wraps [ErrSummarizer],
// [ErrCache] or the context's error; a chunk too long for MaxEmbedTokens
// without any header gives [ErrChunkTooLong]. No partial result is
// returned with an error.
func (d *Decorator) Decorate(ctx context.Context, doc document.Document, chunks []chunker.Chunk) ([]Chunk, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	if err := checkDocument(doc); err != nil {
		return nil, err
	}
	if err := checkChunks(doc.Text, chunks); err != nil {
		return nil, err
	}
	if len(chunks) == 0 {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, &DocumentError{ID: doc.ID, Err: err}
	}
	b, err := d.newBuilder(ctx, doc, chunks)
	if err != nil {
		return nil, &DocumentError{ID: doc.ID, Err: err}
	}
	out := make([]Chunk, len(chunks))
	for i, c := range chunks {
		if out[i], err = b.decorate(i, c); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// chunkSpan is a chunk's place, for chunks.Check.
func chunkSpan(c *chunker.Chunk) (int, int, string) { return c.Start, c.End, c.Text }

func checkChunks(text string, cs []chunker.Chunk) error {
	if err := chunks.Check(text, cs, chunkSpan); err != nil {
		return fmt.Errorf("%w: %w", ErrChunk, err)
	}
	return nil
}

// A builder makes the headers of one document's chunks.
type builder struct {
	d        *Decorator
	doc      document.Document
	title    string   // the document's title on one line
	base     []piece  // the parts, with the document's own texts filled in
	contexts []string // the chunk contexts, by chunk
	outline  *document.Outline
	tables   []markdown.Block // the document's Markdown tables, if a Table part needs them
	perChunk bool             // some part depends on more than the chunk's section

	// The header of the previous chunk, reused for the next chunk of the
	// same section path (and table) when no part depends on more.
	havePrev  bool
	prevPath  []string
	prevTable int
	prev      header
}

type header struct {
	text   string
	tokens int
	cut    bool
}

func (d *Decorator) newBuilder(ctx context.Context, doc document.Document, chunks []chunker.Chunk) (*builder, error) {
	b := &builder{
		d: d, doc: doc, title: space.OneLine(doc.Title),
		base:     make([]piece, len(d.cfg.Parts)),
		outline:  doc.Outline(),
		perChunk: d.hasKind[Custom] || d.hasKind[ChunkContext],
	}
	if d.hasKind[Table] && doc.Format == document.Markdown {
		for _, bl := range markdown.AppendBlocks(nil, doc.Text, 0, len(doc.Text)) {
			if bl.Kind == markdown.KindTable {
				b.tables = append(b.tables, bl)
			}
		}
	}
	for i, p := range d.cfg.Parts {
		b.base[i] = piece{label: p.Label, prio: p.priority()}
		switch p.Kind {
		case Title:
			b.base[i].text = b.title
		case Metadata:
			b.base[i].text = space.OneLine(d.templates[i].render(doc.Metadata))
		case Summary:
			s, err := d.documentSummary(ctx, doc)
			if err != nil {
				return nil, err
			}
			b.base[i].text = s
		}
		if b.base[i].text != "" {
			b.base[i] = d.measure(b.base[i])
		}
	}
	if d.hasKind[ChunkContext] {
		var err error
		text := func(i int) string { return chunks[i].Text }
		if b.contexts, err = d.chunkContexts(ctx, doc, text, len(chunks)); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// decorate makes chunk i's header and embed text.
func (b *builder) decorate(i int, c chunker.Chunk) (Chunk, error) {
	path := b.outline.Path(c.Start, c.End)
	table := b.table(c.Start)
	out := Chunk{Chunk: c, Section: path}
	// A header depends on the chunk's section path and table alone unless
	// a part depends on more: two chunks with the same ones share it.
	if b.perChunk || !b.havePrev || !slices.Equal(path, b.prevPath) || table != b.prevTable {
		ps, err := b.pieces(i, c, path, table)
		if err != nil {
			return Chunk{}, err
		}
		b.prev.text, b.prev.tokens, b.prev.cut = b.d.fit(ps, b.d.cfg.MaxHeaderTokens)
		b.havePrev, b.prevPath, b.prevTable = true, path, table
	}
	h := b.prev
	embed, n := b.d.embed(h.text, c.Text)
	if lim := b.d.cfg.MaxEmbedTokens; lim > 0 && n > lim {
		var err error
		if h, embed, n, err = b.shrink(i, c, path, table, h, n); err != nil {
			return Chunk{}, err
		}
	}
	out.Header, out.HeaderTokens, out.HeaderCut = h.text, h.tokens, h.cut
	out.EmbedText, out.EmbedTokens = embed, n
	return out, nil
}

// pieces renders chunk i's header parts, before any cut.
func (b *builder) pieces(i int, c chunker.Chunk, path []string, table int) ([]piece, error) {
	ps := append([]piece(nil), b.base...)
	for j, p := range b.d.cfg.Parts {
		switch p.Kind {
		case Section:
			if len(path) > 0 && b.title != "" && b.d.hasKind[Title] && strings.EqualFold(path[0], b.title) {
				path = path[1:] // the title already names the document
			}
			if len(path) > 0 {
				ps[j].path, ps[j].text = path, strings.Join(path, PathSeparator)
			}
		case Custom:
			s, err := parallel.Call(func() (string, error) { return p.Func(b.doc, c), nil })
			if err != nil {
				return nil, fmt.Errorf("Custom part %d of chunk %d: %w", j, i, err)
			}
			if !utf8.ValidString(s) {
				return nil, fmt.Errorf("%w: Custom part %d of chunk %d is not valid UTF-8", ErrInvalidDocument, j, i)
			}
			ps[j].text = space.OneLine(s)
		case ChunkContext:
			ps[j].text = b.contexts[i]
		case Table:
			if table >= 0 {
				ps[j].text, ps[j].whole = b.tableHead(b.tables[table]), true
			}
		}
	}
	return ps, nil
}

// table returns the index in b.tables of the table that offset lies in
// after its first line's start, or -1.
func (b *builder) table(offset int) int {
	i := sort.Search(len(b.tables), func(i int) bool { return b.tables[i].End > offset })
	if i < len(b.tables) && b.tables[i].Start < offset {
		return i
	}
	return -1
}

// tableHead returns the header line and the delimiter line of table t,
// each trimmed of white space.
func (b *builder) tableHead(t markdown.Block) string {
	text := b.doc.Text[t.Start:t.End]
	lines := markdown.NewLines(text, strings.IndexByte(text, '\r') >= 0)
	end, next := lines.At(0)
	head := strings.TrimSpace(text[:end])
	end, _ = lines.At(next)
	return head + "\n" + strings.TrimSpace(text[next:end])
}

// shrink cuts header h of chunk i until the embed text, now n tokens,
// fits in MaxEmbedTokens: the joins cost more than the parts' counts
// said, or a caller's chunk leaves less room than ChunkMaxTokens.
func (b *builder) shrink(i int, c chunker.Chunk, path []string, table int, h header, n int) (header, string, int, error) {
	lim := b.d.cfg.MaxEmbedTokens
	embed := ""
	for budget := h.tokens; n > lim && h.text != ""; {
		budget = min(budget-1, h.tokens-(n-lim))
		h = header{cut: true}
		if budget > 0 {
			ps, err := b.pieces(i, c, path, table)
			if err != nil {
				return header{}, "", 0, err
			}
			h.text, h.tokens, _ = b.d.fit(ps, budget)
		}
		embed, n = b.d.embed(h.text, c.Text)
	}
	if n > lim {
		return header{}, "", 0, fmt.Errorf("%w: chunk %d has %d tokens, MaxEmbedTokens is %d", ErrChunkTooLong, i, n, lim)
	}
	return h, embed, n, nil
}

// embed joins a header and a chunk's text and counts the result.
func (d *Decorator) embed(header, text string) (string, int) {
	if header != "" {
		text = header + d.cfg.Separator + text
	}
	return text, d.cfg.Tokenizer.Count(text)
}
