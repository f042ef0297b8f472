package openai

import (
	"context"
	"encoding/json"
	"math"
	"unicode/utf8"
)

// The roles of chat messages that every OpenAI-compatible server knows.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// A Message is one turn of a chat: a role ([RoleSystem], [RoleUser],
// [RoleAssistant], or another the server accepts) and its text.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// ChatOptions are the settings of one chat call.
type ChatOptions struct {
	// Model names the model, such as "gpt-4o-mini" or "llama3.2";
	// required.
	Model string
	// Temperature is sent as is, so the zero value asks for the most
	// repeatable answers; it must not be negative.
	Temperature float64
	// OmitTemperature leaves the temperature out of the request, for
	// models that take only their default (OpenAI's reasoning models).
	OmitTemperature bool
	// MaxTokens caps the reply's length (sent as max_tokens, which every
	// compatible server reads); zero leaves it to the server.
	MaxTokens int
}

// Usage is the server's count of the tokens a call used; zero where it
// did not say (most servers do not report usage in a stream).
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// A Reply is the model's answer to a chat call.
type Reply struct {
	// Content is the text of the reply, as the model wrote it (or, after
	// a failed stream, as much of it as arrived).
	Content string
	// FinishReason is why the model stopped: "stop" (it was done),
	// "length" (MaxTokens or the context window), "content_filter", ...;
	// empty if a stream broke off before the server said.
	FinishReason string
	// Model is the model that answered, as the server names it.
	Model string
	Usage Usage
}

type chatRequest struct {
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	Temperature *float64  `json:"temperature,omitempty"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	Stream      bool      `json:"stream,omitempty"`
}

// chatPath is the chat completions endpoint, under the base URL.
const chatPath = "chat/completions"

// Chat sends messages to the chat completions endpoint and returns the
// reply. It retries as the client's [Config] says.
func (c *Client) Chat(ctx context.Context, messages []Message, opts ChatOptions) (Reply, error) {
	req, err := c.chatRequest(messages, opts, false)
	if err != nil {
		return Reply{}, err
	}
	body, err := c.post(ctx, chatPath, req, maxReply)
	if err != nil {
		return Reply{}, err
	}
	return c.decodeChat(body)
}

func (c *Client) chatRequest(messages []Message, opts ChatOptions, stream bool) (*chatRequest, error) {
	if err := c.ready(); err != nil {
		return nil, err
	}
	if err := opts.check("ChatOptions"); err != nil {
		return nil, err
	}
	if len(messages) == 0 {
		return nil, errorf("%w: no messages", ErrInvalid)
	}
	for i, m := range messages {
		if m.Role == "" {
			return nil, errorf("%w: message %d has no Role", ErrInvalid, i)
		}
		if !utf8.ValidString(m.Content) || !utf8.ValidString(m.Role) {
			return nil, errorf("%w: message %d is not valid UTF-8", ErrInvalid, i)
		}
	}
	req := &chatRequest{Model: opts.Model, Messages: messages, MaxTokens: opts.MaxTokens, Stream: stream}
	if !opts.OmitTemperature {
		req.Temperature = &opts.Temperature
	}
	return req, nil
}

// check validates the options; what names them in errors.
func (opts ChatOptions) check(what string) error {
	switch {
	case opts.Model == "":
		return errorf("%w: %s.Model is empty: must name the chat model", ErrConfig, what)
	case opts.MaxTokens < 0:
		return errorf("%w: %s.MaxTokens is %d: must not be negative (zero leaves it to the server)", ErrConfig, what, opts.MaxTokens)
	case !(opts.Temperature >= 0) || math.IsInf(opts.Temperature, 0):
		return errorf("%w: %s.Temperature is %v: must be zero or more (OmitTemperature leaves it out)", ErrConfig, what, opts.Temperature)
	}
	return nil
}

// chatResponse is the part of a chat completion the client reads:
//
//	{"id": "chatcmpl-123", "object": "chat.completion", "created": 1677652288, "model": "gpt-4o-mini",
//	 "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello."}, "logprobs": null, "finish_reason": "stop"}],
//	 "usage": {"prompt_tokens": 9, "completion_tokens": 12, "total_tokens": 21}}
type chatResponse struct {
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage Usage `json:"usage"`
}

func (c *Client) decodeChat(body []byte) (Reply, error) {
	var r chatResponse
	if err := json.Unmarshal(body, &r); err != nil {
		return Reply{}, errorf("%w: chat completion: %v (body starts %q)", ErrBadResponse, c.cleanError(err), c.excerpt(body))
	}
	if len(r.Choices) == 0 {
		return Reply{}, errorf("%w: chat completion without choices", ErrBadResponse)
	}
	ch := r.Choices[0]
	return Reply{Content: ch.Message.Content, FinishReason: ch.FinishReason, Model: r.Model, Usage: r.Usage}, nil
}

// MessagesOf returns the chat messages of a prompt assembled by package
// budget (its Result.Messages), or of any message type of the same shape:
// a role, a content, the section it comes from and an item's ID, all
// strings, in that order. Only the role and the content are sent.
func MessagesOf[M ~struct{ Role, Content, Section, ID string }](msgs []M) []Message {
	out := make([]Message, len(msgs))
	for i, m := range msgs {
		s := struct{ Role, Content, Section, ID string }(m)
		out[i] = Message{Role: s.Role, Content: s.Content}
	}
	return out
}
