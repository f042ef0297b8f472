package pdf_test

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/formats/pdf"
	"github.com/ragkit/ragkit/formats/pdf/internal/fidelity"
	"github.com/ragkit/ragkit/loader"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shared is one parser for the tests that need no particular
// configuration: the first New compiles PDFium, which takes seconds.
var shared = sync.OnceValues(func() (*pdf.Parser, error) { return pdf.New(pdf.Config{}) })

func parser(t testing.TB) *pdf.Parser {
	t.Helper()
	p, err := shared()
	require.NoError(t, err)
	return p
}

func parse(t testing.TB, name string) document.Document {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name + ".pdf")
	require.NoError(t, err)
	d, err := parser(t).Parse(context.Background(), name+".pdf", data)
	require.NoError(t, err)
	return d
}

// source is a test file's Markdown source: its text, headings and table.
type source struct {
	text     string
	title    string
	headings []string // as Markdown lines, "## Heading"
	table    [][]string
}

var headingLine = regexp.MustCompile(`^#{1,6} `)

func readSource(t testing.TB, name string) source {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name + ".md")
	require.NoError(t, err)
	s := source{text: string(b)}
	for _, l := range strings.Split(s.text, "\n") {
		switch {
		case headingLine.MatchString(l):
			s.headings = append(s.headings, l)
			if s.title == "" {
				s.title = strings.TrimPrefix(l, "# ")
			}
		case strings.HasPrefix(l, "|") && !strings.HasPrefix(l, "|---"):
			s.table = append(s.table, cells(l))
		}
	}
	return s
}

func cells(l string) []string {
	var out []string
	for _, c := range strings.Split(strings.Trim(l, "| "), "|") {
		out = append(out, strings.TrimSpace(c))
	}
	return out
}

// The strings of the test files' running headers and footers (md2ms.awk).
var running = []string{"Ragkit fidelity test", "Forster sampler", "Chapter one draft", "Not for citation"}

var pageNumberLine = regexp.MustCompile(`(?m)^\s*(Page )?[0-9]+\s*$|Page [0-9]+`)

func TestParseFidelity(t *testing.T) {
	tests := []struct {
		name  string
		pages int
	}{
		{"onecol", 3},
		{"twocol", 4},
		{"table", 3},
		{"headings", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := readSource(t, tt.name)
			d := parse(t, tt.name)
			sim := fidelity.Similarity(fidelity.Words(src.text), fidelity.Words(d.Text))
			assert.GreaterOrEqual(t, sim, 0.98, "word-sequence similarity to %s.md", tt.name)
			assert.Equal(t, document.Markdown, d.Format)
			assert.Equal(t, src.title, d.Title)
			assert.Equal(t, "", pageNumberLine.FindString(d.Text), "a page number is left")
			for _, r := range running {
				assert.NotContains(t, d.Text, r, "a running header or footer is left")
			}
			lines := strings.Split(d.Text, "\n")
			for _, h := range src.headings {
				assert.Contains(t, lines, h, "heading with its level")
			}
			if src.table != nil {
				assert.Equal(t, src.table, table(lines), "the table, its header row first")
			}
			assert.Equal(t, pdf.PagesKey, "pages")
			assert.Equal(t, []string{"pages"}, keys(d.Metadata))
			checkMarks(t, tt.name, d, tt.pages)
		})
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// table returns the cells of the first Markdown table in lines, without
// its delimiter row.
func table(lines []string) [][]string {
	var out [][]string
	for _, l := range lines {
		if !strings.HasPrefix(l, "|") {
			if out != nil {
				break
			}
			continue
		}
		if c := cells(l); !slices.ContainsFunc(c, func(s string) bool { return s != "---" }) {
			continue
		}
		out = append(out, cells(l))
	}
	return out
}

// checkMarks checks that there is one mark per page, in order, and that
// each page's text starts with words that pdftotext read on that page.
func checkMarks(t *testing.T, name string, d document.Document, pages int) {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name + ".pdftotext.txt")
	require.NoError(t, err)
	byPage := strings.Split(string(b), "\f")
	require.Len(t, d.Marks, pages)
	for i, m := range d.Marks {
		require.Equal(t, i+1, m.Page)
		end := len(d.Text)
		if i+1 < len(d.Marks) {
			end = d.Marks[i+1].Offset
		}
		require.Less(t, m.Offset, end, "page %d has text", m.Page)
		if i == 0 {
			require.Zero(t, m.Offset)
		}
		head := fidelity.Words(d.Text[m.Offset:end])
		head = head[:min(6, len(head))]
		want := fidelity.Words(byPage[i])
		assert.True(t, containsRun(want, head), "page %d starts with %q, which pdftotext did not read on it", m.Page, head)
		assert.Equal(t, document.Location{Page: m.Page, LastPage: m.Page}, d.Locate(m.Offset, end))
	}
}

func containsRun(words, run []string) bool {
	for i := 0; i+len(run) <= len(words); i++ {
		if slices.Equal(words[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

func TestParseErrors(t *testing.T) {
	good, err := os.ReadFile("testdata/onecol.pdf")
	require.NoError(t, err)
	tests := []struct {
		name string
		data []byte
		want error
		why  string
	}{
		{"not a PDF", []byte("%PDF-1.4\nthis is no PDF at all"), loader.ErrFormat, "not a well-formed PDF"},
		{"truncated", good[:len(good)/3], loader.ErrFormat, "PDF"},
		{"empty", nil, loader.ErrFormat, "PDF"},
		{"encrypted", encrypted(t), loader.ErrFormat, "encrypted"},
		{"no text", noText, loader.ErrNoText, "text layer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parser(t).Parse(context.Background(), "x.pdf", tt.data)
			require.ErrorIs(t, err, tt.want)
			assert.Contains(t, err.Error(), tt.why)
		})
	}
}

func TestParsePagesInParallel(t *testing.T) {
	p, err := pdf.New(pdf.Config{MaxInstances: 3})
	require.NoError(t, err)
	defer p.Close()
	const n = 13
	d, err := p.Parse(context.Background(), "many.pdf", numberedPages(n, 3))
	require.NoError(t, err)
	require.Len(t, d.Marks, n)
	for i, m := range d.Marks {
		require.Equal(t, i+1, m.Page)
		want := "This is page " + strconv.Itoa(i+1) + " of the test."
		require.True(t, strings.HasPrefix(d.Text[m.Offset:], want), "page %d starts with %q", i+1, d.Text[m.Offset:min(len(d.Text), m.Offset+40)])
	}
	assert.Equal(t, strconv.Itoa(n), d.Metadata[pdf.PagesKey])
}

func TestParseLimits(t *testing.T) {
	data := numberedPages(5, 40)
	tests := []struct {
		name string
		cfg  pdf.Config
		why  string
	}{
		{"bytes", pdf.Config{MaxBytes: len(data) - 1}, "Config.MaxBytes"},
		{"pages", pdf.Config{MaxPages: 4}, "Config.MaxPages"},
		{"characters on a page", pdf.Config{MaxPageChars: 100}, "Config.MaxPageChars"},
		{"time", pdf.Config{Timeout: time.Nanosecond}, "Config.Timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := pdf.New(tt.cfg)
			require.NoError(t, err)
			defer p.Close()
			_, err = p.Parse(context.Background(), "x.pdf", data)
			require.ErrorIs(t, err, loader.ErrTooLarge)
			assert.Contains(t, err.Error(), tt.why)
		})
	}
	t.Run("smallest memory", func(t *testing.T) {
		p, err := pdf.New(pdf.Config{MaxMemory: 64 << 20})
		require.NoError(t, err)
		defer p.Close()
		_, err = p.Parse(context.Background(), "x.pdf", data)
		require.NoError(t, err)
	})
}

func TestParseCancelStopsTheEngine(t *testing.T) {
	p, err := pdf.New(pdf.Config{MaxInstances: 1})
	require.NoError(t, err)
	defer p.Close()
	big := numberedPages(400, 45)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = p.Parse(ctx, "big.pdf", big)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	// The killed instance is replaced: the parser reads the next file.
	d, err := p.Parse(context.Background(), "small.pdf", numberedPages(2, 1))
	require.NoError(t, err)
	assert.Contains(t, d.Text, "This is page 2 of the test.")
}

func TestParseConcurrent(t *testing.T) {
	p := parser(t)
	names := []string{"onecol", "twocol", "table", "headings"}
	want := map[string]string{}
	for _, n := range names {
		want[n] = parse(t, n).Text
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := names[i%len(names)]
			data, err := os.ReadFile("testdata/" + n + ".pdf")
			assert.NoError(t, err)
			d, err := p.Parse(context.Background(), n+".pdf", data)
			assert.NoError(t, err)
			assert.Equal(t, want[n], d.Text, "the same file reads the same")
		}()
	}
	wg.Wait()
}

func TestClose(t *testing.T) {
	p, err := pdf.New(pdf.Config{})
	require.NoError(t, err)
	require.NoError(t, p.Close())
	require.NoError(t, p.Close())
	_, err = p.Parse(context.Background(), "x.pdf", numberedPages(1, 1))
	require.Error(t, err)
}

func TestNewConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  pdf.Config
		want string
	}{
		{"negative instances", pdf.Config{MaxInstances: -1}, "MaxInstances is -1"},
		{"negative pages", pdf.Config{MaxPages: -2}, "MaxPages is -2"},
		{"negative bytes", pdf.Config{MaxBytes: -3}, "MaxBytes is -3"},
		{"negative characters", pdf.Config{MaxPageChars: -4}, "MaxPageChars is -4"},
		{"too little memory", pdf.Config{MaxMemory: 1 << 20}, "MaxMemory is 1048576"},
		{"negative timeout", pdf.Config{Timeout: -time.Second}, "Timeout is -1s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := pdf.New(tt.cfg)
			require.ErrorIs(t, err, pdf.ErrConfig)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	cfg := parser(t).Config()
	assert.Equal(t, pdf.Config{
		MaxInstances: pdf.DefaultMaxInstances, MaxBytes: pdf.DefaultMaxBytes, MaxPages: pdf.DefaultMaxPages,
		MaxPageChars: pdf.DefaultMaxPageChars, MaxMemory: pdf.DefaultMaxMemory, Timeout: pdf.DefaultTimeout,
	}, cfg)
}

func TestReads(t *testing.T) {
	p := parser(t)
	assert.True(t, p.Reads(loader.ContentPDF))
	for _, c := range []loader.Content{loader.ContentText, loader.ContentZip, loader.ContentBinary} {
		assert.False(t, p.Reads(c), c)
	}
	assert.Equal(t, loader.ContentPDF, loader.Sniff(numberedPages(1, 1)))
}

// TestParseLayoutRules holds the rules that real PDFs (pdfTeX manuals)
// showed were needed: a section's number set a quad apart from its title
// is part of the heading, a block indented as a whole is one paragraph,
// and a table of contents' dot leaders are not text.
func TestParseLayoutRules(t *testing.T) {
	page := minimalPDF(`BT /F1 16 Tf 72 700 Td (1) Tj 28 0 Td (Definition of terms) Tj ET
BT /F1 10 Tf 100 660 Td 12 TL (This abstract is set in from both margins and) Tj T* (runs over three lines that all start at the) Tj T* (same place, so they are one paragraph.) Tj ET
BT /F1 10 Tf 72 610 Td 12 TL (A paragraph at the margin follows it, and its) Tj T* (second line is joined to the first one.) Tj ET
BT /F1 10 Tf 72 560 Td (Contents . . . . . . . . . . 7) Tj ET`, "")
	d, err := parser(t).Parse(context.Background(), "rules.pdf", page)
	require.NoError(t, err)
	assert.Equal(t, "# 1 Definition of terms\n\n"+
		"This abstract is set in from both margins and runs over three lines that all start at the same place, so they are one paragraph.\n\n"+
		"A paragraph at the margin follows it, and its second line is joined to the first one.\n\n"+
		"Contents 7", d.Text)
	assert.Equal(t, "1 Definition of terms", d.Title)
}
