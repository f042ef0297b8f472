package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/llm/openai"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
)

// headerTokens caps each chunk's contextual header.
const headerTokens = 64

// modelFlags are the flags naming the models of index and ask.
type modelFlags struct {
	baseURL, apiKey   string
	model, embedModel string
	embedMaxTokens    int
	timeout           time.Duration
}

func (f *modelFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.baseURL, "openai-base-url", "", "an OpenAI-compatible API, such as http://localhost:11434/v1 (Ollama)\n(default: $OPENAI_BASE_URL, or OpenAI's)")
	fs.StringVar(&f.apiKey, "api-key", "", "the API key (default: $OPENAI_API_KEY, sent to whatever server -openai-base-url names)")
	fs.StringVar(&f.model, "model", "", "chat model for summaries and answers, such as llama3.2 (default: none: extractive summaries, no answer)")
	fs.StringVar(&f.embedModel, "embed-model", "", "embedding model, such as nomic-embed-text (default: the offline lexical embedder)")
	fs.IntVar(&f.embedMaxTokens, "embed-max-tokens", 2048, "the embedding model's input limit in its own tokens: a chunk and its header must fit in it")
	fs.DurationVar(&f.timeout, "timeout", time.Minute, "the longest one request to the model may take, retries included")
}

func (f *modelFlags) check() error {
	switch {
	case f.embedMaxTokens < 1:
		return fmt.Errorf("-embed-max-tokens must be positive, got %d", f.embedMaxTokens)
	case f.timeout <= 0:
		return fmt.Errorf("-timeout must be positive, got %v", f.timeout)
	case f.baseURL != "" && f.model == "" && f.embedModel == "":
		return errors.New("-openai-base-url needs -model, -embed-model or both")
	}
	return nil
}

// models are the tokenizer, embedder and summarizer of a run, and the chat
// client when a model answers: offline defaults unless flags name models.
type models struct {
	tokenizer    tokencount.Tokenizer
	embedder     vectorstore.Embedder
	embedderName string // part of ingest's keys: another model means other vectors
	embedTokens  int    // the most tokens of a header and its chunk; 0: no limit
	summarizer   contextheader.Summarizer
	summaryName  string
	chat         *openai.Client // nil: no answers
	chatModel    string
}

// newModels makes the models the flags name, checking that chunks of
// maxTokens and their headers fit the embedding model.
func newModels(f modelFlags, maxTokens int, stderr io.Writer) (*models, error) {
	tok, err := tokencount.Encoding("cl100k_base")
	if err != nil {
		return nil, err
	}
	lex := &vectorstore.Lexical{}
	m := &models{tokenizer: tok, embedder: lex, embedderName: fmt.Sprintf("lexical-%d", lex.Dimension()),
		summarizer: &contextheader.Extractive{}, summaryName: "extractive"}
	if f.model == "" && f.embedModel == "" {
		return m, nil
	}
	client, err := openai.New(openai.Config{BaseURL: f.baseURL, APIKey: f.apiKey, Timeout: f.timeout, Deadline: f.timeout,
		Logger: slog.New(slog.NewTextHandler(stderr, nil))})
	if err != nil {
		return nil, err
	}
	if f.embedModel != "" {
		// The model's own tokenizer is unknown: a quarter of its limit is
		// kept to spare, as the quickstart does.
		m.embedTokens = f.embedMaxTokens - f.embedMaxTokens/4
		dec, err := contextheader.New(contextheader.Config{Tokenizer: tok, MaxHeaderTokens: headerTokens, MaxEmbedTokens: m.embedTokens})
		if err != nil {
			return nil, fmt.Errorf("-embed-max-tokens %d leaves no room for a chunk after its header", f.embedMaxTokens)
		}
		if most, err := dec.ChunkMaxTokens(); err != nil || maxTokens > most {
			return nil, fmt.Errorf("-max-tokens %d does not fit -embed-max-tokens %d with a header: lower -max-tokens to %d or less", maxTokens, f.embedMaxTokens, most)
		}
		e, err := openai.NewEmbedder(openai.EmbedderConfig{Client: client, Model: f.embedModel, Tokenizer: tok, MaxTextTokens: m.embedTokens})
		if err != nil {
			return nil, err
		}
		m.embedder, m.embedderName = e, "openai:"+f.embedModel
	}
	if f.model != "" {
		s, err := openai.NewSummarizer(openai.SummarizerConfig{Client: client, Model: f.model})
		if err != nil {
			return nil, err
		}
		m.summarizer, m.summaryName = s, "openai:"+f.model
		m.chat, m.chatModel = client, f.model
	}
	return m, nil
}
