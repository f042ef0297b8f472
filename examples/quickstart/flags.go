package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"
)

// options are the program's flags.
type options struct {
	question        string
	interactive     bool
	turns           int
	dir             string
	maxFileMiB      int
	maxTokens       int
	budget          int
	k               int
	perDoc          int
	index           string
	baseURL         string
	apiKey          string
	model           string
	embedModel      string
	embedMaxTokens  int
	timeout         time.Duration
	summaryFallback bool
	showPrompt      bool
}

// errUsage reports flags that cannot be parsed, cannot work together or
// have values out of range; the usage has been printed already.
var errUsage = errors.New("bad flags")

// usageText opens the usage message.
const usageText = `usage: quickstart [flags]

Runs ragkit's flow on an embedded corpus (or -dir), offline unless a model is named.

With -model or -embed-model it talks to an OpenAI-compatible API: OpenAI, or
the server -openai-base-url names (Ollama, vLLM, llama.cpp, LM Studio). The
API key is -api-key, or else $OPENAI_API_KEY, and it is sent to whichever
server that is; local servers need none. Retries are reported on stderr.

flags:`

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("quickstart", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.question, "q", "", "a question to answer (default: the built-in questions)")
	fs.BoolVar(&o.interactive, "i", false, "ask questions interactively, one per line, until end of input;\na line \"/clear\" forgets the conversation so far")
	fs.IntVar(&o.turns, "turns", 4, "with -i, how many earlier turns the conversation keeps: they go into the prompt and,\nwith -model, a follow-up (\"and in Toronto?\") is condensed with them into a standalone question (0: none)")
	fs.StringVar(&o.dir, "dir", "", "index the Markdown and .txt files under this folder instead of the embedded corpus\n(hidden, dependency and build folders are skipped; every file left out is reported)")
	fs.IntVar(&o.maxFileMiB, "max-file-mib", 10, "the largest file -dir loads, in MiB; larger ones are reported and skipped before any work")
	fs.IntVar(&o.maxTokens, "max-tokens", 48, "the most tokens of a chunk")
	fs.IntVar(&o.budget, "budget", 300, "the most tokens of retrieved context in the prompt")
	fs.IntVar(&o.k, "k", 6, "how many hits each search returns before they are widened into passages;\na few suit a small folder (0: the Retriever's default, for large indexes)")
	fs.IntVar(&o.perDoc, "per-doc", 0, "the most passages of one document in a prompt, so that one large document does not crowd out the others (0: no cap)")
	fs.BoolVar(&o.showPrompt, "prompt", false, "print each assembled prompt")
	fs.StringVar(&o.index, "index", "", "keep the index (and a model's summaries) in this file: the next run embeds and summarises only what changed")
	fs.StringVar(&o.baseURL, "openai-base-url", "", "an OpenAI-compatible API, such as http://localhost:11434/v1 (Ollama)\n(default: $OPENAI_BASE_URL, or OpenAI's)")
	fs.StringVar(&o.apiKey, "api-key", "", "the API key (default: $OPENAI_API_KEY, sent to whatever server -openai-base-url names)")
	fs.StringVar(&o.model, "model", "", "chat model for summaries and answers, such as llama3.2")
	fs.StringVar(&o.embedModel, "embed-model", "", "embedding model, such as nomic-embed-text (default: the offline lexical embedder)")
	fs.IntVar(&o.embedMaxTokens, "embed-max-tokens", 2048, "the embedding model's input limit in its own tokens: a chunk and its header must fit in it")
	fs.DurationVar(&o.timeout, "timeout", time.Minute, "the longest one request to the model may take, retries included;\nfor a streamed answer, the longest wait for its start and each pause in it")
	fs.BoolVar(&o.summaryFallback, "summary-fallback", true, "when the model fails to summarise a document, warn and use the offline extractive summary;\n-summary-fallback=false makes such a failure end the run")
	fs.Usage = func() {
		fmt.Fprintln(stderr, usageText)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, fmt.Errorf("%w: %w", errUsage, err) // flag printed the error and the usage
	}
	if err := o.check(fs.Args()); err != nil {
		fmt.Fprintln(stderr, "quickstart:", err)
		fs.Usage()
		return o, fmt.Errorf("%w: %w", errUsage, err)
	}
	return o, nil
}

// check reports values out of range and flags that do not go together.
func (o options) check(rest []string) error {
	switch {
	case len(rest) > 0:
		return fmt.Errorf("unexpected argument %q (a question goes after -q)", rest[0])
	case o.maxTokens < 16:
		return fmt.Errorf("-max-tokens must be at least 16, got %d", o.maxTokens)
	case o.budget < 1:
		return fmt.Errorf("-budget must be positive, got %d", o.budget)
	case o.turns < 0:
		return fmt.Errorf("-turns must not be negative, got %d", o.turns)
	case o.perDoc < 0:
		return fmt.Errorf("-per-doc must not be negative, got %d", o.perDoc)
	case o.k < 0:
		return fmt.Errorf("-k must not be negative, got %d", o.k)
	case o.maxFileMiB < 1:
		return fmt.Errorf("-max-file-mib must be positive, got %d", o.maxFileMiB)
	case o.embedMaxTokens < 1:
		return fmt.Errorf("-embed-max-tokens must be positive, got %d", o.embedMaxTokens)
	case o.timeout <= 0:
		return fmt.Errorf("-timeout must be positive, got %v", o.timeout)
	case o.baseURL != "" && o.model == "" && o.embedModel == "":
		return errors.New("-openai-base-url needs -model, -embed-model or both")
	case o.interactive && o.question != "":
		return errors.New("-q and -i do not go together")
	}
	return nil
}
