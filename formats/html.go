package formats

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/loader"
)

// HTMLParser reads HTML pages (.html, .htm, .xhtml) into Markdown: the
// page's main content (its <main> or role="main" element, else its one
// <article>, else its <body>), with headings, paragraphs, lists, block
// quotes, preformatted text as fenced code, the text of links, and tables
// as Markdown tables whose first row is the table's header. Scripts,
// styles, navigation (<nav>, <aside>, role="navigation", the page's own
// <header> and <footer>), forms' controls and hidden elements are
// dropped. The title is the page's <title>, else its first <h1>; the
// metadata holds the page's language and its author, description and
// keywords meta tags.
//
// The page's bytes are decoded by the character set it declares (a
// byte-order mark, then a <meta> charset in its first 1024 bytes). A
// declaration the bytes contradict is overruled: a page declared in a
// single-byte set whose bytes are valid UTF-8 with non-ASCII letters is
// read as UTF-8, and a page declared UTF-8 (or declaring nothing) whose
// bytes are mostly not UTF-8 is read as Windows-1252, the web's default.
type HTMLParser struct{ cfg Config }

// NewHTML returns an HTML parser with the limits of cfg; the error wraps
// [ErrConfig].
func NewHTML(cfg Config) (*HTMLParser, error) {
	cfg, err := cfg.resolved()
	if err != nil {
		return nil, err
	}
	return &HTMLParser{cfg: cfg}, nil
}

// Config returns the parser's configuration, defaults filled in.
func (p *HTMLParser) Config() Config { return p.cfg }

// Reads reports whether c is text: an HTML page is text by its content.
func (p *HTMLParser) Reads(c loader.Content) bool { return c == loader.ContentText }

// Parse reads one HTML page; see [HTMLParser].
func (p *HTMLParser) Parse(ctx context.Context, name string, data []byte) (document.Document, error) {
	text, enc := decodeHTML(data)
	root, err := html.ParseWithOptions(strings.NewReader(text))
	if err != nil {
		if strings.Contains(err.Error(), "open stack") {
			return document.Document{}, fmt.Errorf("%w: elements nested too deep: %v", loader.ErrTooLarge, err)
		}
		return document.Document{}, fmt.Errorf("%w: %v", loader.ErrFormat, err)
	}
	w := &htmlWalker{ctx: ctx, md: markdown{limit: p.cfg.MaxTextBytes}, maxDepth: p.cfg.MaxDepth}
	meta := map[string]string{}
	title := w.head(root, meta)
	if enc != "utf-8" && hasHighBit(data) {
		meta["charset"] = enc
	}
	main := mainContent(root)
	if main != nil {
		w.walk(main, 0)
		w.flush()
	}
	if w.err == nil {
		w.err = w.md.err()
	}
	if w.err != nil {
		return document.Document{}, w.err
	}
	if title == "" {
		title = w.firstH1
	}
	if len(meta) == 0 {
		meta = nil
	}
	return document.Document{Title: title, Text: w.md.String(), Format: document.Markdown, Metadata: meta}, nil
}

// decodeHTML returns the page's text as UTF-8 and the name of the
// character set it was read in.
func decodeHTML(data []byte) (string, string) {
	enc, name, certain := charset.DetermineEncoding(data, "")
	switch {
	case certain: // a byte-order mark
	case name == "utf-8" || enc == encoding.Nop:
		if !utf8.Valid(data) && mostlyNotUTF8(data) {
			enc, name = charmap.Windows1252, "windows-1252"
		} else {
			enc, name = encoding.Nop, "utf-8"
		}
	case hasHighBit(data) && utf8.Valid(data):
		// A single-byte declaration contradicted by text that decodes as
		// UTF-8 with non-ASCII letters, which text in a single-byte set
		// almost never does.
		if singleByte(name) {
			enc, name = encoding.Nop, "utf-8"
		}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if enc == encoding.Nop {
		return string(data), name
	}
	out, err := enc.NewDecoder().Bytes(data)
	if err != nil {
		return string(data), "utf-8" // the loader repairs invalid bytes
	}
	return string(out), name
}

// singleByte reports whether the WHATWG encoding name is of a
// single-byte set, where text is almost never valid UTF-8 by chance.
func singleByte(name string) bool {
	for _, p := range []string{"windows-", "iso-8859-", "koi8-", "macintosh", "ibm866", "x-mac-"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func hasHighBit(data []byte) bool {
	for _, c := range data {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

// mostlyNotUTF8 reports whether more of data's non-ASCII sequences are
// invalid UTF-8 than valid: a Latin-1 page, not a UTF-8 page with a few
// bad bytes.
func mostlyNotUTF8(data []byte) bool {
	valid, invalid := 0, 0
	for i := 0; i < len(data); {
		if data[i] < 0x80 {
			i++
			continue
		}
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			invalid++
		} else {
			valid++
		}
		i += n
	}
	return invalid > valid
}

// mainContent returns the element holding the page's main content.
func mainContent(root *html.Node) *html.Node {
	var main, body *html.Node
	var articles []*html.Node
	var find func(n *html.Node, depth int)
	find = func(n *html.Node, depth int) {
		if n.Type == html.ElementNode {
			switch {
			case n.DataAtom == atom.Main || attr(n, "role") == "main":
				if main == nil {
					main = n
				}
			case n.DataAtom == atom.Article:
				articles = append(articles, n)
			case n.DataAtom == atom.Body:
				body = n
			}
		}
		if depth > DefaultMaxDepth {
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			find(c, depth+1)
		}
	}
	find(root, 0)
	switch {
	case main != nil:
		return main
	case len(articles) == 1:
		return articles[0]
	case body != nil:
		return body
	}
	return root
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return strings.ToLower(strings.TrimSpace(a.Val))
		}
	}
	return ""
}

// htmlWalker renders a tree of HTML into Markdown blocks.
type htmlWalker struct {
	ctx      context.Context
	md       markdown
	maxDepth int
	err      error
	nodes    int

	para    strings.Builder // the inline text of the block being read
	lists   []htmlList      // the enclosing lists, innermost last
	item    string          // the marker of a list item not yet written
	inItem  bool            // the last block written is a list item's
	quote   int             // enclosing block quotes
	article int             // enclosing article, main or section elements
	firstH1 string
}

type htmlList struct {
	ordered bool
	n       int
}

// head reads the page's title and metadata.
func (w *htmlWalker) head(root *html.Node, meta map[string]string) string {
	title := ""
	var visit func(n *html.Node, depth int)
	visit = func(n *html.Node, depth int) {
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Html:
				if l := attr(n, "lang"); l != "" {
					meta["language"] = l
				}
			case atom.Title:
				if title == "" {
					title = oneLine(textOf(n, 0))
				}
				return
			case atom.Meta:
				switch k := attr(n, "name"); k {
				case "author", "description", "keywords":
					if v := oneLine(rawAttr(n, "content")); v != "" {
						meta[k] = v
					}
				}
			case atom.Body:
				return
			}
		}
		if depth > DefaultMaxDepth {
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c, depth+1)
		}
	}
	visit(root, 0)
	return title
}

func rawAttr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

// dropped reports whether n and what it holds are not content.
func (w *htmlWalker) dropped(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Nav, atom.Aside,
		atom.Svg, atom.Canvas, atom.Iframe, atom.Object, atom.Embed, atom.Button,
		atom.Select, atom.Textarea, atom.Input, atom.Head, atom.Math:
		return true
	case atom.Header, atom.Footer:
		// The page's banner and footer, not an article's own.
		return w.article == 0
	}
	if _, ok := attrOf(n, "hidden"); ok || attr(n, "aria-hidden") == "true" || selfAnchor(n) {
		return true
	}
	switch attr(n, "role") {
	case "navigation", "banner", "contentinfo", "search", "complementary":
		return true
	}
	for _, c := range strings.Fields(attr(n, "class") + " " + attr(n, "id")) {
		if navClasses[c] {
			return true
		}
	}
	style := strings.ReplaceAll(attr(n, "style"), " ", "")
	return strings.Contains(style, "display:none") || strings.Contains(style, "visibility:hidden")
}

// navClasses are classes and ids of navigation, by the names that
// documentation generators (Texinfo, Sphinx, Doxygen) and sites give
// them: links to other pages and anchors' pilcrows, not content.
var navClasses = map[string]bool{
	"nav": true, "navbar": true, "navigation": true, "nav-panel": true, "navheader": true,
	"navfooter": true, "menu": true, "sidebar": true, "breadcrumb": true, "breadcrumbs": true,
	"header": true, "footer": true, "headerlink": true, "copiable-link": true, "skip-link": true,
	"related": true, "sphinxsidebar": true,
}

func attrOf(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// walk renders n and what it holds.
func (w *htmlWalker) walk(n *html.Node, depth int) {
	if w.err != nil || w.md.over {
		return
	}
	if w.nodes++; w.nodes%1024 == 0 {
		if err := w.ctx.Err(); err != nil {
			w.err = err
			return
		}
	}
	if depth > w.maxDepth {
		w.err = fmt.Errorf("%w: elements nested deeper than %d (Config.MaxDepth)", loader.ErrTooLarge, w.maxDepth)
		return
	}
	switch n.Type {
	case html.TextNode:
		w.text(n.Data)
		return
	case html.ElementNode:
	case html.DocumentNode:
		w.children(n, depth)
		return
	default:
		return
	}
	if w.dropped(n) {
		return
	}
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		w.flush()
		level := int(n.Data[1] - '0')
		text := oneLine(textOf(n, 0))
		if level == 1 && w.firstH1 == "" {
			w.firstH1 = text
		}
		w.write(heading(level, text))
	case atom.Pre:
		w.flush()
		w.write(fence(textOf(n, 0)))
	case atom.Table:
		w.flush()
		if rows, caption, ok := tableRows(n); ok {
			w.write(paragraph(caption))
			w.write(table(rows))
		} else {
			w.children(n, depth) // a table laid out for looks, not data
			w.flush()
		}
	case atom.Ul, atom.Ol, atom.Menu:
		w.flush()
		w.lists = append(w.lists, htmlList{ordered: n.DataAtom == atom.Ol})
		if s, err := strconv.Atoi(attr(n, "start")); err == nil && s > 0 && s < 1e9 {
			w.lists[len(w.lists)-1].n = s - 1
		}
		w.children(n, depth)
		w.flush()
		w.lists = w.lists[:len(w.lists)-1]
		if len(w.lists) == 0 {
			w.inItem = false
		}
	case atom.Li:
		w.flush()
		marker := "- "
		if len(w.lists) > 0 {
			l := &w.lists[len(w.lists)-1]
			l.n++
			if l.ordered {
				marker = strconv.Itoa(l.n) + ". "
			}
		}
		w.item = marker
		w.children(n, depth)
		w.flush()
		w.item = ""
	case atom.Blockquote:
		w.flush()
		w.quote++
		w.children(n, depth)
		w.flush()
		w.quote--
	case atom.Br:
		w.para.WriteString("\n")
	case atom.Hr:
		w.flush()
	case atom.Code, atom.Kbd, atom.Samp, atom.Tt:
		if code := oneLine(textOf(n, 0)); code != "" && !strings.Contains(code, "`") {
			w.space()
			w.para.WriteString("`" + code + "`")
		} else {
			w.children(n, depth)
		}
	case atom.Img:
		// No text of its own; alt text is often a file name.
	case atom.Article, atom.Main, atom.Section:
		w.flush()
		w.article++
		w.children(n, depth)
		w.flush()
		w.article--
	case atom.A, atom.Abbr, atom.B, atom.Bdi, atom.Bdo, atom.Cite, atom.Data, atom.Dfn, atom.Em,
		atom.Font, atom.I, atom.Label, atom.Mark, atom.Q, atom.S, atom.Small, atom.Span,
		atom.Strong, atom.Sub, atom.Sup, atom.Time, atom.U, atom.Var, atom.Wbr, atom.Del, atom.Ins, atom.Big, atom.Strike:
		w.children(n, depth) // inline: its text joins the paragraph
	default:
		// Every other element is a block (p, div, dl, dt, dd, figure...).
		w.flush()
		w.children(n, depth)
		w.flush()
	}
}

func (w *htmlWalker) children(n *html.Node, depth int) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.walk(c, depth+1)
	}
}

// text adds a text node's words to the paragraph, white space collapsed.
func (w *htmlWalker) text(s string) {
	if s == "" {
		return
	}
	if isSpace(s[0]) {
		w.space()
	}
	f := strings.Fields(s)
	for i, word := range f {
		if i > 0 {
			w.para.WriteByte(' ')
		}
		w.para.WriteString(word)
	}
	if len(f) > 0 && isSpace(s[len(s)-1]) {
		w.para.WriteByte(' ')
	}
}

// space separates the next words from the paragraph's last.
func (w *htmlWalker) space() {
	if s := w.para.String(); s != "" && !isSpace(s[len(s)-1]) {
		w.para.WriteByte(' ')
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// flush writes the paragraph read so far as a block.
func (w *htmlWalker) flush() {
	s := paragraph(w.para.String())
	w.para.Reset()
	w.write(s)
}

// write writes one block, inside the enclosing list items and quotes.
func (w *htmlWalker) write(s string) {
	if s == "" {
		return
	}
	tight := false
	if n := len(w.lists); n > 0 {
		indent := strings.Repeat("   ", n-1)
		marker := indent + "   "
		if w.item != "" {
			marker, tight = indent+w.item, w.inItem
			w.item = ""
		}
		s = prefixLines(s, marker, indent+"   ")
		w.inItem = true
	} else {
		w.inItem = false
	}
	if w.quote > 0 {
		q := strings.Repeat("> ", w.quote)
		s = prefixLines(s, q, q)
	}
	if tight {
		w.md.line(s)
	} else {
		w.md.block(s)
	}
}

// prefixLines puts first before s's first line and rest before the others.
func prefixLines(s, first, rest string) string {
	lines := strings.Split(s, "\n")
	for i := range lines {
		if i == 0 {
			lines[i] = first + lines[i]
		} else if lines[i] != "" {
			lines[i] = rest + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

// selfAnchor reports whether n is a heading's link to itself, whose text
// is a symbol only ("#", "¶", "§"), as documentation generators add.
func selfAnchor(n *html.Node) bool {
	if n.DataAtom != atom.A || !strings.HasPrefix(attr(n, "href"), "#") {
		return false
	}
	var text strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		text.WriteString(textOf(c, 0))
	}
	switch strings.TrimSpace(text.String()) {
	case "#", "¶", "§", "🔗":
		return true
	}
	return false
}

// textOf returns the text n holds, scripts and styles left out, white
// space as it is.
func textOf(n *html.Node, depth int) string {
	var b strings.Builder
	var visit func(n *html.Node, depth int)
	visit = func(n *html.Node, depth int) {
		switch {
		case n.Type == html.TextNode:
			b.WriteString(n.Data)
		case n.Type == html.ElementNode && (n.DataAtom == atom.Script || n.DataAtom == atom.Style || n.DataAtom == atom.Template || selfAnchor(n)):
		case n.Type == html.ElementNode && n.DataAtom == atom.Br:
			b.WriteByte('\n')
		case depth <= DefaultMaxDepth:
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				visit(c, depth+1)
			}
		}
	}
	visit(n, depth)
	return b.String()
}

// tableRows returns a data table's rows, its header first (the rows of
// <thead>, else the first row), and its caption, or false for a table
// used for layout: one column, or tables inside its cells. A cell that
// spans columns is followed by empty cells, so that the columns stay
// under their headers.
func tableRows(t *html.Node) ([][]string, string, bool) {
	var head, body [][]string
	width, layout, caption := 0, false, ""
	var rows func(n *html.Node, inHead bool, depth int)
	rows = func(n *html.Node, inHead bool, depth int) {
		for c := n.FirstChild; c != nil && depth < 4; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.DataAtom {
			case atom.Caption:
				caption = oneLine(textOf(c, 0))
			case atom.Thead:
				rows(c, true, depth+1)
			case atom.Tbody, atom.Tfoot:
				rows(c, false, depth+1)
			case atom.Tr:
				var row []string
				for cell := c.FirstChild; cell != nil; cell = cell.NextSibling {
					if cell.Type == html.ElementNode && (cell.DataAtom == atom.Td || cell.DataAtom == atom.Th) {
						if hasTable(cell, 0) {
							layout = true
						}
						row = append(row, oneLine(textOf(cell, 0)))
						if span, err := strconv.Atoi(attr(cell, "colspan")); err == nil && span > 1 {
							row = append(row, make([]string, min(span, 64)-1)...)
						}
					}
				}
				width = max(width, len(row))
				if inHead {
					head = append(head, row)
				} else {
					body = append(body, row)
				}
			}
		}
	}
	rows(t, false, 0)
	if layout || width < 2 {
		return nil, "", false
	}
	if len(head) > 1 { // several header rows: one header of their cells joined
		joined := make([]string, width)
		for _, r := range head {
			for i, c := range r {
				joined[i] = strings.TrimSpace(joined[i] + " " + c)
			}
		}
		head = [][]string{joined}
	}
	return append(head, body...), caption, true
}

func hasTable(n *html.Node, depth int) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Table {
			return true
		}
		if depth < DefaultMaxDepth && hasTable(c, depth+1) {
			return true
		}
	}
	return false
}
