// Command quickstart runs ragkit's main job from end to end on a corpus of
// company policies and reports embedded in the program, with no network and
// no model: it cuts the documents into balanced chunks, gives each chunk a
// contextual header, embeds and indexes them in the memory store, answers a
// few built-in questions by hybrid search, joins each document's hits into
// relevant segments, and assembles each question's prompt within a token
// budget, printing what it retrieved and the budget's report.
//
//	go run ./examples/quickstart
//	go run ./examples/quickstart -q "How much is the meal allowance in Toronto?"
//	go run ./examples/quickstart -dir ~/notes -index notes.idx -i
//
// With -openai-base-url, -model and -embed-model it uses a real model
// through package llm/openai (OpenAI, or a local server such as Ollama),
// and streams the model's answer to each question:
//
//	go run ./examples/quickstart -openai-base-url http://localhost:11434/v1 \
//		-model llama3.2 -embed-model nomic-embed-text
//
// -dir loads a folder's Markdown and .txt files with package loader, which
// skips hidden, dependency and build folders; every file left out (too
// large, empty, a dangling link or a loop) is reported before any work.
// With a model, -timeout bounds each request, retries included, and each
// pause of a streamed answer; a model that timed out gets no more
// requests (the other model does), and a document the model fails to
// summarise gets the offline summary instead, with a warning. go run ./examples/quickstart -h lists every flag.
//
// -i keeps a conversation of the last -turns turns (4 by default): they are
// shown before each question and go into the prompt, the oldest dropped
// first; with -model, a follow-up such as "and in Toronto?" is condensed
// with them into a standalone question (openai.Condenser as the
// Retriever's Rewriter) and the question searched is shown. Offline, a
// follow-up is searched as it is. A line "/clear" forgets the
// conversation.
//
// Results go to standard output, progress and notes to standard error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// exitCode returns the exit status for run's error, printing the error if
// it was not printed already: 0 for success and -h, 2 for bad flags (the
// usage is printed), 1 for any other failure.
func exitCode(err error, stderr io.Writer) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	}
	fmt.Fprintln(stderr, "quickstart:", err)
	return 1
}

// stdin is what -i reads questions from; tests replace it.
var stdin io.Reader = os.Stdin

// run is the whole program: main only adds the process around it, so that
// tests run exactly what a user runs.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	// Progress, retry logs and summary warnings come from several
	// goroutines: one lock keeps their writes whole, and a line that is
	// not progress starts on a line of its own.
	stderr = &progressWriter{w: stderr}
	opts, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	models, err := newModels(opts, stderr)
	if err != nil {
		return err
	}
	docs, err := loadDocuments(ctx, opts, stderr)
	if err != nil {
		return err
	}
	ix, err := buildIndex(ctx, opts, models, docs, stderr)
	if err != nil {
		return err
	}
	defer ix.store.Close()
	printDocuments(stdout, opts, models, ix)
	return askAll(ctx, opts, models, ix, stdout, stderr)
}

// progressWriter serialises writes to w, and keeps a progress line (a
// write that starts with \r, redrawn in place) apart from the rest: a
// write of anything else after one starts on a new line, so that a retry
// warning is not written over the progress.
type progressWriter struct {
	mu       sync.Mutex
	w        io.Writer
	progress bool // the last write was a progress line, not ended
}

func (l *progressWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(p) == 0 {
		return 0, nil
	}
	redraw := p[0] == '\r'
	if l.progress && !redraw && p[0] != '\n' {
		if _, err := io.WriteString(l.w, "\n"); err != nil {
			return 0, err
		}
	}
	l.progress = redraw && p[len(p)-1] != '\n'
	return l.w.Write(p)
}
