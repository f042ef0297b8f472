package openai

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Errors returned by the package, wrapped with details; test for them with
// [errors.Is]. The ones that classify a server's answer (ErrBadRequest to
// ErrServer) match an [*APIError]; get its details with [errors.As].
var (
	// ErrConfig reports a bad field of a Config, EmbedderConfig,
	// SummarizerConfig, RerankerConfig or ChatOptions, named in the
	// error with its value and what is allowed. The methods of a zero
	// Client, Embedder, Summarizer or Reranker return it too: make them
	// with [New], [NewEmbedder], [NewSummarizer] and [NewReranker].
	ErrConfig = errors.New("openai: invalid configuration")
	// ErrInvalid reports input the client refuses before sending
	// anything, named in the error: a text that is empty or white space
	// or not valid UTF-8 (JSON would silently replace its bad bytes), a
	// chat call without messages, a message without a Role.
	ErrInvalid = errors.New("openai: invalid input")
	// ErrTextTooLong reports a text to embed that is longer than the
	// token limit of one request or of one input: it is never cut.
	ErrTextTooLong = errors.New("openai: text is over the token limit")

	// ErrBadRequest matches an [*APIError] with a 4xx status other than
	// 401, 403, 404 and 429: the request itself is wrong; retrying the
	// same request cannot help.
	ErrBadRequest = errors.New("openai: bad request")
	// ErrContextLength matches an [*APIError] saying the input is longer
	// than the model's context window (it also matches ErrBadRequest).
	ErrContextLength = errors.New("openai: input exceeds the model's context length")
	// ErrAuth matches an [*APIError] with status 401 or 403: a missing,
	// wrong or revoked API key, or one without access to the model.
	ErrAuth = errors.New("openai: not authorized")
	// ErrNotFound matches an [*APIError] with status 404: a wrong base
	// URL, or a model the server does not have (for Ollama: not pulled).
	ErrNotFound = errors.New("openai: not found")
	// ErrRateLimited matches an [*APIError] with status 429 that asks to
	// slow down; the client has already retried it MaxRetries times.
	ErrRateLimited = errors.New("openai: rate limited")
	// ErrQuotaExceeded matches an [*APIError] with status 429 and code
	// "insufficient_quota": the account is out of credit, so waiting
	// does not help. It does not match ErrRateLimited, and it is never
	// retried.
	ErrQuotaExceeded = errors.New("openai: quota exceeded")
	// ErrServer matches an [*APIError] with a 5xx status.
	ErrServer = errors.New("openai: server error")

	// ErrTimeout reports a request that got no answer within
	// Config.Timeout or Config.Deadline, or a stream silent for longer
	// than Config.StallTimeout.
	ErrTimeout = errors.New("openai: request timed out")
	// ErrConnection reports a failure to reach the server or a
	// connection lost before the response was complete.
	ErrConnection = errors.New("openai: connection failed")
	// ErrBadResponse reports a response the client cannot use: not the
	// API's JSON, a wrong number of embeddings, a missing or repeated
	// index, vectors of different lengths.
	ErrBadResponse = errors.New("openai: unusable response")
	// ErrTooLarge reports a response, or an event of a stream, over the
	// size the client reads into memory (it also matches
	// ErrBadResponse): a chat reply over 16 MiB, an event over 4 MiB, an
	// embeddings body longer than its texts' vectors can be (see
	// [MaxDimensions]).
	ErrTooLarge = errors.New("openai: response too large")
	// ErrStreamInterrupted reports a stream that ended before the model
	// finished: the connection dropped, went silent or the server sent an
	// error. The [Reply] returned with it holds what arrived.
	ErrStreamInterrupted = errors.New("openai: stream interrupted")
	// ErrEmptyReply reports a reply with no text in it.
	ErrEmptyReply = errors.New("openai: empty reply")
	// ErrTruncated reports a summary the model stopped before its end,
	// at MaxTokens or at the end of its context window.
	ErrTruncated = errors.New("openai: reply cut short")
)

// An APIError is an error answer from the server: its HTTP status and
// what the API's error body says. It matches the sentinel of its class
// with [errors.Is] (ErrAuth for 401, ErrRateLimited for 429, ...). The
// API key never appears in it: the client removes it from the server's
// message.
type APIError struct {
	StatusCode int    // the HTTP status, such as 429
	Type       string // the API's error type, such as "invalid_request_error"; may be empty
	Code       string // the API's error code, such as "invalid_api_key"; may be empty
	Message    string // the API's message, or the start of a body that is not the API's JSON
	RequestID  string // the x-request-id header, for the provider's support; may be empty
	// RetryAfter is how long the server asked the client to wait
	// (Retry-After or retry-after-ms headers); zero if it did not say.
	RetryAfter time.Duration
	// InStream is set for an error event inside a stream: the response
	// began well (StatusCode is its status, 200), then the server sent
	// an error in place of the rest of the reply.
	InStream bool

	retryable bool
}

// Error returns "openai: 429 Too Many Requests (requests, rate_limit_exceeded):
// Rate limit reached ... [request req_123]", leaving out what is empty;
// for an error event in a stream, "openai: error event in the stream
// (server_error): ...".
func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString(prefix)
	if e.InStream {
		b.WriteString("error event in the stream")
	} else {
		b.WriteString(strconv.Itoa(e.StatusCode))
		if t := http.StatusText(e.StatusCode); t != "" {
			b.WriteString(" " + t)
		}
	}
	if e.Type != "" || e.Code != "" {
		b.WriteString(" (" + strings.Trim(e.Type+", "+e.Code, ", ") + ")")
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if e.RequestID != "" {
		b.WriteString(" [request " + e.RequestID + "]")
	}
	return b.String()
}

// Is reports whether target is the sentinel of e's class.
func (e *APIError) Is(target error) bool {
	s := e.StatusCode
	switch target {
	case ErrBadRequest:
		return s >= 400 && s < 500 && s != 401 && s != 403 && s != 404 && s != 429
	case ErrContextLength:
		return s == 400 && (e.Code == "context_length_exceeded" ||
			strings.Contains(strings.ToLower(e.Message), "maximum context length"))
	case ErrAuth:
		return s == 401 || s == 403
	case ErrNotFound:
		return s == 404
	case ErrRateLimited:
		return s == 429 && !e.quota()
	case ErrQuotaExceeded:
		return e.quota()
	case ErrServer:
		return s >= 500
	}
	return false
}

func (e *APIError) quota() bool {
	return e.StatusCode == 429 && (e.Code == "insufficient_quota" || e.Type == "insufficient_quota")
}

// parseErrorBody fills e's Type, Code and Message from an error body in
// any of the shapes OpenAI-compatible servers send:
//
//	{"error": {"message": "...", "type": "...", "param": null, "code": "..."}}  OpenAI, Ollama
//	{"error": {"code": 503, "message": "Loading model", "type": "unavailable_error"}}  llama.cpp
//	{"object": "error", "message": "...", "type": "BadRequestError", "code": 400}  older vLLM
//	{"error": "..."}  {"detail": "..."}  plain text, HTML
//
// The fields are as the server sent them: [Client.cleanAPIError] makes
// them fit to show.
func parseErrorBody(e *APIError, body []byte) {
	var env struct {
		Error   json.RawMessage `json:"error"`
		Message json.RawMessage `json:"message"`
		Detail  json.RawMessage `json:"detail"`
		Type    json.RawMessage `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if json.Unmarshal(body, &env) != nil {
		e.Message = string(body)
		return
	}
	var inner struct {
		Message json.RawMessage `json:"message"`
		Type    json.RawMessage `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if json.Unmarshal(env.Error, &inner) == nil && (inner.Message != nil || inner.Type != nil || inner.Code != nil) {
		e.Message, e.Type, e.Code = scalar(inner.Message), scalar(inner.Type), scalar(inner.Code)
		return
	}
	e.Message = cmp.Or(scalar(env.Error), scalar(env.Message), scalar(env.Detail))
	e.Type, e.Code = scalar(env.Type), scalar(env.Code)
	if e.Message == "" && e.Type == "" && e.Code == "" {
		e.Message = string(body)
	}
}

// cleanAPIError makes every field of e that came from the server fit to
// show (see [Client.clean]): the key removed first, then the length cut.
func (c *Client) cleanAPIError(e *APIError) {
	e.Message = c.clean(e.Message, maxMessage)
	e.Type = c.clean(e.Type, maxMessage)
	e.Code = c.clean(e.Code, maxMessage)
	e.RequestID = c.clean(e.RequestID, maxMessage)
}

// scalar returns a JSON string's value or a number's text; "" for
// anything else (null, objects, arrays).
func scalar(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// retryableStatus says whether a status is worth retrying: rate limits
// and server errors, except 501 (the server lacks the endpoint: llama.cpp
// answers it to /embeddings without --embeddings) and 505.
func retryableStatus(status int) bool {
	return status == 429 || (status >= 500 && status != 501 && status != 505)
}

// prefix starts the text of every error of the package.
const prefix = "openai: "

// errorf is fmt.Errorf for the package's errors: it wraps as fmt.Errorf
// does, but shows the "openai: " that each wrapped error of the package
// starts with only once, at the start ("openai: stream interrupted:
// request timed out: ...", not "openai: stream interrupted: openai:
// request timed out: ...").
func errorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	shown := make([]any, len(args))
	for i, a := range args {
		shown[i] = a
		if e, ok := a.(error); ok {
			shown[i] = strings.TrimPrefix(e.Error(), prefix)
		}
	}
	msg := fmt.Sprintf(strings.ReplaceAll(format, "%w", "%v"), shown...)
	return &textError{msg: prefix + strings.TrimPrefix(msg, prefix), err: err}
}
