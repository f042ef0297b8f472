package main

import (
	"fmt"
	"io"
	"log/slog"

	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/llm/openai"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
)

// encoding is the tokenizer of chunks, headers and the prompt.
const encoding = "cl100k_base"

// models are the tokenizer, embedder and summarizer of the page, and the
// chat client when a model answers: offline defaults unless flags name
// models.
type models struct {
	tokenizer    tokencount.Tokenizer
	embedder     vectorstore.Embedder
	embedderName string // part of ingest's keys: another model means other vectors
	// embedTokens is the most tokens of a header and its chunk together;
	// 0 for the offline embedder, which has no limit.
	embedTokens int
	summarizer  contextheader.Summarizer
	summaryName string
	chat        *openai.Client // nil: no answers
	chatModel   string
}

func newModels(o options, stderr io.Writer) (*models, error) {
	tok, err := tokencount.Encoding(encoding)
	if err != nil {
		return nil, err
	}
	lex := &lexical.Embedder{}
	m := &models{
		tokenizer: tok, embedder: lex, embedderName: fmt.Sprintf("lexical-%d", lex.Dimension()),
		summarizer: &contextheader.Extractive{}, summaryName: "extractive",
	}
	if o.model == "" && o.embedModel == "" {
		return m, nil
	}
	client, err := openai.New(openai.Config{
		BaseURL: o.baseURL, APIKey: o.apiKey, Timeout: o.timeout, Deadline: o.timeout,
		Logger: slog.New(slog.NewTextHandler(stderr, nil)),
	})
	if err != nil {
		return nil, err
	}
	if o.embedModel != "" {
		// The model's own tokenizer is unknown: keep a quarter of its
		// limit to spare, as the quickstart does.
		m.embedTokens = o.embedMaxTokens - o.embedMaxTokens/4
		e, err := openai.NewEmbedder(openai.EmbedderConfig{Client: client, Model: o.embedModel, Tokenizer: tok, MaxTextTokens: m.embedTokens})
		if err != nil {
			return nil, err
		}
		m.embedder, m.embedderName = e, "openai:"+o.embedModel
	}
	if o.model != "" {
		s, err := openai.NewSummarizer(openai.SummarizerConfig{Client: client, Model: o.model})
		if err != nil {
			return nil, err
		}
		m.summarizer, m.summaryName = s, "openai:"+o.model
		m.chat, m.chatModel = client, o.model
	}
	return m, nil
}
