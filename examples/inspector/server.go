package main

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/ragkit/ragkit/llm/openai"
)

// The page's template, style sheet and script, embedded: the program
// needs no files and no network beyond the model's server.
//
//go:embed page.html static
var assets embed.FS

var page = template.Must(template.New("page.html").ParseFS(assets, "page.html"))

// buildWait is how long a request waits for an index before the page
// shows the build's progress instead, and reloads.
const buildWait = 700 * time.Millisecond

// An app is the inspector's server: the corpus, the models and the
// indexes built so far.
type app struct {
	corpus  *corpusInfo
	models  *models
	indexes *indexes
	mux     *http.ServeMux
}

// newApp loads the corpus and starts building the default index. ctx
// bounds the builds.
func newApp(ctx context.Context, o options, m *models) (*app, error) {
	c, err := loadCorpus(ctx, o)
	if err != nil {
		return nil, err
	}
	a := &app{corpus: c, models: m, indexes: &indexes{ctx: ctx, corpus: c, models: m, byKey: map[indexKey]*index{}}}
	a.indexes.get(defaults().Index)
	static, _ := fs.Sub(assets, "static") // a constant, valid name
	a.mux = http.NewServeMux()
	a.mux.HandleFunc("GET /{$}", a.servePage)
	a.mux.HandleFunc("GET /answer", a.serveAnswer)
	a.mux.HandleFunc("GET /progress", a.serveProgress)
	a.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	return a, nil
}

// ServeHTTP refuses requests addressed to another host name (a web page
// elsewhere rebinding its name to this machine) and requests a page of
// another site or origin makes (see sameOrigin), and sets the headers
// every response carries.
func (a *app) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !loopbackHost(r.Host) {
		http.Error(w, "inspector: only served to localhost", http.StatusForbidden)
		return
	}
	if !sameOrigin(r) {
		http.Error(w, "inspector: only served to its own pages (this request came from another site)", http.StatusForbidden)
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	a.mux.ServeHTTP(w, r)
}

// sameOrigin reports whether r may come from the inspector's own page or
// from the user: its Sec-Fetch-Site, if any, is same-origin or none (a
// typed address, a bookmark) and its Origin, if any, is the server's own.
// The Host check stops DNS rebinding, not this: an <img> or a form of a
// page elsewhere makes the browser send a GET to 127.0.0.1 itself, and
// every GET here may start work (an index build, embeddings, a chat call).
// A browser too old to send either header is let through, as a client
// that is not a browser is.
func sameOrigin(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default: // same-site (another port of localhost), cross-site
		return false
	}
	o := r.Header.Get("Origin")
	return o == "" || strings.EqualFold(o, "http://"+r.Host)
}

func loopbackHost(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// servePage renders the page for the request's settings.
func (a *app) servePage(w http.ResponseWriter, r *http.Request) {
	s, err := parseSettings(r.URL.Query())
	d := a.base(s)
	if err != nil {
		d.Err = strings.TrimPrefix(err.Error(), errBadRequest.Error()+": ")
		a.render(w, http.StatusBadRequest, d)
		return
	}
	ix := a.indexes.get(s.Index)
	select {
	case <-ix.done:
	case <-time.After(buildWait):
		st, _ := a.indexes.building()
		d.Building = fmt.Sprintf("Indexing with chunks of at most %d tokens: %d of %d documents, %d chunks embedded…",
			s.Index.MaxTokens, st.Documents+st.Failed, len(a.corpus.docs), st.Embedded)
		a.render(w, http.StatusOK, d)
		return
	case <-r.Context().Done():
		return
	}
	if ix.err != nil {
		d.Err = "indexing failed: " + ix.err.Error()
		a.render(w, http.StatusInternalServerError, d)
		return
	}
	d.Failed = ix.failed
	d.IndexTook = ix.took.Round(time.Millisecond).String()
	d.Chunks = len(ix.chunkTokens())
	code, err := a.fill(r.Context(), ix, s, &d)
	if err != nil {
		d.Err = err.Error()
	}
	a.render(w, code, d)
}

// base is the page's data that needs no index.
func (a *app) base(s settings) pageData {
	d := pageData{S: s, AnswerURL: "/answer?" + s.query(nil), Corpus: a.corpus.name, Documents: len(a.corpus.docs),
		Encoding: encoding, Embedder: a.models.embedderName, Questions: a.corpus.questions,
		Skipped: a.corpus.skipped, ChatModel: a.models.chatModel}
	for _, doc := range a.corpus.docs {
		d.DocIDs = append(d.DocIDs, doc.ID)
	}
	return d
}

// fill asks the question, if any, and describes the answer and the
// document shown.
func (a *app) fill(ctx context.Context, ix *index, s settings, d *pageData) (int, error) {
	var ans answer
	terms := questionTerms(s.Question)
	if s.Question != "" {
		var err error
		if ans, err = a.ask(ctx, ix, s); err != nil {
			return http.StatusInternalServerError, err
		}
		d.Passages = a.passageViews(s, ans, terms)
		d.Budget = a.budgetView(ans.prompt)
		d.Prompt = ans.prompt.Text
	}
	i := 0
	switch {
	case s.Doc != "":
		var ok bool
		if i, ok = a.corpus.byID[s.Doc]; !ok {
			return http.StatusBadRequest, fmt.Errorf("doc %q is not a document of %s", clip(s.Doc), a.corpus.name)
		}
	case len(ans.passages) > 0:
		i = a.corpus.byID[ans.passages[0].DocID]
	}
	dv, err := a.docView(ctx, ix, i, ans.passages, terms)
	if err != nil {
		return http.StatusInternalServerError, err
	}
	d.Doc = dv
	return http.StatusOK, nil
}

// render writes the page whole, or an error if the template fails.
func (a *app) render(w http.ResponseWriter, code int, d pageData) {
	var b bytes.Buffer
	if err := page.Execute(&b, d); err != nil {
		http.Error(w, "inspector: rendering the page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_, _ = b.WriteTo(w)
}

// serveProgress reports an index being built, as JSON, for the page's
// status line.
func (a *app) serveProgress(w http.ResponseWriter, _ *http.Request) {
	st, building := a.indexes.building()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"building": building, "documents": st.Documents + st.Failed, "total": len(a.corpus.docs), "embedded": st.Embedded,
	})
}

// serveAnswer streams the chat model's answer to the prompt of the
// request's settings, as plain text.
func (a *app) serveAnswer(w http.ResponseWriter, r *http.Request) {
	if a.models.chat == nil {
		http.Error(w, "inspector: no chat model (start the inspector with -model)", http.StatusNotFound)
		return
	}
	s, err := parseSettings(r.URL.Query())
	if err == nil && s.Question == "" {
		err = errors.New("the question is empty")
	}
	if err != nil {
		http.Error(w, "inspector: "+err.Error(), http.StatusBadRequest)
		return
	}
	ix := a.indexes.get(s.Index)
	select {
	case <-ix.done:
	case <-r.Context().Done():
		return
	}
	if ix.err != nil {
		http.Error(w, "inspector: indexing failed: "+ix.err.Error(), http.StatusInternalServerError)
		return
	}
	ans, err := a.ask(r.Context(), ix, s)
	if err != nil {
		http.Error(w, "inspector: "+err.Error(), http.StatusInternalServerError)
		return
	}
	msgs := make([]openai.Message, len(ans.prompt.Messages))
	for i, m := range ans.prompt.Messages {
		msgs[i] = openai.Message{Role: m.Role, Content: m.Content}
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	flusher, _ := w.(http.Flusher)
	_, err = a.models.chat.ChatStream(r.Context(), msgs, openai.ChatOptions{Model: a.models.chatModel}, func(delta string) error {
		_, err := io.WriteString(w, delta)
		if flusher != nil {
			flusher.Flush()
		}
		return err
	})
	if err != nil {
		// The status line is sent; say what went wrong in the text.
		fmt.Fprintf(w, "\n\n[the model failed: %v]", err)
	}
}
