package main

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/budget"
	"github.com/ragkit/ragkit/examples/quickstart/corpus"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/window"
)

// browserPath finds Chromium: $RAGKIT_CHROMIUM (which .ci/run sets), or
// one on the PATH. Without one the browser tests skip, except under CI,
// where they fail.
func browserPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("RAGKIT_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	noBrowser(t, "no Chromium found: set RAGKIT_CHROMIUM or install chromium")
	return ""
}

// noBrowser fails the test under CI, which must run it, and skips it
// elsewhere.
func noBrowser(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// newBrowser starts headless Chromium with a fresh profile and without the
// background connections that a closed network refuses.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(browserPath(t)),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancelTime(); cancelCtx(); cancelAlloc() })
	// Start the browser now, so that one that cannot start says so here.
	if err := chromedp.Do(ctx); err != nil {
		noBrowser(t, fmt.Sprintf("Chromium did not start: %v", err))
	}
	return ctx
}

// shown is what the page shows of an answer, read from the page in the
// browser, or what it should show, from the library.
type shown struct {
	Passages []string // "doc score tokens status", best first
	Sections []string // "name tokens status"
	Items    []string // "#passage status"
	Tokens   string   // the prompt's exact token count
}

// readPage reads the page's passages and budget tables.
const readPage = `(() => {
  const t = (el, sel) => el.querySelector(sel).textContent.trim();
  return {
    Passages: [...document.querySelectorAll("#passage-list > li")].map(li =>
      [li.dataset.doc, t(li, ".score"), t(li, ".tokens"), t(li, ".pstatus")].join(" ")),
    Sections: [...document.querySelectorAll("#budget-table tbody tr")].map(tr =>
      [tr.dataset.section, t(tr, ".stok"), t(tr, ".sstatus")].join(" ")),
    Items: [...document.querySelectorAll("#items-table tbody tr")].map(tr =>
      tr.cells[0].textContent.trim() + " " + tr.cells[2].textContent.trim()),
    Tokens: t(document, "#prompt-tokens"),
  };
})()`

// library asks the library directly, over the page's index, for what the
// page should show for s: a Retriever's passages and the prompt the budget
// assembles from them.
func library(t *testing.T, a *app, s settings) shown {
	t.Helper()
	ix := a.indexes.get(s.Index)
	<-ix.done
	require.NoError(t, ix.err)
	x, err := window.NewExtractor(window.ExtractorConfig{Source: ix.store, Tokenizer: a.models.tokenizer, MaxUnits: s.Segment})
	require.NoError(t, err)
	cfg := retrieve.Config{Store: ix.store, Embedder: a.models.embedder, Passages: s.Passages, Widener: x}
	if !s.Keywords {
		cfg.Search = retrieve.Vector
	}
	r, err := retrieve.New(cfg)
	require.NoError(t, err)
	ps, err := r.Retrieve(context.Background(), s.Question)
	require.NoError(t, err)
	whole, err := retrieve.Items(ps, retrieve.ItemConfig{Label: retrieve.Citation})
	require.NoError(t, err)
	// The passages share the context's budget, less its heading's line.
	room := s.Budget - a.models.tokenizer.Count("Context:\n")
	items, err := retrieve.Items(ps, retrieve.ItemConfig{Label: retrieve.Citation, Room: room, Tokenizer: a.models.tokenizer})
	require.NoError(t, err)
	asm, err := budget.New(budget.Config{Tokenizer: a.models.tokenizer, Limit: 8192, Reserve: 1024})
	require.NoError(t, err)
	res, err := asm.Assemble(
		budget.Section{Name: "instructions", Required: true, Priority: 3, Items: []budget.Item{{Text: instructions}}},
		budget.Section{Name: "context", Priority: 1, MaxTokens: s.Budget, Strategy: budget.DropLowestRank, Cut: budget.CutEnd, Heading: "Context:", Items: items},
		budget.Section{Name: "question", Required: true, Priority: 2, Items: []budget.Item{{Text: "Question: " + s.Question}}},
	)
	require.NoError(t, err)
	var want shown
	ctxReport, _ := res.Section("context")
	for i, p := range ps {
		ir := ctxReport.Items[i]
		status := statusWord(ir.Status)
		want.Items = append(want.Items, fmt.Sprintf("#%d %s", i+1, status))
		switch {
		case ir.Status != budget.Dropped && items[i].Text != whole[i].Text:
			status = "cut to its share of the room"
		case ir.Status == budget.Truncated:
			status = "cut by the budget"
		}
		want.Passages = append(want.Passages, fmt.Sprintf("%s %.4f %d %s", p.DocID, p.Score, p.Tokens, status))
	}
	for _, sr := range res.Sections {
		want.Sections = append(want.Sections, fmt.Sprintf("%s %d %s", sr.Name, sr.Tokens, sectionStatus(sr)))
	}
	want.Tokens = fmt.Sprint(res.Tokens)
	return want
}

// newPage runs the steps, which lead to another page, and waits until
// that page is shown with its results: the old page is marked first, and
// the check asked again while the browser is between pages.
func newPage(steps ...chromedp.Action[chromedp.Void]) chromedp.Action[chromedp.Void] {
	const check = `!window.inspectorOld && document.readyState === "complete" && !!document.querySelector("#prompt-tokens")`
	wait := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		var err error
		for range 600 {
			var ok bool
			if ok, err = chromedp.Evaluate[bool](check)(ctx, tg); err == nil && ok {
				return nil
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
		}
		return fmt.Errorf("no new page shown (last error: %v)", err)
	})
	mark := chromedp.Evaluate[chromedp.Void](`window.inspectorOld = true`)
	return chromedp.Steps(append(append([]chromedp.Action[chromedp.Void]{mark}, steps...), wait)...)
}

func TestBrowser(t *testing.T) {
	ctx := newBrowser(t)
	a := newTestApp(t, testOptions())
	srv := httptest.NewServer(a)
	t.Cleanup(srv.Close)

	// Click an example question: the page shows what the library returns.
	s := defaults()
	s.Question = corpus.Questions[2] // the gross margin in Q2 2026
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS(`#q`)),
		newPage(chromedp.Click(chromedp.CSS(`fieldset.examples button:nth-of-type(3)`))),
	))
	got, err := chromedp.Run(ctx, chromedp.Evaluate[shown](readPage))
	require.NoError(t, err)
	want := library(t, a, s)
	require.NotEmpty(t, want.Passages)
	assert.Equal(t, want, got)
	assert.True(t, strings.HasPrefix(got.Passages[0], "report-2026-q2.md "), "the Q2 report answers: %v", got.Passages)
	q, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS(`#q`)))
	require.NoError(t, err)
	assert.Equal(t, s.Question, q, "the question box holds the example asked")
	checkScreenshot(t, ctx, "example")
	// The bars are drawn to scale (a style the page's policy blocked once
	// drew them all full).
	bars, err := chromedp.Run(ctx, chromedp.Evaluate[[][2]float64](`[...document.querySelectorAll("#budget-table svg.bar")].map(svg =>
		[Number(svg.dataset.pct), 100 * svg.querySelector(".fill").getBoundingClientRect().width / svg.querySelector(".track").getBoundingClientRect().width])`))
	require.NoError(t, err)
	require.Len(t, bars, 4, "a bar per section and the total")
	for _, b := range bars {
		assert.InDelta(t, b[0], b[1], 1, "a bar of %v%% is drawn %.1f%% long", b[0], b[1])
	}

	// A passage's document link shows that document, for the same question.
	require.NoError(t, chromedp.Do(ctx, newPage(chromedp.Click(chromedp.CSS(`#passage-list > li:nth-child(2) a.docid`)))))
	doc, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#doc-h .docname`)))
	require.NoError(t, err)
	assert.Equal(t, strings.Fields(got.Passages[1])[0], doc)
	again, err := chromedp.Run(ctx, chromedp.Evaluate[shown](readPage))
	require.NoError(t, err)
	assert.Equal(t, got, again)
	checkScreenshot(t, ctx, "document")

	// Untick keyword search with the mouse: the page follows.
	s.Keywords = false
	require.NoError(t, chromedp.Do(ctx, newPage(chromedp.Click(chromedp.CSS(`#keywords`)))))
	got, err = chromedp.Run(ctx, chromedp.Evaluate[shown](readPage))
	require.NoError(t, err)
	assert.Equal(t, library(t, a, s), got)

	// Set the context budget from the keyboard: type, then Tab away.
	s.Budget = 120
	require.NoError(t, chromedp.Do(ctx, newPage(
		chromedp.Focus(chromedp.CSS(`#budget`)),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("budget").select()`),
		chromedp.KeyEvent("120\t"),
	)))
	got, err = chromedp.Run(ctx, chromedp.Evaluate[shown](readPage))
	require.NoError(t, err)
	want = library(t, a, s)
	assert.Equal(t, want, got)
	assert.Contains(t, got.Items, "#"+fmt.Sprint(len(got.Passages))+" dropped", "a budget of 120 tokens drops the last passage")
	// Each cut passage says in words, as the browser renders them, what
	// survived of its hits.
	cutHits, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#passage-list > li")]
	  .filter(li => li.querySelector(".pstatus").innerText.startsWith("cut"))
	  .map(li => { const d = li.querySelector(".hitskept"); return d ? d.previousElementSibling.innerText + ": " + d.innerText : "none"; })`))
	require.NoError(t, err)
	require.NotEmpty(t, cutHits, "a budget of 120 tokens cuts a passage")
	for _, h := range cutHits {
		assert.Regexp(t, `^hits after the cut: chunk \d+: (kept|partly kept|lost)(, chunk \d+: (kept|partly kept|lost))*$`, h)
	}

	// A chunk size re-indexes: the document view follows.
	require.NoError(t, chromedp.Do(ctx, newPage(
		chromedp.Focus(chromedp.CSS(`#chunk`)),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("chunk").select()`),
		chromedp.KeyEvent("100\t"),
	)))
	caption, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`.hist figcaption`)))
	require.NoError(t, err)
	assert.Contains(t, caption, "against the most, 100 tokens")
	s.Index.MaxTokens = 100
	assert.Equal(t, library(t, a, s), must(chromedp.Run(ctx, chromedp.Evaluate[shown](readPage))))
}

// TestBrowserLayout: every control has a label, and the page fits a
// narrow window and a window at 200% zoom without scrolling sideways.
func TestBrowserLayout(t *testing.T) {
	ctx := newBrowser(t)
	a := newTestApp(t, testOptions())
	srv := httptest.NewServer(a)
	t.Cleanup(srv.Close)

	// From the keyboard alone: from the question box, Tab past the Ask
	// button to the second example, and press Enter.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL),
		chromedp.Focus(chromedp.CSS(`#q`)),
		newPage(chromedp.KeyEvent("\t\t\t\r")),
	))
	q, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS(`#q`)))
	require.NoError(t, err)
	assert.Equal(t, corpus.Questions[1], q)

	unlabelled, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("input:not([type=hidden]), select, textarea")]
		.filter(el => el.labels.length === 0).map(el => el.id || el.name)`))
	require.NoError(t, err)
	assert.Empty(t, unlabelled, "controls without a label")

	for _, width := range []int64{360, 640} { // a phone; 1280 pixels at 200%
		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(width, 800), chromedp.Reload()))
		overflow, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth - document.documentElement.clientWidth`))
		require.NoError(t, err)
		wide, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("body *")]
			.filter(el => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
			.map(el => el.tagName + "." + el.className + "#" + el.id)`))
		require.NoError(t, err)
		assert.LessOrEqual(t, overflow, 0, "at %d pixels the page scrolls sideways by %d; too wide: %v", width, overflow, wide)
	}
	checkScreenshot(t, ctx, "narrow")
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// checkScreenshot takes a screenshot into a temporary folder and fails
// unless it shows something: many colours, and most pixels unlike the
// first. $INSPECTOR_SCREENSHOT names a folder to keep it in.
func checkScreenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	dir := t.TempDir()
	if keep := os.Getenv("INSPECTOR_SCREENSHOT"); keep != "" {
		dir = keep
	}
	path := filepath.Join(dir, name+".png")
	require.NoError(t, os.WriteFile(path, shot, 0o644))
	img, err := png.Decode(bytes.NewReader(shot))
	require.NoError(t, err, "the screenshot %s is a PNG", path)
	b := img.Bounds()
	require.Positive(t, b.Dx()*b.Dy())
	bg := img.At(b.Min.X, b.Min.Y)
	colours := map[[4]uint32]bool{}
	differ, samples := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			c := img.At(x, y)
			r, g, bl, al := c.RGBA()
			colours[[4]uint32{r, g, bl, al}] = true
			if c != bg {
				differ++
			}
			samples++
		}
	}
	assert.Greater(t, len(colours), 16, "the screenshot %s has %d colours", path, len(colours))
	assert.Greater(t, differ*100, samples*3, "the screenshot %s is almost all one colour", path)
}

// TestBrowserAnswer: with a chat model, the page's script streams the
// answer into the page.
func TestBrowserAnswer(t *testing.T) {
	ctx := newBrowser(t)
	chat := newFakeChat(t)
	o := testOptions()
	o.baseURL, o.model, o.apiKey = chat.URL+"/v1", "tiny", "test-key"
	srv := httptest.NewServer(newTestApp(t, o))
	t.Cleanup(srv.Close)

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL),
		newPage(chromedp.Click(chromedp.CSS(`fieldset.examples button:nth-of-type(3)`))),
	))
	answer, err := chromedp.Run(ctx, chromedp.Poll[string](`document.getElementById("answer").getAttribute("aria-busy") === "false" && document.getElementById("answer").textContent`))
	require.NoError(t, err)
	assert.Equal(t, "Gross margin was 43.0 percent [report-2026-q2.md].", answer)
}
