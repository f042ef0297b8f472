package formats_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/formats"
	"github.com/ragkit/ragkit/loader"
)

func parseHTML(t *testing.T, cfg formats.Config, page string) (document.Document, error) {
	t.Helper()
	p, err := formats.NewHTML(cfg)
	require.NoError(t, err)
	return p.Parse(context.Background(), "page.html", []byte(page))
}

func TestHTMLStructure(t *testing.T) {
	tests := []struct {
		name, page string
		title      string
		want       []string // in this order in the text
		absent     []string
	}{
		{
			name:  "headings and paragraphs",
			page:  `<html><head><title>Guide</title></head><body><h1>Setup</h1><p>Install   the <b>tool</b>.</p><h2>Flags</h2><p>Use <code>-v</code>.<br>Or not.</p></body></html>`,
			title: "Guide",
			want:  []string{"# Setup\n\nInstall the tool.\n\n## Flags\n\nUse `-v`.\nOr not."},
		},
		{
			name:  "title from the first h1",
			page:  `<body><p>intro</p><h1>Real title</h1><h1>Second</h1></body>`,
			title: "Real title",
		},
		{
			name: "lists, nested and numbered",
			page: `<ul><li>one<ul><li>inner</li></ul></li><li>two</li></ul><ol start="3"><li>three</li><li>four</li></ol>`,
			want: []string{"- one\n   - inner\n- two", "3. three\n4. four"},
		},
		{
			name: "table with its header row",
			page: `<table><thead><tr><th>Name</th><th>Cost</th></tr></thead><tbody><tr><td>Tea | green</td><td>3</td></tr><tr><td>Coffee</td></tr></tbody></table>`,
			want: []string{"| Name | Cost |\n| --- | --- |\n| Tea \\| green | 3 |\n| Coffee |  |"},
		},
		{
			name: "a table's caption, and a cell spanning columns",
			page: `<table><caption>Fares in 2026</caption><tr><th>Zone</th><th>Adult</th><th>Child</th></tr><tr><td>A</td><td colspan="2">free</td></tr><tr><td>B</td><td>3</td><td>1</td></tr></table>`,
			want: []string{"Fares in 2026\n\n| Zone | Adult | Child |\n| --- | --- | --- |\n| A | free |  |\n| B | 3 | 1 |"},
		},
		{
			name: "a table of one column is layout",
			page: `<table><tr><td><p>First paragraph.</p><p>Second.</p></td></tr></table>`,
			want: []string{"First paragraph.\n\nSecond."}, absent: []string{"|"},
		},
		{
			name:   "scripts, styles, navigation and hidden elements dropped",
			page:   `<body><header>Site banner</header><nav>Home About</nav><script>var x="code";</script><style>p{}</style><div role="navigation">Menu</div><div class="sidebar">Side</div><p hidden>Secret</p><p style="display: none">Gone</p><p>Kept text.</p><aside>Ad</aside><footer>Copyright</footer></body>`,
			want:   []string{"Kept text."},
			absent: []string{"banner", "Home", "code", "p{}", "Menu", "Side", "Secret", "Gone", "Ad", "Copyright"},
		},
		{
			name:   "main content chosen over the rest of the body",
			page:   `<body><div>Cookie notice</div><main><article><header><h1>Post</h1></header><p>Body text.</p></article></main><div>Related posts</div></body>`,
			want:   []string{"# Post\n\nBody text."},
			absent: []string{"Cookie", "Related"},
		},
		{
			name: "preformatted text fenced, links as their text, quotes",
			page: "<pre>a := 1\n  b := 2</pre><p>See <a href=\"x\">the manual</a>.</p><blockquote><p>Quoted.</p></blockquote>",
			want: []string{"```\na := 1\n  b := 2\n```", "See the manual.", "> Quoted."},
		},
		{
			name:   "a heading's links to itself dropped",
			page:   `<h2 id="a">Policies<a class="mark" href="#a">#</a></h2><h3>Flags <a class="headerlink" href="#f">¶</a></h3><p>See <a href="#a">#</a> and <a href="#b">the list</a>.</p>`,
			want:   []string{"## Policies\n\n### Flags\n\nSee and the list."},
			absent: []string{"¶", "Policies#"},
		},
		{
			name:   "text that would read as Markdown structure is escaped",
			page:   `<p># not a heading</p><p>---</p>`,
			want:   []string{`\# not a heading`, `\---`},
			absent: []string{"\n# not"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := parseHTML(t, formats.Config{}, tt.page)
			require.NoError(t, err)
			require.Equal(t, document.Markdown, doc.Format)
			if tt.title != "" {
				require.Equal(t, tt.title, doc.Title)
			}
			at := 0
			for _, w := range tt.want {
				i := strings.Index(doc.Text[at:], w)
				require.GreaterOrEqual(t, i, 0, "want %q after offset %d in:\n%s", w, at, doc.Text)
				at += i + len(w)
			}
			for _, a := range tt.absent {
				require.NotContains(t, doc.Text, a)
			}
		})
	}
}

func TestHTMLMetadata(t *testing.T) {
	doc, err := parseHTML(t, formats.Config{}, `<html lang="de"><head><meta name="author" content="Ada"><meta name="description" content="A page."><title>T</title></head><body><p>x</p></body></html>`)
	require.NoError(t, err)
	require.Equal(t, map[string]string{"language": "de", "author": "Ada", "description": "A page."}, doc.Metadata)
}

func TestHTMLCharset(t *testing.T) {
	latin1 := "caf\xe9 cr\xe8me br\xfbl\xe9e" // café crème brûlée in ISO-8859-1
	tests := []struct {
		name, page, want string
	}{
		{"declared by meta charset", `<meta charset="iso-8859-1"><p>` + latin1 + `</p>`, "café crème brûlée"},
		{"declared by http-equiv", `<meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><p>` + latin1 + "\x80</p>", "café crème brûlée€"},
		{"declared in a non-Latin set", "<meta charset=\"koi8-r\"><p>\xf0\xd2\xc9\xd7\xc5\xd4</p>", "Привет"},
		{"undeclared Latin-1", `<p>` + latin1 + `</p>`, "café crème brûlée"},
		{"undeclared UTF-8 past the first KiB", "<p>" + strings.Repeat("x ", 600) + "café</p>", "café"},
		{"declared Latin-1 but UTF-8", `<meta charset="iso-8859-1"><p>café crème</p>`, "café crème"},
		{"declared UTF-8 but Latin-1", `<meta charset="utf-8"><p>` + latin1 + `</p>`, "café crème brûlée"},
		{"UTF-8 with a byte-order mark", "\xef\xbb\xbf<p>café</p>", "café"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := parseHTML(t, formats.Config{}, tt.page)
			require.NoError(t, err)
			require.Contains(t, doc.Text, tt.want)
		})
	}
}

func TestHTMLBadInput(t *testing.T) {
	tests := []struct {
		name string
		cfg  formats.Config
		page string
	}{
		{"nested 100,000 deep", formats.Config{}, strings.Repeat("<div>", 100_000) + "x"},
		{"inline elements nested 100,000 deep", formats.Config{}, strings.Repeat("<span>", 100_000) + "x"},
		{"deeper than MaxDepth", formats.Config{MaxDepth: 10}, strings.Repeat("<section>", 20) + "x"},
		{"more text than MaxTextBytes", formats.Config{MaxTextBytes: 100}, strings.Repeat("<p>some words here</p>", 100)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseHTML(t, tt.cfg, tt.page)
			require.ErrorIs(t, err, loader.ErrTooLarge)
		})
	}
}

func TestHTMLCancelled(t *testing.T) {
	p, err := formats.NewHTML(formats.Config{})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = p.Parse(ctx, "a.html", []byte(strings.Repeat("<p>x</p>", 5000)))
	require.ErrorIs(t, err, context.Canceled)
}

func TestConfig(t *testing.T) {
	for _, cfg := range []formats.Config{{MaxDepth: -1}, {MaxUnzippedBytes: -1}, {MaxMemberBytes: -1}, {MaxRatio: -1}, {MaxCells: -1}, {MaxTextBytes: -1}} {
		_, err := formats.NewHTML(cfg)
		require.ErrorIs(t, err, formats.ErrConfig)
		_, err = formats.NewDOCX(cfg)
		require.ErrorIs(t, err, formats.ErrConfig)
		_, err = formats.NewXLSX(cfg)
		require.ErrorIs(t, err, formats.ErrConfig)
		_, err = formats.ParsersWith(cfg)
		require.ErrorIs(t, err, formats.ErrConfig)
	}
	p, err := formats.NewXLSX(formats.Config{MaxCells: 7})
	require.NoError(t, err)
	require.Equal(t, 7, p.Config().MaxCells)
	require.Equal(t, formats.DefaultMaxDepth, p.Config().MaxDepth)
}

var headingTag = regexp.MustCompile(`(?is)<h([1-3])[^>]*>(.*?)</h[1-3]>`)
var tags = regexp.MustCompile(`(?s)<[^>]*>`)

// TestHTMLFidelity reads real pages of Debian's documentation (see
// testdata/html/README.md) and compares their words, in order, with a
// text browser's rendering, w3m -dump: the yardstick, not the truth (w3m
// keeps navigation that the parser drops). Every h1-h3 heading must come
// out as a Markdown heading.
func TestHTMLFidelity(t *testing.T) {
	pages, err := filepath.Glob("testdata/html/*.html")
	require.NoError(t, err)
	require.NotEmpty(t, pages)
	p, err := formats.NewHTML(formats.Config{})
	require.NoError(t, err)
	for _, page := range pages {
		t.Run(filepath.Base(page), func(t *testing.T) {
			data, err := os.ReadFile(page)
			require.NoError(t, err)
			dump, err := os.ReadFile(strings.TrimSuffix(page, ".html") + ".w3m.txt")
			require.NoError(t, err)
			doc, err := p.Parse(context.Background(), page, data)
			require.NoError(t, err)
			require.NotEmpty(t, doc.Title)
			sim := similarity(doc.Text, string(dump))
			t.Logf("word similarity to w3m -dump: %.3f", sim)
			require.GreaterOrEqual(t, sim, 0.95)
			headings := map[string]bool{}
			for _, s := range doc.Outline().Headings() {
				headings[strings.Join(words(s.Title), " ")] = true
			}
			for _, m := range headingTag.FindAllStringSubmatch(string(data), -1) {
				h := strings.Join(words(htmlText(m[2])), " ")
				if h != "" {
					require.True(t, headings[h], "heading %q not found as a heading", h)
				}
			}
		})
	}
}

func htmlText(s string) string {
	s = tags.ReplaceAllString(s, " ")
	return strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'").Replace(s)
}
