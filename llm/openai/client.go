package openai

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// Defaults used for the zero values of [Config]'s fields, stated on each
// field and reported by [Client.Config]. With them, a server that does
// not answer fails a call within defaultDeadline.
const (
	defaultBaseURL       = "https://api.openai.com/v1"
	defaultTimeout       = 30 * time.Second
	defaultDeadline      = 90 * time.Second
	defaultStallTimeout  = 30 * time.Second
	defaultMaxRetries    = 2
	defaultBackoffBase   = 500 * time.Millisecond
	defaultBackoffMax    = 8 * time.Second
	defaultMaxRetryAfter = time.Minute
)

// The environment variables [New] reads for fields left empty, as the
// official OpenAI clients do.
const (
	envBaseURL = "OPENAI_BASE_URL"
	envAPIKey  = "OPENAI_API_KEY"
)

// Config configures a [Client]. The zero value talks to OpenAI (or to
// $OPENAI_BASE_URL) with the key in $OPENAI_API_KEY. Zero fields mean the
// documented defaults; a negative number or duration is refused with an
// error wrapping [ErrConfig].
//
// Printing a Config (with any fmt verb, with log/slog or as JSON) never
// shows the API key.
type Config struct {
	// BaseURL is the API's root, up to and including the version:
	// "https://api.openai.com/v1", "http://localhost:11434/v1" (Ollama),
	// "http://localhost:8000/v1" (vLLM), "http://localhost:8080/v1"
	// (llama.cpp's server), "http://localhost:1234/v1" (LM Studio).
	// Empty means $OPENAI_BASE_URL, or "https://api.openai.com/v1" if
	// that is unset.
	BaseURL string
	// APIKey is sent as a bearer token to BaseURL, whatever server that
	// is. Empty means $OPENAI_API_KEY (if set): with that variable set,
	// its key is sent to the server BaseURL names too, so point BaseURL
	// only at servers you would give it to. Local servers need no key.
	APIKey string `json:"-"`
	// HTTPClient sends the requests; nil means a client of the package's
	// own over http.DefaultTransport. Give one to set a proxy, TLS
	// settings or extra headers (through its Transport). The Client
	// sends through a copy of it that follows a redirect only to the
	// same origin (scheme, host and port) as the request's, so that the
	// key and the request's body never reach another server; a redirect
	// elsewhere is an [*APIError] with the redirect's status. The copy
	// calls the client's own CheckRedirect, if any, for the redirects it
	// follows; the client given is not changed.
	HTTPClient *http.Client `json:"-"`
	// Timeout bounds each attempt: the whole exchange for a plain call
	// (an embeddings batch, a chat completion), and the wait for the
	// response to begin for a stream. Zero means 30 s. A slow
	// local model (loading a large model, a long reply without
	// streaming) may need more.
	Timeout time.Duration
	// Deadline bounds a whole call, all its attempts and the waits
	// between them (for an Embedder, each batch; for a stream, until it
	// begins): when it is up, the call fails with [ErrTimeout], and a
	// retry whose wait would end after it is not made. Zero means 90 s.
	Deadline time.Duration
	// StallTimeout is the longest a stream that has begun may stay
	// silent (no byte, not even a keep-alive comment) before it is
	// declared interrupted. Only the time spent waiting for the server
	// counts, not the time the caller's onDelta takes. Zero means 30 s.
	StallTimeout time.Duration
	// MaxRetries is how many times a request is retried after a 429, a
	// 5xx, a timeout or a connection failure. Zero means 2; set
	// NoRetries to never retry.
	MaxRetries int
	// NoRetries makes every request a single attempt.
	NoRetries bool
	// BackoffBase and BackoffMax shape the wait before retry n (from 0):
	// a random duration in [0, min(BackoffMax, BackoffBase·2ⁿ)] ("full
	// jitter"). Zero means 500 ms and 8 s.
	BackoffBase, BackoffMax time.Duration
	// MaxRetryAfter caps the wait a server may ask for with Retry-After:
	// a longer wait is not made, and the [*APIError] is returned at once
	// with its RetryAfter set, for the caller to schedule. Zero means a
	// minute.
	MaxRetryAfter time.Duration
	// Logger, if not nil, receives a warning for each retry (the path,
	// the attempt, the wait and the error, never the key).
	Logger *slog.Logger `json:"-"`
}

// A Client talks to an OpenAI-compatible API: [Client.Chat] and
// [Client.ChatStream] for answers; [Embedder], [Summarizer] and
// [Reranker] use it for embeddings, document summaries and relevance
// scores. It is safe for concurrent use.
//
// A Client never shows its API key: not in errors, logs or fmt output.
type Client struct {
	cfg  Config        // resolved, APIKey left empty
	key  func() string // behind a func so that printers that walk fields by reflection cannot reach it
	base *url.URL
	http *http.Client
	// sleep waits between attempts; tests replace it.
	sleep func(ctx context.Context, d time.Duration) error
}

// New returns a client for cfg, with the environment's defaults filled in
// (see [Config]). It makes no request.
func New(cfg Config) (*Client, error) {
	c := &Client{sleep: sleep}
	base, key, err := resolveEndpoint(cfg.BaseURL, cfg.APIKey)
	if err != nil {
		return nil, err
	}
	c.base = base
	c.key = func() string { return key }
	cfg.BaseURL, cfg.APIKey = base.String(), ""
	if err := resolveTiming(&cfg); err != nil {
		return nil, err
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{}
	}
	c.http = sameOriginRedirects(cfg.HTTPClient)
	c.cfg = cfg
	return c, nil
}

func resolveEndpoint(baseURL, key string) (*url.URL, string, error) {
	envBase := strings.TrimSpace(os.Getenv(envBaseURL))
	raw := strings.TrimSuffix(strings.TrimSpace(cmp.Or(baseURL, envBase, defaultBaseURL)), "/")
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, "", errorf("%w: BaseURL is %q: must be an http or https URL", ErrConfig, redactURL(raw))
	}
	if key == "" {
		key = os.Getenv(envAPIKey)
	}
	if strings.ContainsFunc(key, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return nil, "", errorf("%w: APIKey holds white space or a control character: must be the key alone (a newline from a file?)", ErrConfig)
	}
	return u, key, nil
}

func resolveTiming(cfg *Config) error {
	for _, f := range []struct {
		name string
		v    time.Duration
	}{
		{"Timeout", cfg.Timeout}, {"Deadline", cfg.Deadline}, {"StallTimeout", cfg.StallTimeout},
		{"BackoffBase", cfg.BackoffBase}, {"BackoffMax", cfg.BackoffMax}, {"MaxRetryAfter", cfg.MaxRetryAfter},
	} {
		if f.v < 0 {
			return errorf("%w: %s is %v: must not be negative (zero means the default)", ErrConfig, f.name, f.v)
		}
	}
	if cfg.MaxRetries < 0 {
		return errorf("%w: MaxRetries is %d: must not be negative (zero means the default; NoRetries never retries)", ErrConfig, cfg.MaxRetries)
	}
	cfg.Timeout = cmp.Or(cfg.Timeout, defaultTimeout)
	cfg.Deadline = cmp.Or(cfg.Deadline, defaultDeadline)
	cfg.StallTimeout = cmp.Or(cfg.StallTimeout, defaultStallTimeout)
	cfg.MaxRetries = cmp.Or(cfg.MaxRetries, defaultMaxRetries)
	cfg.BackoffBase = cmp.Or(cfg.BackoffBase, defaultBackoffBase)
	cfg.BackoffMax = cmp.Or(cfg.BackoffMax, defaultBackoffMax)
	cfg.MaxRetryAfter = cmp.Or(cfg.MaxRetryAfter, defaultMaxRetryAfter)
	if cfg.BackoffMax < cfg.BackoffBase {
		return errorf("%w: BackoffMax is %v: must not be less than BackoffBase (%v)", ErrConfig, cfg.BackoffMax, cfg.BackoffBase)
	}
	return nil
}

// Config returns the client's configuration with the defaults filled in,
// the API key included.
func (c *Client) Config() Config {
	cfg := c.cfg
	if c.key != nil {
		cfg.APIKey = c.key()
	}
	return cfg
}

// orEnvironment returns c, or if c is nil a client configured by the
// environment alone.
func orEnvironment(c *Client) (*Client, error) {
	if c == nil {
		return New(Config{})
	}
	return c, c.ready()
}

func (c *Client) ready() error {
	if c == nil || c.http == nil {
		return errorf("%w: a zero Client: use openai.New", ErrConfig)
	}
	return nil
}

// maxReply bounds a chat completion read into memory: a reply as long as
// the longest context windows is a few megabytes of JSON.
const maxReply = 16 << 20

// post sends payload as JSON to path and returns the body of a 2xx
// response of at most limit bytes (a longer one is an error wrapping
// [ErrTooLarge]), retrying as the Config says. Reading the body is part
// of the attempt, so a connection lost mid-body is retried too.
func (c *Client) post(ctx context.Context, path string, payload any, limit int64) ([]byte, error) {
	body, err := json.Marshal(payload)
	if err != nil {
		return nil, errorf("%w: %v", ErrConfig, err)
	}
	var out []byte
	err = c.retry(ctx, path, func(ctx context.Context, timeout time.Duration) error {
		actx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		resp, err := c.send(ctx, actx, timeout, path, body, false)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.ContentLength > limit {
			return errorf("%w: %w: a body of %d bytes, the limit is %d", ErrBadResponse, ErrTooLarge, resp.ContentLength, limit)
		}
		out, err = io.ReadAll(io.LimitReader(resp.Body, limit+1))
		if err != nil {
			return c.transportError(ctx, actx, timeout, err)
		}
		if int64(len(out)) > limit {
			return errorf("%w: %w: a body over %d bytes", ErrBadResponse, ErrTooLarge, limit)
		}
		return nil
	})
	return out, err
}

// send makes one attempt with the attempt's context actx (ctx is the
// caller's, to tell its cancellation from a timeout). It returns the
// response if its status is 2xx, else an [*APIError].
func (c *Client) send(ctx, actx context.Context, timeout time.Duration, path string, body []byte, stream bool) (*http.Response, error) {
	req, err := http.NewRequestWithContext(actx, http.MethodPost, c.base.JoinPath(path).String(), bytes.NewReader(body))
	if err != nil {
		return nil, errorf("%w: %v", ErrConfig, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if stream {
		req.Header.Set("Accept", "text/event-stream")
	}
	req.Header.Set("User-Agent", "ragkit")
	if key := c.key(); key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, c.transportError(ctx, actx, timeout, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		e := c.apiError(resp)
		if loc, err := resp.Location(); err == nil && resp.StatusCode >= 300 && resp.StatusCode <= 399 {
			e.Message = fmt.Sprintf("a redirect to another origin (%s) is not followed, so that the key and the request stay with %s: set BaseURL to the server meant", origin(loc), origin(req.URL))
			c.cleanAPIError(e)
		}
		return nil, e
	}
	return resp, nil
}

// sameOriginRedirects returns a copy of hc that follows a redirect only to
// the origin of the request it started from; hc's own CheckRedirect (or
// the default's limit of 10 redirects) then decides.
func sameOriginRedirects(hc *http.Client) *http.Client {
	out := *hc
	next := hc.CheckRedirect
	out.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if origin(req.URL) != origin(via[0].URL) {
			// Go's own rule compares host names only: another port,
			// or https -> http on one host, would get the key, and a
			// 307 or 308 the body, wherever it points.
			return http.ErrUseLastResponse
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &out
}

// origin returns u's scheme, host and port (the scheme's default if it
// names none), in lower case: "https://api.example.com:443".
func origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// maxErrorBody bounds the error body read: enough for any API error, not
// for a proxy's whole HTML page.
const maxErrorBody = 64 << 10

func (c *Client) apiError(resp *http.Response) *APIError {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	e := &APIError{StatusCode: resp.StatusCode, RequestID: resp.Header.Get("X-Request-Id")}
	parseErrorBody(e, body)
	c.cleanAPIError(e)
	e.RetryAfter, _ = retryAfter(resp.Header, time.Now())
	e.retryable = retryableStatus(e.StatusCode) && !e.quota()
	switch strings.ToLower(resp.Header.Get("X-Should-Retry")) {
	case "true":
		e.retryable = true
	case "false":
		e.retryable = false
	}
	return e
}

// transportError classifies err from an attempt: the caller's
// cancellation as is, the attempt's deadline as ErrTimeout, anything else
// as ErrConnection.
func (c *Client) transportError(ctx, actx context.Context, timeout time.Duration, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if actx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return errorf("%w: no response within %v", ErrTimeout, timeout.Round(time.Millisecond))
	}
	// The text of a transport error can quote what the server sent (a
	// malformed status line, say).
	return errorf("%w: %w", ErrConnection, c.cleanError(err))
}

// String describes the client without its key.
func (c *Client) String() string {
	if c == nil || c.key == nil {
		return "openai.Client{}"
	}
	return "openai.Client" + c.Config().describe()
}

// GoString is String, so that %#v hides the key too.
func (c *Client) GoString() string { return c.String() }

// LogValue logs the client as its configuration, without the key.
func (c *Client) LogValue() slog.Value {
	if c == nil || c.key == nil {
		return slog.GroupValue()
	}
	return c.Config().LogValue()
}

// Format prints the configuration for every verb (%v, %+v, %#v, %s, %d,
// ...), so that no verb reaches the key.
func (cfg Config) Format(f fmt.State, verb rune) {
	io.WriteString(f, "openai.Config"+cfg.describe())
}

// String describes the configuration without the key.
func (cfg Config) String() string { return "openai.Config" + cfg.describe() }

// GoString is String, so that %#v hides the key too.
func (cfg Config) GoString() string { return cfg.String() }

// LogValue logs the configuration without the key.
func (cfg Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("base_url", redactURL(cfg.BaseURL)),
		slog.String("api_key", keyText(cfg.APIKey)),
		slog.Duration("timeout", cfg.Timeout),
		slog.Duration("deadline", cfg.Deadline),
		slog.Duration("stall_timeout", cfg.StallTimeout),
		slog.Int("max_retries", cfg.MaxRetries),
		slog.Bool("no_retries", cfg.NoRetries),
	)
}

func (cfg Config) describe() string {
	return "{BaseURL: " + strconv.Quote(redactURL(cfg.BaseURL)) +
		", APIKey: " + keyText(cfg.APIKey) +
		", Timeout: " + cfg.Timeout.String() +
		", Deadline: " + cfg.Deadline.String() +
		", StallTimeout: " + cfg.StallTimeout.String() +
		", MaxRetries: " + strconv.Itoa(cfg.MaxRetries) +
		", NoRetries: " + strconv.FormatBool(cfg.NoRetries) +
		", BackoffBase: " + cfg.BackoffBase.String() +
		", BackoffMax: " + cfg.BackoffMax.String() +
		", MaxRetryAfter: " + cfg.MaxRetryAfter.String() + "}"
}

func keyText(key string) string {
	if key == "" {
		return `""`
	}
	return "[REDACTED]"
}

// redactURL hides a password in a URL's user information.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		if strings.Contains(raw, "@") {
			return "[REDACTED]"
		}
		return raw
	}
	return u.Redacted()
}
