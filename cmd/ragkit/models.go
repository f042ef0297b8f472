package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/ragkit/ragkit/bert"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/llm/openai"
	"github.com/ragkit/ragkit/retrieve"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
)

// headerTokens caps each chunk's contextual header.
const headerTokens = 64

// modelFlags are the flags naming the models of index and ask.
type modelFlags struct {
	baseURL, apiKey   string
	model, embedModel string
	embedMaxTokens    int
	timeout           time.Duration
	// embedModelDir and rerankModelDir are Hugging Face model folders
	// run in process by package bert.
	embedModelDir, rerankModelDir string
}

func (f *modelFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.baseURL, "openai-base-url", "", "an OpenAI-compatible API, such as http://localhost:11434/v1 (Ollama)\n(default: $OPENAI_BASE_URL, or OpenAI's)")
	fs.StringVar(&f.apiKey, "api-key", "", "the API key (default: $OPENAI_API_KEY, sent to whatever server -openai-base-url names)")
	fs.StringVar(&f.model, "model", "", "chat model for summaries and answers, such as llama3.2 (default: none: extractive summaries, no answer)")
	fs.StringVar(&f.embedModel, "embed-model", "", "embedding model, such as nomic-embed-text (default: the offline lexical embedder)")
	fs.IntVar(&f.embedMaxTokens, "embed-max-tokens", 2048, "the embedding model's input limit in its own tokens: a chunk and its header must fit in it")
	fs.DurationVar(&f.timeout, "timeout", time.Minute, "the longest one request to the model may take, retries included")
	fs.StringVar(&f.embedModelDir, "embed-model-dir", "", "a BERT-family embedding model's folder (all-MiniLM, bge, e5, gte), run in process and offline;\n-max-tokens then counts the model's own tokens")
	fs.StringVar(&f.rerankModelDir, "rerank-model-dir", "", "a BERT cross-encoder's folder (ms-marco MiniLM), run in process to rerank the passages")
}

func (f *modelFlags) check() error {
	switch {
	case f.embedMaxTokens < 1:
		return fmt.Errorf("-embed-max-tokens must be positive, got %d", f.embedMaxTokens)
	case f.timeout <= 0:
		return fmt.Errorf("-timeout must be positive, got %v", f.timeout)
	case f.baseURL != "" && f.model == "" && f.embedModel == "":
		return errors.New("-openai-base-url needs -model, -embed-model or both")
	case f.embedModel != "" && f.embedModelDir != "":
		return errors.New("-embed-model and -embed-model-dir do not go together")
	}
	return nil
}

// models are the tokenizer, embedder and summarizer of a run, and the chat
// client when a model answers: offline defaults unless flags name models.
type models struct {
	tokenizer tokencount.Tokenizer
	// chunkTokenizer counts chunks and their headers: the embedding
	// model's own tokenizer where it is known, else tokenizer.
	chunkTokenizer tokencount.Tokenizer
	embedder       vectorstore.Embedder
	embedderName   string // part of ingest's keys: another model means other vectors
	embedTokens    int    // the most tokens of a header and its chunk; 0: no limit
	summarizer     contextheader.Summarizer
	summaryName    string
	chat           *openai.Client // nil: no answers
	chatModel      string
	reranker       retrieve.Reranker // nil: none
}

// newModels makes the models the flags name, checking that chunks of
// maxTokens and their headers fit the embedding model.
func newModels(f modelFlags, maxTokens int, stderr io.Writer) (*models, error) {
	tok, err := tokencount.Encoding("cl100k_base")
	if err != nil {
		return nil, err
	}
	lex := &lexical.Embedder{}
	m := &models{tokenizer: tok, chunkTokenizer: tok, embedder: lex, embedderName: fmt.Sprintf("lexical-%d", lex.Dimension()),
		summarizer: &contextheader.Extractive{}, summaryName: "extractive"}
	if err := m.local(f, maxTokens); err != nil {
		return nil, err
	}
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

// local loads the in-process models the flags name: an embedding model,
// whose tokenizer then sizes the chunks and headers so that each fits the
// model's input exactly, and a cross-encoder.
func (m *models) local(f modelFlags, maxTokens int) error {
	if f.embedModelDir != "" {
		em, err := bert.Load(f.embedModelDir, bert.Options{})
		if err != nil {
			return fmt.Errorf("-embed-model-dir: %w", err)
		}
		// A chunk and its header are the input between [CLS] and [SEP],
		// which the model's Tokenizer does not count.
		m.embedTokens = em.MaxTokens() - 2
		dec, err := contextheader.New(contextheader.Config{Tokenizer: em.Tokenizer(), MaxHeaderTokens: headerTokens, MaxEmbedTokens: m.embedTokens})
		if err != nil {
			return fmt.Errorf("-embed-model-dir: the model's %d tokens leave no room for a chunk after its header", em.MaxTokens())
		}
		if most, err := dec.ChunkMaxTokens(); err != nil || maxTokens > most {
			return fmt.Errorf("-max-tokens %d does not fit the model's %d tokens with a header: lower -max-tokens to %d or less", maxTokens, em.MaxTokens(), most)
		}
		abs, err := filepath.Abs(f.embedModelDir)
		if err != nil {
			return err
		}
		m.embedder, m.chunkTokenizer = em, em.Tokenizer()
		m.embedderName = fmt.Sprintf("bert:%s:%d", filepath.Base(abs), em.Dimensions())
	}
	if f.rerankModelDir != "" {
		rm, err := bert.Load(f.rerankModelDir, bert.Options{})
		if err != nil {
			return fmt.Errorf("-rerank-model-dir: %w", err)
		}
		if _, err := rm.Rerank(context.Background(), "a", []string{"b"}); err != nil {
			return fmt.Errorf("-rerank-model-dir: %w", err)
		}
		m.reranker = rm
	}
	return nil
}
