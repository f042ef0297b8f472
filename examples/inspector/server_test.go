package main

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newTestApp makes the inspector's server over o's corpus, with the
// offline models, and waits for its default index.
func newTestApp(t *testing.T, o options) *app {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	m, err := newModels(o, io.Discard)
	require.NoError(t, err)
	a, err := newApp(ctx, o, m)
	require.NoError(t, err)
	ix := a.indexes.get(defaults().Index)
	<-ix.done
	require.NoError(t, ix.err)
	return a
}

func testOptions() options {
	return options{maxFileMiB: 10, embedMaxTokens: 2048, timeout: time.Minute}
}

// get serves one GET of the page to a, as a browser on this machine asks.
func get(a *app, query string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, "/?"+query, nil)
	r.Host = "127.0.0.1:7331"
	w := httptest.NewRecorder()
	a.ServeHTTP(w, r)
	return w
}

// alert returns the text of the page's error box.
func alert(body string) string {
	m := regexp.MustCompile(`(?s)role="alert"><strong>Cannot show this:</strong> (.*?)</div>`).FindStringSubmatch(body)
	if m == nil {
		return ""
	}
	return m[1]
}

func TestBadInput(t *testing.T) {
	a := newTestApp(t, testOptions())
	big := strings.Repeat("How much? ", 1<<20/10)
	tests := []struct {
		name, query string
		code        int
		alert       string
	}{
		{"empty question", "q=", 400, "the question is empty"},
		{"blank question", "q=+%09+", 400, "the question is empty"},
		{"blank example", "ask=+", 400, "the question is empty"},
		{"question of 1 MB", "q=" + url.QueryEscape(big), 400, fmt.Sprintf("q is %d bytes long: at most 2000", len(big))},
		{"unknown parameter", "q=hotel&colour=red", 400, "unknown parameter &#34;colour&#34;"},
		{"unknown parameter, long name", "q=hotel&" + strings.Repeat("x", 5000) + "=1", 400, "unknown parameter &#34;" + strings.Repeat("x", 40) + "…&#34;"},
		{"chunk size too small", "q=hotel&chunk=3", 400, "chunk is &#34;3&#34;: must be a whole number from 16 to 2048"},
		{"chunk size not a number", "q=hotel&chunk=big", 400, "chunk is &#34;big&#34;"},
		{"negative budget", "q=hotel&budget=-1", 400, "budget is &#34;-1&#34;: must be a whole number from 1 to 7168"},
		{"unknown widening", "q=hotel&widen=pages", 400, "widen is &#34;pages&#34;: must be segments or windows"},
		{"bad checkbox", "q=hotel&keywords=maybe", 400, "keywords is &#34;maybe&#34;: must be 1 or 0"},
		{"invalid UTF-8", "q=%ff%fe", 400, "q is not valid UTF-8"},
		{"unknown document", "q=hotel&doc=nope.md", 400, "doc &#34;nope.md&#34; is not a document of the quickstart&#39;s corpus"},
		{"no question", "", 200, ""},
		{"a question", "q=hotel+limit+Singapore", 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := get(a, tt.query)
			assert.Equal(t, tt.code, w.Code)
			body := w.Body.String()
			assert.Contains(t, body, `<form id="controls"`, "the page is shown, with its controls, to fix the input")
			if tt.alert == "" {
				assert.Empty(t, alert(body))
			} else {
				assert.Contains(t, alert(body), tt.alert)
			}
			assert.Less(t, len(body), 200<<10, "nothing of the bad input is echoed in bulk")
		})
	}
}

func TestRequestsRefused(t *testing.T) {
	a := newTestApp(t, testOptions())
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader("q=hotel"))
	r.Host = "localhost:7331"
	w := httptest.NewRecorder()
	a.ServeHTTP(w, r)
	assert.Equal(t, http.StatusMethodNotAllowed, w.Code)

	// A page elsewhere whose name now points at this machine.
	r = httptest.NewRequest(http.MethodGet, "/?q=hotel", nil)
	r.Host = "attacker.example:7331"
	w = httptest.NewRecorder()
	a.ServeHTTP(w, r)
	assert.Equal(t, http.StatusForbidden, w.Code)

	// Without -model there is no answer to stream.
	r = httptest.NewRequest(http.MethodGet, "/answer?q=hotel", nil)
	r.Host = "127.0.0.1"
	w = httptest.NewRecorder()
	a.ServeHTTP(w, r)
	assert.Equal(t, http.StatusNotFound, w.Code)
	assert.Contains(t, w.Body.String(), "-model")
}

// TestRun runs the program as main does: it prints the address, serves
// the page, refuses a URL of 1 MB before reading it whole, and stops when
// its context is cancelled.
func TestRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut bytes.Buffer
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"-addr", "127.0.0.1:0"}, &out, &errOut, ready) }()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("run returned %v; stderr:\n%s", err, errOut.String())
	}
	assert.Contains(t, out.String(), "serving "+addr)

	resp, err := http.Get(addr + "?q=" + url.QueryEscape("What was the gross margin in Q2 2026?"))
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, string(body), `id="passage-list"`)

	resp, err = http.Get(addr + "?q=" + strings.Repeat("a", 1<<20))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusRequestHeaderFieldsTooLarge, resp.StatusCode)

	cancel()
	require.NoError(t, <-done)
}

func TestFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-addr", "0.0.0.0:7331"},
		{"-addr", "192.168.1.10:80"},
		{"-openai-base-url", "http://localhost:11434/v1"},
		{"-max-file-mib", "0"},
		{"extra"},
	} {
		var errOut bytes.Buffer
		err := run(context.Background(), args, io.Discard, &errOut, nil)
		assert.ErrorIs(t, err, errUsage, "%v", args)
	}
}

// TestDirWithUnreadableFiles: files the loader cannot read are listed on
// the page, and the others served; a folder with nothing readable is an
// error at start.
func TestDirWithUnreadableFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write("good.md", "# Leave\n\nStaff take up to 25 days of paid leave a year.\n")
	write("empty.md", "  \n")
	require.NoError(t, os.Symlink(filepath.Join(dir, "gone.md"), filepath.Join(dir, "dangling.md")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644))
	write("big.md", strings.Repeat("word ", (1<<20)/5+10))
	write("secret.md", "# Secret\n\nNo one reads this.\n")
	require.NoError(t, os.Chmod(filepath.Join(dir, "secret.md"), 0))

	o := testOptions()
	o.dir, o.maxFileMiB = dir, 1
	a := newTestApp(t, o)
	w := get(a, "q=paid+leave")
	require.Equal(t, http.StatusOK, w.Code)
	body := w.Body.String()
	for _, name := range []string{"empty.md", "dangling.md", "pipe.md", "big.md"} {
		assert.Regexp(t, `<li>`+regexp.QuoteMeta(name)+`: [^<]+</li>`, body, "%s is listed as left out", name)
	}
	if os.Geteuid() != 0 { // root reads a file of mode 0
		assert.Regexp(t, `<li>secret.md: [^<]+</li>`, body)
	}
	assert.Contains(t, body, `<a class="docid" href="/?`)
	assert.Contains(t, body, `>good.md</a>`)
	assert.Contains(t, body, `<mark>leave</mark>`)

	empty := t.TempDir()
	require.NoError(t, os.Symlink(filepath.Join(empty, "gone.md"), filepath.Join(empty, "dangling.md")))
	err := run(context.Background(), []string{"-dir", empty, "-addr", "127.0.0.1:0"}, io.Discard, io.Discard, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no file with text under "+empty+" (1 left out)")
}

// TestIndexKept: settings of the query reuse the index; a chunk size
// builds another, once.
func TestIndexKept(t *testing.T) {
	a := newTestApp(t, testOptions())
	first := a.indexes.get(defaults().Index)
	for _, q := range []string{"q=hotel", "q=hotel&keywords=0", "q=hotel&widen=windows&window=2", "q=hotel&budget=50&passages=2"} {
		require.Equal(t, http.StatusOK, get(a, q).Code, q)
	}
	assert.Same(t, first, a.indexes.get(defaults().Index))
	assert.Len(t, a.indexes.byKey, 1, "no setting of the query built an index")

	require.Equal(t, http.StatusOK, get(a, "q=hotel&chunk=100").Code)
	assert.Len(t, a.indexes.byKey, 2)
	require.Equal(t, http.StatusOK, get(a, "q=hotel&chunk=100&keywords=0").Code)
	assert.Len(t, a.indexes.byKey, 2)
}

// TestScreenshotFile: the README's screenshot is a PNG under 200 KB.
func TestScreenshotFile(t *testing.T) {
	b, err := os.ReadFile("screenshot.png")
	require.NoError(t, err)
	assert.Less(t, len(b), 200<<10)
	_, err = png.DecodeConfig(bytes.NewReader(b))
	assert.NoError(t, err)
}

// TestIndexesEvicted: at most maxIndexes indexes are kept, the oldest
// forgotten first, and a forgotten one is built again when asked for.
func TestIndexesEvicted(t *testing.T) {
	a := newTestApp(t, testOptions())
	for n := range maxIndexes + 1 {
		require.Equal(t, http.StatusOK, get(a, fmt.Sprintf("q=hotel&chunk=%d", 60+n)).Code)
	}
	assert.Len(t, a.indexes.byKey, maxIndexes)
	assert.NotContains(t, a.indexes.byKey, defaults().Index, "the first index, the oldest, is forgotten")
	require.Equal(t, http.StatusOK, get(a, "q=hotel").Code)
	assert.Contains(t, a.indexes.byKey, defaults().Index)
}

// TestWindows: windows of no chunks are the hits alone; wider ones hold
// their neighbours within the section.
func TestWindows(t *testing.T) {
	a := newTestApp(t, testOptions())
	units := regexp.MustCompile(`<dt>units</dt><dd>([^<]+)</dd>`)
	q := "q=" + url.QueryEscape("What is the nightly hotel limit for staff of the Singapore office?") + "&widen=windows"

	w := get(a, q+"&window=0")
	require.Equal(t, http.StatusOK, w.Code, alert(w.Body.String()))
	alone := units.FindAllStringSubmatch(w.Body.String(), -1)
	require.NotEmpty(t, alone)
	for _, m := range alone {
		assert.Regexp(t, `^chunk \d+$`, m[1])
	}

	w = get(a, q+"&window=2")
	require.Equal(t, http.StatusOK, w.Code, alert(w.Body.String()))
	wide := units.FindAllStringSubmatch(w.Body.String(), -1)
	spans := 0
	for _, m := range wide {
		if strings.HasPrefix(m[1], "chunks ") {
			spans++
		}
	}
	assert.Positive(t, spans, "some window holds its hit's neighbours (inside its section): %v", wide)
}

// TestDirFormats: -dir reads every format ragkit reads, PDF included (its
// engine started for the folder's PDF): a DOCX, an XLSX and a PDF are
// each served as a document, with its title, and their words are found;
// a PDF the engine cannot read is listed as left out, with its reason.
// The files are copies of the repository's own test documents:
//
//	cp ../../formats/testdata/handbook.docx ../../formats/testdata/station.xlsx testdata/formats/
//	cp ../../formats/pdf/testdata/table.pdf testdata/formats/
func TestDirFormats(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"handbook.docx", "station.xlsx", "table.pdf"} {
		data, err := os.ReadFile(filepath.Join("testdata/formats", name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	// A PDF the engine cannot read is reported, not fatal.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "broken.pdf"), []byte("%PDF-1.7\n1 0 obj <<"), 0o644))
	o := testOptions()
	o.dir = dir
	a := newTestApp(t, o)
	require.Len(t, a.corpus.skipped, 1)
	assert.True(t, strings.HasPrefix(a.corpus.skipped[0], "broken.pdf: "), a.corpus.skipped[0])
	assert.Contains(t, get(a, "q=stove").Body.String(), "<li>broken.pdf: ", "the page lists the PDF left out")
	var ids []string
	for _, d := range a.corpus.docs {
		ids = append(ids, d.ID)
	}
	require.ElementsMatch(t, []string{"handbook.docx", "station.xlsx", "table.pdf"}, ids)

	for _, tt := range []struct{ doc, title, q, text string }{
		{"handbook.docx", "Field Station Handbook", "wood stove mess hall", "Wood stove"},
		{"station.xlsx", "Kestrel Ridge station records", "species count confirmed", "Species"},
		{"table.pdf", "Rooms at the Pension Bertolini", "which room had Miss Lavish", "Miss Lavish"},
	} {
		w := get(a, "doc="+tt.doc+"&q="+url.QueryEscape(tt.q))
		require.Equal(t, http.StatusOK, w.Code, tt.doc)
		body := w.Body.String()
		require.Empty(t, alert(body), tt.doc)
		assert.Contains(t, body, `>`+tt.doc+`</a>`, "%s is among the passages", tt.doc)
		assert.Contains(t, body, html.EscapeString(tt.title), "%s shows its title", tt.doc)
		assert.Contains(t, body, tt.text, tt.doc)
	}
}
