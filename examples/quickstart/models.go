package main

import (
	"fmt"

	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/llm/openai"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
)

// models are the tokenizer, embedder and summarizer of a run, and the chat
// client when a model answers: offline defaults unless flags name models.
type models struct {
	tokenizer    tokencount.Tokenizer
	encoding     string
	embedder     vectorstore.Embedder
	embedderName string // part of ingest's keys: another model means other vectors
	summarizer   contextheader.Summarizer
	summaryName  string
	chat         *openai.Client // nil: no answers
	chatModel    string
}

func newModels(o options) (*models, error) {
	const encoding = "cl100k_base"
	tok, err := tokencount.Encoding(encoding)
	if err != nil {
		return nil, err
	}
	m := &models{tokenizer: tok, encoding: encoding}
	lex := &vectorstore.Lexical{}
	m.embedder, m.embedderName = lex, fmt.Sprintf("lexical-%d", lex.Dimension())
	m.summarizer, m.summaryName = &contextheader.Extractive{}, "extractive"
	if o.model == "" && o.embedModel == "" {
		return m, nil
	}
	client, err := openai.New(openai.Config{BaseURL: o.baseURL})
	if err != nil {
		return nil, err
	}
	if o.embedModel != "" {
		// Local servers often run embedding models with 2,048 tokens of
		// context; a header and a chunk take far less.
		e, err := openai.NewEmbedder(openai.EmbedderConfig{Client: client, Model: o.embedModel, MaxTextTokens: 2048})
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

// offline reports whether the run uses no model: its work takes moments.
func (m *models) offline() bool {
	_, lexical := m.embedder.(*vectorstore.Lexical)
	return lexical && m.chat == nil
}

// describe says in a few words what the run uses.
func (m *models) describe() string {
	emb := "embedder " + m.embedderName
	if l, ok := m.embedder.(*vectorstore.Lexical); ok {
		emb = fmt.Sprintf("lexical embedder, %d dimensions (offline)", l.Dimension())
	}
	return fmt.Sprintf("tokenizer %s; headers: title, section, %s summary; %s; memory store, hybrid search (vector + BM25)",
		m.encoding, m.summaryName, emb)
}
