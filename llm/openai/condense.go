package openai

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"
)

// DefaultCondensePrompt is the system message of a [Condenser] whose
// Prompt is empty. It asks for the question alone so that the reply can
// be searched as it is, and for the user's own words so that a keyword
// search still finds them.
const DefaultCondensePrompt = "You rewrite the last question of a conversation as one standalone question " +
	"that can be understood without the conversation. Resolve what it refers to (\"it\", \"there\", " +
	"\"and in Toronto?\") from the earlier turns. Keep every name, number and term the user wrote; add nothing " +
	"the conversation does not say; do not answer it. If the question already stands alone, return it unchanged. " +
	"Reply with the question alone, on one line, without quotes or preamble."

// Defaults of a [CondenserConfig] field left zero.
const (
	// DefaultCondenseTurns is how many of the latest turns a Condenser
	// sends: a follow-up refers to the last turn or two, and every turn
	// sent is tokens paid for and text that may mislead.
	DefaultCondenseTurns = 4
	// DefaultCondenseTurnBytes caps each question and answer sent, and
	// the question returned, in bytes.
	DefaultCondenseTurnBytes = 2000
	// DefaultCondenseTokens is the reply's MaxTokens: a question, not an
	// essay.
	DefaultCondenseTokens = 128
)

// A Turn is one earlier exchange of a conversation. It is an alias of the
// same plain struct as retrieve.Turn, so that a [Condenser] is a
// retrieve.Rewriter without this package importing retrieve.
type Turn = struct {
	Question string
	Answer   string
}

// CondenserConfig configures a [Condenser]. Only Model is required.
type CondenserConfig struct {
	// Client sends the requests; nil means New(Config{}).
	Client *Client
	// Model names the chat model, such as "gpt-4o-mini" or "llama3.2";
	// required.
	Model string
	// Prompt is the system message; empty means [DefaultCondensePrompt].
	Prompt string
	// MaxTurns is how many of the latest turns are sent, older ones
	// dropped first; zero means [DefaultCondenseTurns].
	MaxTurns int
	// MaxTurnBytes cuts each question and answer sent (at a character
	// boundary, marked with "…") and bounds the question and the reply;
	// zero means [DefaultCondenseTurnBytes].
	MaxTurnBytes int
	// MaxTokens caps the reply; zero means [DefaultCondenseTokens].
	MaxTokens int
	// Temperature is sent as is: the zero value condenses the same way
	// each time. It must not be negative.
	Temperature float64
	// OmitTemperature leaves the temperature out, for models that take
	// only their default.
	OmitTemperature bool
}

// A Condenser asks a chat model to turn a follow-up question and the
// conversation before it into one standalone question: it implements
// retrieve.Rewriter. Without a conversation it returns the question as it
// is and makes no request. It is safe for concurrent use.
type Condenser struct {
	cfg CondenserConfig
}

// NewCondenser returns a condenser for cfg. A missing Model, a negative
// MaxTurns, MaxTurnBytes, MaxTokens or Temperature, or a Prompt that is
// not valid UTF-8 gives an error wrapping [ErrConfig]. It makes no
// request.
func NewCondenser(cfg CondenserConfig) (*Condenser, error) {
	switch {
	case cfg.MaxTurns < 0:
		return nil, errorf("%w: CondenserConfig.MaxTurns is %d: must be 0 or more", ErrConfig, cfg.MaxTurns)
	case cfg.MaxTurnBytes < 0:
		return nil, errorf("%w: CondenserConfig.MaxTurnBytes is %d: must be 0 or more", ErrConfig, cfg.MaxTurnBytes)
	case !utf8.ValidString(cfg.Prompt):
		return nil, errorf("%w: CondenserConfig.Prompt is not valid UTF-8", ErrConfig)
	}
	if cfg.Prompt == "" {
		cfg.Prompt = DefaultCondensePrompt
	}
	if cfg.MaxTurns == 0 {
		cfg.MaxTurns = DefaultCondenseTurns
	}
	if cfg.MaxTurnBytes == 0 {
		cfg.MaxTurnBytes = DefaultCondenseTurnBytes
	}
	if cfg.MaxTokens == 0 {
		cfg.MaxTokens = DefaultCondenseTokens
	}
	if err := cfg.options().check("CondenserConfig"); err != nil {
		return nil, err
	}
	var err error
	if cfg.Client, err = orEnvironment(cfg.Client); err != nil {
		return nil, err
	}
	return &Condenser{cfg: cfg}, nil
}

func (cfg CondenserConfig) options() ChatOptions {
	return ChatOptions{Model: cfg.Model, Temperature: cfg.Temperature, OmitTemperature: cfg.OmitTemperature, MaxTokens: cfg.MaxTokens}
}

// Config returns the condenser's configuration with its defaults resolved.
func (c *Condenser) Config() CondenserConfig { return c.cfg }

// Rewrite returns the standalone question for question after
// conversation (oldest turn first): the question as is if conversation is
// empty, otherwise the model's reply, its first line trimmed of white
// space and quotes. Only the last MaxTurns turns are sent, each question
// and answer cut to MaxTurnBytes. A question that is blank, not valid
// UTF-8 or over MaxTurnBytes is an error wrapping [ErrInvalid]; a reply
// cut at MaxTokens or longer than MaxTurnBytes wraps [ErrTruncated]; an
// empty one [ErrEmptyReply]; the client's errors are returned as they
// are.
func (c *Condenser) Rewrite(ctx context.Context, conversation []Turn, question string) ([]string, error) {
	if c == nil || c.cfg.Client == nil {
		return nil, errorf("%w: a zero Condenser: use openai.NewCondenser", ErrConfig)
	}
	if err := checkText(question, "the question"); err != nil {
		return nil, err
	}
	if len(question) > c.cfg.MaxTurnBytes {
		return nil, errorf("%w: the question is %d bytes: at most %d (MaxTurnBytes)", ErrInvalid, len(question), c.cfg.MaxTurnBytes)
	}
	if len(conversation) == 0 {
		return []string{question}, nil
	}
	msgs := []Message{{Role: RoleSystem, Content: c.cfg.Prompt}, {Role: RoleUser, Content: c.render(conversation, question)}}
	r, err := c.cfg.Client.Chat(ctx, msgs, c.cfg.options())
	if err != nil {
		return nil, err
	}
	if r.FinishReason == "length" {
		return nil, errorf("%w: finish reason \"length\" with MaxTokens %d", ErrTruncated, c.cfg.MaxTokens)
	}
	q, err := condensed(r.Content, c.cfg.MaxTurnBytes)
	if err != nil {
		return nil, errorf("%w (finish reason %q)", err, r.FinishReason)
	}
	return []string{q}, nil
}

// condensed reads the question out of a reply: its first line that is
// not blank, trimmed of white space and quotes, valid UTF-8, at most
// limit bytes.
func condensed(reply string, limit int) (string, error) {
	line := strings.TrimSpace(strings.ToValidUTF8(reply, "\uFFFD"))
	if i := strings.IndexAny(line, "\r\n"); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSpace(strings.Trim(strings.TrimSpace(line), "\"'“”"))
	switch {
	case line == "":
		return "", ErrEmptyReply
	case len(line) > limit:
		return "", fmt.Errorf("%w: the reply's question is %d bytes: at most %d (MaxTurnBytes)", ErrTruncated, len(line), limit)
	}
	return line, nil
}

// render writes the last MaxTurns turns and the question as the user
// message: one message, not a replayed chat, so that the model rewrites
// the question rather than answering it.
func (c *Condenser) render(conversation []Turn, question string) string {
	turns := conversation[max(0, len(conversation)-c.cfg.MaxTurns):]
	var b strings.Builder
	b.WriteString("Conversation:\n")
	for _, t := range turns {
		b.WriteString("User: ")
		b.WriteString(c.cut(t.Question))
		b.WriteString("\nAssistant: ")
		b.WriteString(c.cut(t.Answer))
		b.WriteString("\n")
	}
	b.WriteString("\nLast question: ")
	b.WriteString(question)
	b.WriteString("\n\nStandalone question:")
	return b.String()
}

// cut returns s on one line, valid UTF-8, at most MaxTurnBytes bytes and
// a marker.
func (c *Condenser) cut(s string) string {
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "\uFFFD")), " ")
	if len(s) <= c.cfg.MaxTurnBytes {
		return s
	}
	n := c.cfg.MaxTurnBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
