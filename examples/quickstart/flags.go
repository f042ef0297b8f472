package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// options are the program's flags.
type options struct {
	question    string
	interactive bool
	dir         string
	maxTokens   int
	budget      int
	k           int
	index       string
	baseURL     string
	model       string
	embedModel  string
	showPrompt  bool
}

// errUsage reports flags that cannot work together or values out of range.
var errUsage = errors.New("bad flags")

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("quickstart", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.question, "q", "", "a question to answer (default: the built-in questions)")
	fs.BoolVar(&o.interactive, "i", false, "ask questions interactively, one per line, until end of input")
	fs.StringVar(&o.dir, "dir", "", "index the .md and .txt files under this folder instead of the embedded corpus")
	fs.IntVar(&o.maxTokens, "max-tokens", 48, "the most tokens of a chunk")
	fs.IntVar(&o.budget, "budget", 300, "the most tokens of retrieved context in the prompt")
	fs.IntVar(&o.k, "k", 6, "how many chunks to retrieve per question, before they are joined into segments")
	fs.BoolVar(&o.showPrompt, "prompt", false, "print each assembled prompt")
	fs.StringVar(&o.index, "index", "", "keep the index (and a model's summaries) in this file: the next run embeds and summarises only what changed")
	fs.StringVar(&o.baseURL, "openai-base-url", "", "an OpenAI-compatible API, such as http://localhost:11434/v1 (Ollama)")
	fs.StringVar(&o.model, "model", "", "chat model for summaries and answers, such as llama3.2 (needs -openai-base-url or $OPENAI_API_KEY)")
	fs.StringVar(&o.embedModel, "embed-model", "", "embedding model, such as nomic-embed-text (default: the offline lexical embedder)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: quickstart [flags]\n\nRuns ragkit's flow on an embedded corpus (or -dir), offline unless a model is named.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	switch {
	case fs.NArg() > 0:
		return o, fmt.Errorf("%w: unexpected argument %q (a question goes after -q)", errUsage, fs.Arg(0))
	case o.maxTokens < 16:
		return o, fmt.Errorf("%w: -max-tokens must be at least 16, got %d", errUsage, o.maxTokens)
	case o.budget < 1:
		return o, fmt.Errorf("%w: -budget must be positive, got %d", errUsage, o.budget)
	case o.k < 1:
		return o, fmt.Errorf("%w: -k must be positive, got %d", errUsage, o.k)
	case o.baseURL != "" && o.model == "" && o.embedModel == "":
		return o, fmt.Errorf("%w: -openai-base-url needs -model, -embed-model or both", errUsage)
	case o.interactive && o.question != "":
		return o, fmt.Errorf("%w: -q and -i do not go together", errUsage)
	}
	return o, nil
}
