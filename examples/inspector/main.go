// Command inspector serves a web page that shows what ragkit does with a
// question: the passages retrieved for it, best first, with the question's
// words marked; the prompt's token budget drawn as bars, with what was cut
// or dropped; the assembled prompt with its exact token count; and how a
// document was cut into chunks, with their headers and a histogram of
// their sizes. Controls re-run the question with other settings; the index
// is kept in memory and rebuilt only when a setting of the index changes.
//
//	cd examples/inspector && go run .
//	go run . -dir ~/notes
//	go run . -openai-base-url http://localhost:11434/v1 -model llama3.2 -embed-model nomic-embed-text
//
// It serves the quickstart's corpus (embedded through package
// github.com/ragkit/ragkit/examples/quickstart/corpus, so that both
// programs read the same files) unless -dir names a folder, on a loopback
// address only. A folder is read in every format ragkit reads: the
// loader's (Markdown, text, CSV, JSON, man pages, source code), package
// formats' (HTML, DOCX, XLSX) and PDF through package formats/pdf, whose
// engine starts only for a folder with a PDF; the files left out are
// listed with their reasons. With -model the page streams the model's
// answer.
//
// The passages share the context's budget (retrieve.ItemConfig.Room): one
// long passage is cut to its share rather than pushing the next one out.
// For each cut passage the page says whether it was cut to its share or
// by the budget, and what survived of each of its hits (kept, partly kept
// or lost), from the budget's report of the passage's protected spans.
//
// The page has no authentication, so it serves only requests addressed to
// localhost (not a rebound name) and made by its own pages or the user: a
// request that a page of another site or origin makes (its Sec-Fetch-Site
// or Origin says so) is refused with 403 before it can start an index
// build, embeddings or a chat call. At most four indexes are kept and two
// built at once; the build of an index dropped for newer settings is
// cancelled.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil)
	stop()
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "inspector:", err)
		os.Exit(1)
	}
}

// run is the whole program; it serves until ctx is cancelled. ready, if
// not nil, receives the page's address once it is served (for tests).
func run(ctx context.Context, args []string, stdout, stderr io.Writer, ready chan<- string) error {
	start := time.Now()
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	m, err := newModels(o, stderr)
	if err != nil {
		return err
	}
	a, err := newApp(ctx, o, m)
	if err != nil {
		return err
	}
	for _, s := range a.corpus.skipped {
		fmt.Fprintln(stderr, "skipping", s)
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: a, ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 64 << 10}
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(stdout, "ragkit inspector: %d documents from %s\nserving %s (ready in %v; Ctrl-C stops)\n",
		len(a.corpus.docs), a.corpus.name, url, time.Since(start).Round(time.Millisecond))
	if ready != nil {
		ready <- url
	}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
