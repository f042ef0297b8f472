package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/llm/openai"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/lexical"
)

// headerTokens caps each chunk's contextual header.
const headerTokens = 64

// models are the tokenizer, embedder and summarizer of a run, and the chat
// client when a model answers: offline defaults unless flags name models.
type models struct {
	tokenizer    tokencount.Tokenizer
	encoding     string
	embedder     vectorstore.Embedder
	embedderName string // part of ingest's keys: another model means other vectors
	// embedTokens is the most tokens of a header and its chunk together,
	// by the tokenizer's count; 0 for the offline embedder, which has no
	// limit.
	embedTokens int
	summarizer  contextheader.Summarizer
	summaryName string
	chat        *openai.Client // nil: no answers
	chatModel   string
}

func newModels(o options, stderr io.Writer) (*models, error) {
	const encoding = "cl100k_base"
	tok, err := tokencount.Encoding(encoding)
	if err != nil {
		return nil, err
	}
	m := &models{tokenizer: tok, encoding: encoding}
	lex := &lexical.Embedder{}
	m.embedder, m.embedderName = lex, fmt.Sprintf("lexical-%d", lex.Dimension())
	offline := &contextheader.Extractive{}
	m.summarizer, m.summaryName = offline, "extractive"
	if o.model == "" && o.embedModel == "" {
		return m, nil
	}
	client, err := openai.New(openai.Config{
		BaseURL: o.baseURL,
		// -api-key, or else the client's own default, $OPENAI_API_KEY,
		// whatever the base URL.
		APIKey: o.apiKey,
		// -timeout bounds one attempt and a whole call with its retries,
		// and each pause of a streamed answer; the limiters below also
		// stop later calls to a model once one timed out.
		Timeout:      o.timeout,
		Deadline:     o.timeout,
		StallTimeout: o.timeout,
		Logger:       retryLogger(stderr),
	})
	if err != nil {
		return nil, err
	}
	if o.embedModel != "" {
		limit := &limiter{timeout: o.timeout, model: o.embedModel}
		if err := m.useEmbedder(o, client, limit); err != nil {
			return nil, err
		}
	}
	if o.model != "" {
		s, err := openai.NewSummarizer(openai.SummarizerConfig{Client: client, Model: o.model})
		if err != nil {
			return nil, err
		}
		// A limiter of its own: a chat model that times out is no
		// reason to stop asking the embedding model.
		var sum contextheader.Summarizer = timedSummarizer{s, &limiter{timeout: o.timeout, model: o.model}}
		if o.summaryFallback {
			sum = &fallbackSummarizer{model: sum, offline: offline, name: o.model, stderr: stderr}
		}
		m.summarizer, m.summaryName = sum, "openai:"+o.model
		m.chat, m.chatModel = client, o.model
	}
	return m, nil
}

// useEmbedder makes the model's embedder, after checking that a chunk of
// -max-tokens and its header fit in the model's input limit.
//
// The model's own tokenizer is unknown here, so the limit is kept by
// cl100k_base counts with a quarter of -embed-max-tokens to spare:
// tokenizers with smaller vocabularies (BERT's WordPiece, as in
// nomic-embed-text) count more tokens on the same text. The headers are
// cut to fit the same count, and the embedder checks it exactly, so no
// text is refused halfway through a run.
func (m *models) useEmbedder(o options, client *openai.Client, limit *limiter) error {
	m.embedTokens = o.embedMaxTokens - o.embedMaxTokens/4
	dec, err := contextheader.New(contextheader.Config{Tokenizer: m.tokenizer, MaxHeaderTokens: headerTokens, MaxEmbedTokens: m.embedTokens})
	if err != nil {
		return fmt.Errorf("-embed-max-tokens %d leaves no room for a chunk after its header (up to %d tokens): raise it to the embedding model's input limit", o.embedMaxTokens, headerTokens)
	}
	most, err := dec.ChunkMaxTokens()
	if err != nil {
		return err
	}
	if o.maxTokens > most {
		return fmt.Errorf("-max-tokens %d does not fit -embed-max-tokens %d: a chunk, its header (up to %d tokens) and a margin for the embedding model's own tokenizer leave room for chunks of at most %d tokens; lower -max-tokens to %d or less, or raise -embed-max-tokens if the model takes more",
			o.maxTokens, o.embedMaxTokens, headerTokens, most, most)
	}
	e, err := openai.NewEmbedder(openai.EmbedderConfig{Client: client, Model: o.embedModel, Tokenizer: m.tokenizer, MaxTextTokens: m.embedTokens})
	if err != nil {
		return err
	}
	m.embedder, m.embedderName = timedEmbedder{e, limit}, "openai:"+o.embedModel
	return nil
}

// retryLogger writes the adapter's retries to stderr, one line each,
// without timestamps.
func retryLogger(stderr io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
}

// A limiter bounds each request to one model, retries included, by
// -timeout (the client's Timeout bounds one attempt only), and remembers
// that the model did not answer or could not be reached: its later
// requests fail at once, saying so, instead of each waiting as long, so a
// run against a hung server ends after about -timeout, not after one
// -timeout per batch. Each model has its own limiter: the chat model's
// timeout does not fail the embedding model's requests.
type limiter struct {
	timeout time.Duration
	model   string // named in the errors
	down    atomic.Pointer[error]
}

func (l *limiter) do(ctx context.Context, call func(context.Context) error) error {
	if err := l.down.Load(); err != nil {
		return fmt.Errorf("not sent, as an earlier request to %s failed: %w", l.model, *err)
	}
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	err := timeoutError(call(ctx), l.timeout, l.model)
	if errors.Is(err, openai.ErrTimeout) || errors.Is(err, openai.ErrConnection) {
		l.down.CompareAndSwap(nil, &err)
	}
	return err
}

// timedEmbedder and timedSummarizer make each call through a limiter;
// each call is one request (ingest's batches are smaller than the
// adapter's).
type timedEmbedder struct {
	e vectorstore.Embedder
	l *limiter
}

func (t timedEmbedder) Embed(ctx context.Context, texts []string) (v [][]float32, err error) {
	err = t.l.do(ctx, func(ctx context.Context) error {
		v, err = t.e.Embed(ctx, texts)
		return err
	})
	return v, err
}

type timedSummarizer struct {
	s contextheader.Summarizer
	l *limiter
}

func (t timedSummarizer) Summarize(ctx context.Context, text string) (s string, err error) {
	err = t.l.do(ctx, func(ctx context.Context) error {
		s, err = t.s.Summarize(ctx, text)
		return err
	})
	return s, err
}

// timeoutError names the model and -timeout in a deadline that a timed
// call ran out of.
func timeoutError(err error, d time.Duration, model string) error {
	if errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, openai.ErrTimeout) {
		return fmt.Errorf("%w: no reply from %s within -timeout %v, retries included", openai.ErrTimeout, model, d)
	}
	return err
}

// fallbackSummarizer asks the model for each document's summary and,
// where the model fails, warns on stderr and gives the offline extractive
// summary instead, so that one bad reply does not lose the run. As a
// contextheader.DocumentSummarizer it gets each document's text and renders
// the summary prompt itself; chunk contexts (Summarize) go to the model.
type fallbackSummarizer struct {
	model   contextheader.Summarizer
	offline *contextheader.Extractive
	name    string
	stderr  io.Writer // locked by run: warnings come from concurrent calls
}

func (f *fallbackSummarizer) Summarize(ctx context.Context, text string) (string, error) {
	return f.model.Summarize(ctx, text)
}

func (f *fallbackSummarizer) SummarizeDocument(ctx context.Context, doc string) (string, error) {
	prompt := strings.Replace(contextheader.DefaultSummaryPrompt, contextheader.DocumentPlaceholder, doc, 1)
	s, err := f.model.Summarize(ctx, prompt)
	if err == nil || ctx.Err() != nil {
		return s, err
	}
	fmt.Fprintf(f.stderr, "warning: %s could not summarise the document that starts %q, using the offline extractive summary: %v\n",
		f.name, opening(doc), err)
	return f.offline.SummarizeDocument(ctx, doc)
}

// opening returns the first words of a document, to name it in a warning.
func opening(doc string) string {
	words := strings.Fields(doc)
	return strings.Join(words[:min(len(words), 6)], " ")
}

// offline reports whether the run uses no model: its work takes moments.
func (m *models) offline() bool {
	_, lexical := m.embedder.(*lexical.Embedder)
	return lexical && m.chat == nil
}

// describe says in a few words what the run uses.
func (m *models) describe() string {
	emb := "embedder " + m.embedderName
	if l, ok := m.embedder.(*lexical.Embedder); ok {
		emb = fmt.Sprintf("lexical embedder, %d dimensions (offline)", l.Dimension())
	}
	return fmt.Sprintf("tokenizer %s; headers: title, section, %s summary; %s; memory store, hybrid search (vector + BM25)",
		m.encoding, m.summaryName, emb)
}
