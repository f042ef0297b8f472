package openai

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// ChatStream is [Client.Chat] with the reply streamed (server-sent
// events, "stream": true): onDelta receives each piece of text as it
// arrives, in order, on the calling goroutine. It returns the whole
// [Reply] at the end.
//
// Only the opening of the stream is retried (within Config.Timeout per
// attempt and Config.Deadline in all): once text has arrived, nothing is
// sent again. If the stream breaks off before the model finished (the
// connection drops, the server falls silent for longer than
// Config.StallTimeout, or it sends an error event), ChatStream returns an
// error wrapping [ErrStreamInterrupted] together with the Reply so far;
// an error event is also an [*APIError] with InStream set, and a reply
// that holds no event at all (a proxy's HTML page) also wraps
// [ErrBadResponse] and quotes the start of the body. If onDelta
// returns an error, the stream is closed and that error is returned, with
// the Reply so far. The time onDelta takes never counts as the server's
// silence.
//
// Keep-alive comments are skipped; "data: [DONE]" ends the stream. Once a
// chunk has given the reason the model finished, the reply is complete:
// a stream that then ends, breaks off or stays silent (for at most a
// second) without "[DONE]" is a success.
func (c *Client) ChatStream(ctx context.Context, messages []Message, opts ChatOptions, onDelta func(delta string) error) (Reply, error) {
	req, err := c.chatRequest(messages, opts, true)
	if err != nil {
		return Reply{}, err
	}
	if onDelta == nil {
		return Reply{}, errorf("%w: onDelta is nil", ErrConfig)
	}
	body, err := json.Marshal(req)
	if err != nil {
		return Reply{}, errorf("%w: %v", ErrConfig, err)
	}
	var (
		resp *http.Response
		wd   *watchdog
	)
	err = c.retry(ctx, chatPath, func(ctx context.Context, timeout time.Duration) error {
		actx, w := newWatchdog(ctx, timeout)
		r, err := c.send(ctx, actx, timeout, chatPath, body, true)
		if err != nil {
			w.stop()
			return err
		}
		// From here on the watchdog times the server's silences only.
		w.disarm()
		w.d = c.cfg.StallTimeout
		resp, wd = r, w
		return nil
	})
	if err != nil {
		return Reply{}, err
	}
	defer wd.stop()
	defer resp.Body.Close()
	s := stream{c: c, ctx: ctx, wd: wd, status: resp.StatusCode, requestID: resp.Header.Get("X-Request-Id"), onDelta: onDelta}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "application/json" {
		return s.whole(kickReader{resp.Body, wd}) // a server that ignored "stream"
	}
	return s.read(resp.Body)
}

// stream reads one streamed reply.
type stream struct {
	c      *Client
	ctx    context.Context
	wd     *watchdog
	status int
	// requestID is the response's X-Request-Id, as the server sent it.
	requestID string
	onDelta   func(string) error

	reply Reply
	text  strings.Builder
	// events counts the events read; head keeps the body's start, to
	// quote a body that held none (an HTML page from a proxy).
	events int
	head   *headReader
}

// headReader keeps the first bytes read through it, up to max.
type headReader struct {
	r    io.Reader
	head []byte
	max  int
}

func (h *headReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if keep := min(n, h.max-len(h.head)); keep > 0 {
		h.head = append(h.head, p[:keep]...)
	}
	return n, err
}

// streamChunk is the part of a chunk the client reads:
//
//	data: {"id": "chatcmpl-123", "object": "chat.completion.chunk", "created": 1694268190, "model": "gpt-4o-mini",
//	       "choices": [{"index": 0, "delta": {"content": "Hello"}, "logprobs": null, "finish_reason": null}]}
//
// The last chunk may carry only usage, with "choices" empty or null
// (vLLM); a failing server may send {"error": {...}} instead.
type streamChunk struct {
	Model   string `json:"model"`
	Choices []struct {
		Delta struct {
			Content string `json:"content"`
		} `json:"delta"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *Usage          `json:"usage"`
	Error json.RawMessage `json:"error"`
}

func (s *stream) read(body io.Reader) (Reply, error) {
	// Enough of the body for excerpt, which cleans a little more than it
	// shows.
	s.head = &headReader{r: body, max: 256 + len(s.c.secret())}
	events := newEventReader(kickReader{s.head, s.wd})
	for {
		data, err := events.next()
		if err != nil {
			return s.result(s.broken(err))
		}
		s.events++
		if string(data) == "[DONE]" {
			return s.result(nil)
		}
		var ch streamChunk
		if err := json.Unmarshal(data, &ch); err != nil {
			return s.result(errorf("%w: %w: chunk %q: %v", ErrStreamInterrupted, ErrBadResponse, s.c.excerpt(data), s.c.cleanError(err)))
		}
		if err := s.take(&ch, data); err != nil {
			return s.result(err)
		}
	}
}

// take adds a chunk to the reply and hands its text to onDelta.
func (s *stream) take(ch *streamChunk, data []byte) error {
	if len(ch.Error) > 0 && string(ch.Error) != "null" {
		e := &APIError{StatusCode: s.status, RequestID: s.requestID, InStream: true}
		parseErrorBody(e, data)
		s.c.cleanAPIError(e)
		return errorf("%w: %w", ErrStreamInterrupted, e)
	}
	if ch.Model != "" {
		s.reply.Model = ch.Model
	}
	if ch.Usage != nil {
		s.reply.Usage = *ch.Usage
	}
	if len(ch.Choices) == 0 {
		return nil
	}
	if r := ch.Choices[0].FinishReason; r != "" {
		s.reply.FinishReason = r
		// The reply is whole; wait only briefly for what may follow
		// (usage, [DONE]).
		s.wd.d = min(s.wd.d, finishGrace)
	}
	if d := ch.Choices[0].Delta.Content; d != "" {
		if s.text.Len()+len(d) > maxReply {
			return errorf("%w: %w: a reply over %d bytes", ErrStreamInterrupted, ErrTooLarge, maxReply)
		}
		s.text.WriteString(d)
		return s.onDelta(d)
	}
	return nil
}

// broken turns a read error into the stream's error. A stream that ends
// in any way after the model said why it finished is complete even
// without [DONE], which some servers leave out.
func (s *stream) broken(err error) error {
	n := s.text.Len()
	switch {
	case s.ctx.Err() != nil:
		return s.ctx.Err()
	case s.reply.FinishReason != "":
		return nil
	case errors.Is(err, io.EOF) && s.events == 0 && s.head != nil && len(s.head.head) > 0:
		// Not an event stream at all: say what it was, as the
		// embeddings path does for a body it cannot read.
		return errorf("%w: %w: a %d reply with no event (body starts %q)", ErrStreamInterrupted, ErrBadResponse, s.status, s.c.excerpt(s.head.head))
	case errors.Is(err, io.EOF):
		return errorf("%w: the stream ended without [DONE] after %d bytes of reply", ErrStreamInterrupted, n)
	case s.wd.fired.Load():
		return errorf("%w: after %d bytes of reply: %w: no data for %v", ErrStreamInterrupted, n, ErrTimeout, s.wd.d)
	case errors.Is(err, bufio.ErrTooLong), errors.Is(err, ErrTooLarge):
		return errorf("%w: after %d bytes of reply: %w", ErrStreamInterrupted, n, errEventTooLarge)
	}
	return errorf("%w: after %d bytes of reply: %w: %w", ErrStreamInterrupted, n, ErrConnection, s.c.cleanError(err))
}

func (s *stream) result(err error) (Reply, error) {
	s.reply.Content = s.text.String()
	return s.reply, err
}

// whole reads a plain chat completion sent in answer to a stream request
// and hands its text to onDelta in one piece.
func (s *stream) whole(body io.Reader) (Reply, error) {
	data, err := io.ReadAll(io.LimitReader(body, maxReply+1))
	if err != nil {
		return s.result(s.broken(err))
	}
	if len(data) > maxReply {
		return s.result(errorf("%w: %w: a reply over %d bytes", ErrBadResponse, ErrTooLarge, maxReply))
	}
	r, err := s.c.decodeChat(data)
	if err != nil {
		return Reply{}, err
	}
	s.reply = r
	s.text.WriteString(r.Content)
	if r.Content != "" {
		err = s.onDelta(r.Content)
	}
	return s.result(err)
}

// maxEvent bounds the data of one event of a stream, and so each of its
// lines: a chunk of a chat reply is a few hundred bytes.
const maxEvent = 4 << 20

// errEventTooLarge reports an event over maxEvent.
var errEventTooLarge = errorf("%w: %w: an event over %d bytes", ErrBadResponse, ErrTooLarge, maxEvent)

// eventReader splits a server-sent event stream into the data of its
// events (https://html.spec.whatwg.org/multipage/server-sent-events.html):
// lines end with LF or CRLF, a blank line ends an event, lines starting
// with ':' are comments (keep-alives), several data lines join with LF,
// and other fields (event, id, retry) are ignored.
type eventReader struct {
	sc   *bufio.Scanner
	data []byte
}

func newEventReader(r io.Reader) *eventReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxEvent+len("data: \r\n"))
	return &eventReader{sc: sc}
}

// next returns the data of the next event, valid until the following
// call, or io.EOF at the end of the stream. As the standard says, an
// event cut off by the end of the stream is dropped, except a bare
// "[DONE]".
func (r *eventReader) next() ([]byte, error) {
	r.data = r.data[:0]
	seen := false
	for r.sc.Scan() {
		line := r.sc.Bytes()
		if len(line) == 0 {
			if seen {
				return r.data[:len(r.data)-1], nil
			}
			continue
		}
		field, value, _ := bytes.Cut(line, []byte{':'})
		if string(field) != "data" {
			continue
		}
		value = bytes.TrimPrefix(value, []byte{' '})
		if len(r.data)+len(value) > maxEvent {
			return nil, errEventTooLarge
		}
		r.data = append(append(r.data, value...), '\n')
		seen = true
	}
	if err := r.sc.Err(); err != nil {
		return nil, err
	}
	if seen && string(r.data) == "[DONE]\n" {
		return r.data[:len(r.data)-1], nil
	}
	return nil, io.EOF
}

// finishGrace is how long a stream may stay silent after the model said
// why it finished.
const finishGrace = time.Second

// A watchdog cancels a stream's context when the server stays silent for
// longer than d. It runs only while the client waits for the server: for
// the response to begin, then during each read of the body (see
// kickReader), never while the caller's onDelta runs.
type watchdog struct {
	timer  *time.Timer
	d      time.Duration
	cancel context.CancelFunc
	fired  atomic.Bool
}

// newWatchdog returns a watchdog running for d, and the context it
// cancels.
func newWatchdog(ctx context.Context, d time.Duration) (context.Context, *watchdog) {
	actx, cancel := context.WithCancel(ctx)
	w := &watchdog{d: d, cancel: cancel}
	w.timer = time.AfterFunc(d, func() {
		w.fired.Store(true)
		cancel()
	})
	return actx, w
}

func (w *watchdog) arm()    { w.timer.Reset(w.d) }
func (w *watchdog) disarm() { w.timer.Stop() }

func (w *watchdog) stop() {
	w.timer.Stop()
	w.cancel()
}

// kickReader runs the watchdog while a read waits for the server. Any
// byte ends the wait, keep-alive comments included: they are how a
// server says it is still working.
type kickReader struct {
	r  io.Reader
	wd *watchdog
}

func (k kickReader) Read(p []byte) (int, error) {
	k.wd.arm()
	n, err := k.r.Read(p)
	k.wd.disarm()
	return n, err
}
