package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"time"
)

// options are the program's flags.
type options struct {
	addr           string
	dir            string
	maxFileMiB     int
	baseURL        string
	apiKey         string
	model          string
	embedModel     string
	embedMaxTokens int
	timeout        time.Duration
}

// errUsage reports flags that cannot be parsed or have values out of
// range; the usage has been printed already.
var errUsage = errors.New("bad flags")

const usageText = `usage: inspector [flags]

Serves a page on a loopback address that shows what ragkit does with a
question: the passages retrieved, the prompt's token budget, the assembled
prompt, and how each document was cut into chunks. The corpus is the
quickstart's (embedded) unless -dir names a folder.

With -model or -embed-model it talks to an OpenAI-compatible API (OpenAI, or
the server -openai-base-url names: Ollama, vLLM, llama.cpp, LM Studio); with
-model the page streams the model's answer. The API key is -api-key, or else
$OPENAI_API_KEY, sent to whichever server that is.

flags:`

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("inspector", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:7331", "the loopback address to serve on (port 0 picks a free one)")
	fs.StringVar(&o.dir, "dir", "", "index the files under this folder, in every format ragkit reads (Markdown, text, HTML, DOCX, XLSX, PDF, CSV, JSON, man pages, code), instead of the embedded corpus")
	fs.IntVar(&o.maxFileMiB, "max-file-mib", 10, "the largest file -dir loads, in MiB; larger ones are reported and skipped")
	fs.StringVar(&o.baseURL, "openai-base-url", "", "an OpenAI-compatible API, such as http://localhost:11434/v1 (Ollama)\n(default: $OPENAI_BASE_URL, or OpenAI's)")
	fs.StringVar(&o.apiKey, "api-key", "", "the API key (default: $OPENAI_API_KEY, sent to whatever server -openai-base-url names)")
	fs.StringVar(&o.model, "model", "", "chat model for summaries and streamed answers, such as llama3.2")
	fs.StringVar(&o.embedModel, "embed-model", "", "embedding model, such as nomic-embed-text (default: the offline lexical embedder)")
	fs.IntVar(&o.embedMaxTokens, "embed-max-tokens", 2048, "the embedding model's input limit in its own tokens")
	fs.DurationVar(&o.timeout, "timeout", time.Minute, "the longest one request to the model may take, retries included")
	fs.Usage = func() {
		fmt.Fprintln(stderr, usageText)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, fmt.Errorf("%w: %w", errUsage, err)
	}
	if err := o.check(fs.Args()); err != nil {
		fmt.Fprintln(stderr, "inspector:", err)
		fs.Usage()
		return o, fmt.Errorf("%w: %w", errUsage, err)
	}
	return o, nil
}

// check reports values out of range and flags that do not go together.
func (o options) check(rest []string) error {
	switch {
	case len(rest) > 0:
		return fmt.Errorf("unexpected argument %q", rest[0])
	case o.maxFileMiB < 1:
		return fmt.Errorf("-max-file-mib must be positive, got %d", o.maxFileMiB)
	case o.embedMaxTokens < 1:
		return fmt.Errorf("-embed-max-tokens must be positive, got %d", o.embedMaxTokens)
	case o.timeout <= 0:
		return fmt.Errorf("-timeout must be positive, got %v", o.timeout)
	case o.baseURL != "" && o.model == "" && o.embedModel == "":
		return errors.New("-openai-base-url needs -model, -embed-model or both")
	}
	return checkLoopback(o.addr)
}

// checkLoopback refuses an address other machines could reach: the page
// has no authentication, and it can spend the API key.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-addr %q: %v", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-addr %q is not a loopback address (use 127.0.0.1 or localhost): the page has no authentication", addr)
	}
	return nil
}
