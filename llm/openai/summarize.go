package openai

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SummarizerConfig configures a [Summarizer]. Only Model is required.
type SummarizerConfig struct {
	// Client sends the requests; nil means New(Config{}).
	Client *Client
	// Model names the chat model, such as "gpt-4o-mini" or "llama3.2";
	// required.
	Model string
	// System, if not empty, is sent as a system message before the text.
	System string
	// Temperature is sent as is: the zero value gives the most repeatable
	// summaries, which suits summaries that are cached. It must not be
	// negative.
	Temperature float64
	// OmitTemperature leaves the temperature out, for models that take
	// only their default.
	OmitTemperature bool
	// MaxTokens caps the summary's length; zero leaves it to the server.
	MaxTokens int
}

// A Summarizer asks a chat model for a summary. It implements
// contextheader.Summarizer, which renders the whole prompt (its
// instruction and the document) and passes it as the text: the
// Summarizer sends that text as the user message, after the optional
// system message, and returns the reply with surrounding white space
// trimmed. It is safe for concurrent use.
type Summarizer struct {
	cfg SummarizerConfig
}

// NewSummarizer returns a summarizer for cfg. It makes no request.
func NewSummarizer(cfg SummarizerConfig) (*Summarizer, error) {
	if err := cfg.options().check("SummarizerConfig"); err != nil {
		return nil, err
	}
	if !utf8.ValidString(cfg.System) {
		return nil, errorf("%w: SummarizerConfig.System is not valid UTF-8", ErrConfig)
	}
	var err error
	if cfg.Client, err = orEnvironment(cfg.Client); err != nil {
		return nil, err
	}
	return &Summarizer{cfg: cfg}, nil
}

func (cfg SummarizerConfig) options() ChatOptions {
	return ChatOptions{Model: cfg.Model, Temperature: cfg.Temperature, OmitTemperature: cfg.OmitTemperature, MaxTokens: cfg.MaxTokens}
}

// Config returns the summarizer's configuration.
func (s *Summarizer) Config() SummarizerConfig { return s.cfg }

// Summarize returns the model's reply to text, trimmed. A text that is
// empty or white space, or not valid UTF-8, is an error wrapping
// [ErrInvalid]. A reply the model stopped at
// MaxTokens is an error wrapping [ErrTruncated] (a cut summary would be
// cached as if it were whole), and an empty one wraps [ErrEmptyReply].
func (s *Summarizer) Summarize(ctx context.Context, text string) (string, error) {
	if s == nil || s.cfg.Client == nil {
		return "", errorf("%w: a zero Summarizer: use openai.NewSummarizer", ErrConfig)
	}
	if err := checkText(text, "the text"); err != nil {
		return "", err
	}
	msgs := make([]Message, 0, 2)
	if s.cfg.System != "" {
		msgs = append(msgs, Message{Role: RoleSystem, Content: s.cfg.System})
	}
	msgs = append(msgs, Message{Role: RoleUser, Content: text})
	r, err := s.cfg.Client.Chat(ctx, msgs, s.cfg.options())
	if err != nil {
		return "", err
	}
	if r.FinishReason == "length" {
		return "", errorf("%w: finish reason \"length\" with MaxTokens %d", ErrTruncated, s.cfg.MaxTokens)
	}
	summary := strings.TrimSpace(r.Content)
	if summary == "" {
		return "", errorf("%w: finish reason %q", ErrEmptyReply, r.FinishReason)
	}
	return summary, nil
}

// blank reports whether s holds nothing but white space.
func blank(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !unicode.IsSpace(r) }) < 0
}
