// Command ragkit reads documents of every format ragkit parses, cuts them
// into chunks, counts their tokens, indexes a folder and answers questions
// from it, for use from the shell:
//
//	ragkit read [-json] FILE...          each file parsed, as Markdown or JSON lines
//	ragkit chunk [-max-tokens N] FILE    the chunks of a file
//	ragkit count [-model M] [FILE...]    token counts (standard input without FILE)
//	ragkit index -dir DIR -index FILE    index a folder into a file
//	ragkit ask -dir DIR -q QUESTION      the passages and prompt that answer a question
//	ragkit eval -dir DIR -questions FILE retrieval scored on a question set, searches compared
//
// It reads every format of the loader's own parsers (Markdown, plain text,
// CSV and TSV, JSON and JSON Lines, man pages, reStructuredText, AsciiDoc,
// Go source; gzipped files by their inner name) and of package formats
// (HTML, DOCX, XLSX): loader.Config{Parsers: formats.Parsers()}, and PDF
// through package formats/pdf (PDFium, started at the first PDF). Every
// file it leaves out is reported on standard error with the reason, with a
// count of such files by extension. ask works offline by default (a
// lexical embedder, extractive summaries, no answer); with -model and
// -embed-model it uses an OpenAI-compatible server (OpenAI, Ollama,
// vLLM...) through package llm/openai and streams the model's answer.
//
// From a clone of the repository:
//
//	go -C cmd/ragkit run . ask -dir ~/docs -q "How do I rotate the keys?"
//	go -C cmd/ragkit install .   # puts ragkit on PATH
//
// Results go to standard output, progress and reports to standard error.
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
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	pdfs.Close()
	os.Exit(exitCode(err, os.Stderr))
}

// errUsage reports a command line that cannot be run; the usage has been
// printed.
var errUsage = errors.New("bad usage")

// exitCode returns the exit status for run's error, printing the error if
// it was not printed already: 0 for success and -h, 2 for bad usage, 1
// for any other failure.
func exitCode(err error, stderr io.Writer) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	}
	fmt.Fprintln(stderr, "ragkit:", err)
	return 1
}

const usage = `usage: ragkit COMMAND [flags] [arguments]

Reads documents of every format (Markdown, text, HTML, DOCX, XLSX and the
loader's own parsers), chunks, counts, indexes and answers from them.

commands:
  read [-json] FILE...          print each file as parsed: Markdown, or one JSON object per line
  chunk [-max-tokens N] FILE    print the chunks of a file
  count [-model M] [FILE...]    count the tokens of files (of standard input without FILE)
  index -dir DIR -index FILE    index a folder into a file that ask -index reuses
  ask -dir DIR -q QUESTION      retrieve the passages that answer a question, print them and the prompt
  eval -dir DIR -questions FILE score retrieval on a question set: hit@k, MRR, nDCG, answer in the prompt

"ragkit COMMAND -h" lists a command's flags.`

// commands are the subcommands by name.
var commands = map[string]func(ctx context.Context, args []string, io ios) error{
	"read":  readCmd,
	"chunk": chunkCmd,
	"count": countCmd,
	"index": indexCmd,
	"ask":   askCmd,
	"eval":  evalCmd,
}

// ios are a command's standard streams.
type ios struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// run is the whole program: main only adds the process around it, so that
// tests run exactly what a user runs.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	// Progress and reports may come from several goroutines: one lock
	// keeps their writes whole.
	stderr = &lockedWriter{w: stderr}
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return fmt.Errorf("%w: no command", errUsage)
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(stdout, usage)
		return nil
	}
	cmd := commands[args[0]]
	if cmd == nil {
		fmt.Fprintf(stderr, "ragkit: unknown command %q\n%s\n", args[0], usage)
		return fmt.Errorf("%w: unknown command %q", errUsage, args[0])
	}
	return cmd(ctx, args[1:], ios{stdin: stdin, stdout: stdout, stderr: stderr})
}

// newFlags returns the flag set of a command, its errors and usage on
// stderr.
func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: ragkit %s %s\n\nflags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses a command's flags; check, if not nil, validates them and
// the arguments left.
func parse(fs *flag.FlagSet, args []string, check func(rest []string) error) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %w", errUsage, err) // flag printed the error and the usage
	}
	if check == nil {
		return nil
	}
	if err := check(fs.Args()); err != nil {
		fmt.Fprintf(fs.Output(), "ragkit %s: %v\n", fs.Name(), err)
		fs.Usage()
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	return nil
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
