package openai_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/llm/openai"
)

// streamOf serves events (written as given, flushed one by one) and then
// ends the response cleanly.
func streamOf(t *testing.T, events ...string) *openai.Client {
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "text/event-stream", r.Header.Get("Accept"))
		sse(w)
		for _, e := range events {
			io.WriteString(w, e)
			flush(w)
		}
	})
	return newClient(t, fastConfig(srv))
}

// collect streams a reply and returns the deltas it got.
func collect(c *openai.Client) ([]string, openai.Reply, error) {
	var deltas []string
	r, err := c.ChatStream(context.Background(), hello, openai.ChatOptions{Model: "m"}, func(d string) error {
		deltas = append(deltas, d)
		return nil
	})
	return deltas, r, err
}

func TestChatStream(t *testing.T) {
	usageOnly := `data: {"id":"chatcmpl-123","object":"chat.completion.chunk","created":1694268190,"model":"gpt-4o-mini-2024-07-18","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":3,"total_tokens":12}}` + "\n\n"
	usageNull := `data: {"id":"chatcmpl-123","object":"chat.completion.chunk","created":1694268190,"model":"m","choices":null,"usage":{"prompt_tokens":9,"completion_tokens":3,"total_tokens":12}}` + "\n\n"
	tests := []struct {
		name   string
		events []string
		usage  openai.Usage
	}{
		{name: "OpenAI", events: []string{chunk("", ""), chunk("Hello", ""), chunk(" there", ""), chunk("!", ""), chunk("", "stop"), "data: [DONE]\n\n"}},
		{name: "keep-alive comments", events: []string{": keep-alive\n\n", chunk("", ""), ": OPENROUTER PROCESSING\n\n", chunk("Hello", ""), ":\n", chunk(" there", ""), chunk("!", ""), chunk("", "stop"), "data: [DONE]\n\n"}},
		{name: "CRLF lines", events: []string{crlf(chunk("Hello", "")), crlf(chunk(" there", "")), crlf(chunk("!", "stop")), "data: [DONE]\r\n\r\n"}},
		{name: "event and id fields", events: []string{"event: message\nid: 1\n" + chunk("Hello", ""), "retry: 1000\n" + chunk(" there", ""), chunk("!", "stop"), "data:[DONE]\n\n"}},
		{name: "usage chunk", events: []string{chunk("Hello", ""), chunk(" there", ""), chunk("!", "stop"), usageOnly, "data: [DONE]\n\n"}, usage: openai.Usage{PromptTokens: 9, CompletionTokens: 3, TotalTokens: 12}},
		{name: "vLLM usage chunk with null choices", events: []string{chunk("Hello", ""), chunk(" there", ""), chunk("!", "stop"), usageNull, "data: [DONE]\n\n"}, usage: openai.Usage{PromptTokens: 9, CompletionTokens: 3, TotalTokens: 12}},
		{name: "no [DONE] after finish", events: []string{chunk("Hello", ""), chunk(" there", ""), chunk("!", ""), chunk("", "stop")}},
		{name: "[DONE] without a blank line", events: []string{chunk("Hello", ""), chunk(" there", ""), chunk("!", "stop"), "data: [DONE]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			deltas, r, err := collect(streamOf(t, tt.events...))
			require.NoError(t, err)
			assert.Equal(t, []string{"Hello", " there", "!"}, deltas)
			assert.Equal(t, "Hello there!", r.Content)
			assert.Equal(t, "stop", r.FinishReason)
			assert.NotEmpty(t, r.Model)
			assert.Equal(t, tt.usage, r.Usage)
		})
	}
}

// stallAfter streams one chunk of content and then falls silent until
// the client goes.
func stallAfter(content string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		sse(w)
		io.WriteString(w, chunk(content, ""))
		flush(w)
		<-r.Context().Done()
	}
}

func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

func TestChatStreamRequest(t *testing.T) {
	var body atomic.Value
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		body.Store(string(raw))
		sse(w)
		io.WriteString(w, chunk("ok", "stop")+"data: [DONE]\n\n")
	})
	_, err := newClient(t, fastConfig(srv)).ChatStream(context.Background(), hello, openai.ChatOptions{Model: "llama3.2"}, func(string) error { return nil })
	require.NoError(t, err)
	assert.JSONEq(t, `{"model":"llama3.2","messages":[{"role":"user","content":"Hello"}],"temperature":0,"stream":true}`, body.Load().(string))
}

func TestChatStreamDropped(t *testing.T) {
	var n atomic.Int64
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		sse(w)
		io.WriteString(w, chunk("", "")+chunk("The policy", "")+chunk(" allows", ""))
		flush(w)
		panic(http.ErrAbortHandler) // the connection drops mid-stream
	})
	deltas, r, err := collect(newClient(t, fastConfig(srv)))
	require.ErrorIs(t, err, openai.ErrStreamInterrupted)
	require.ErrorIs(t, err, openai.ErrConnection)
	assert.Contains(t, err.Error(), "after 17 bytes of reply")
	assert.Equal(t, []string{"The policy", " allows"}, deltas)
	assert.Equal(t, "The policy allows", r.Content)
	assert.Empty(t, r.FinishReason)
	assert.Equal(t, int64(1), n.Load(), "a stream that has begun is not sent again")
}

func TestChatStreamEndsEarly(t *testing.T) {
	_, r, err := collect(streamOf(t, chunk("Half", ""), chunk(" an answer", "")))
	require.ErrorIs(t, err, openai.ErrStreamInterrupted)
	assert.Contains(t, err.Error(), "ended without [DONE] after 14 bytes")
	assert.Equal(t, "Half an answer", r.Content)
}

func TestChatStreamCutMidEvent(t *testing.T) {
	_, r, err := collect(streamOf(t, chunk("Half", ""), `data: {"id":"chatcmpl-123","choi`))
	require.ErrorIs(t, err, openai.ErrStreamInterrupted)
	assert.Equal(t, "Half", r.Content)
}

func TestChatStreamSilent(t *testing.T) {
	srv := server(t, stallAfter("Thinking"))
	cfg := fastConfig(srv)
	cfg.StallTimeout = 100 * time.Millisecond
	_, r, err := collect(newClient(t, cfg))
	require.ErrorIs(t, err, openai.ErrStreamInterrupted)
	require.ErrorIs(t, err, openai.ErrTimeout)
	assert.Equal(t, "openai: stream interrupted: after 8 bytes of reply: request timed out: no data for 100ms", err.Error())
	assert.Equal(t, "Thinking", r.Content)
}

func TestChatStreamNoHeaders(t *testing.T) {
	var n atomic.Int64
	srv := server(t, counted(&n, hang(nil)))
	cfg := fastConfig(srv)
	cfg.Timeout = 50 * time.Millisecond
	_, _, err := collect(newClient(t, cfg))
	require.ErrorIs(t, err, openai.ErrTimeout)
	assert.NotErrorIs(t, err, openai.ErrStreamInterrupted)
	assert.Equal(t, int64(3), n.Load(), "the opening is retried")
}

// Keep-alive comments count as signs of life: a stream that sends them
// more often than Timeout is not cut, however long the model thinks.
func TestChatStreamKeepAliveResetsTimeout(t *testing.T) {
	const timeout = 500 * time.Millisecond
	var stalled atomic.Bool
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		sse(w)
		start, last := time.Now(), time.Now()
		for time.Since(start) < 2*timeout {
			io.WriteString(w, ": keep-alive\n\n")
			flush(w)
			time.Sleep(20 * time.Millisecond)
			if time.Since(last) > timeout/2 {
				stalled.Store(true)
			}
			last = time.Now()
		}
		io.WriteString(w, chunk("Done", "stop")+"data: [DONE]\n\n")
	})
	cfg := fastConfig(srv)
	cfg.StallTimeout = timeout
	_, r, err := collect(newClient(t, cfg))
	if err != nil && stalled.Load() {
		t.Skip("the machine stalled the server for longer than the keep-alive interval the test relies on")
	}
	require.NoError(t, err)
	assert.Equal(t, "Done", r.Content)
}

func TestChatStreamErrorEvent(t *testing.T) {
	c := streamOf(t, chunk("Partial", ""), `data: {"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}`+"\n\n")
	_, r, err := collect(c)
	require.ErrorIs(t, err, openai.ErrStreamInterrupted)
	var apiErr *openai.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.True(t, apiErr.InStream)
	assert.Equal(t, "openai: stream interrupted: error event in the stream (server_error): The server had an error while processing your request. Sorry about that!", err.Error())
	assert.NotErrorIs(t, err, openai.ErrBadRequest)
	assert.Equal(t, "server_error", apiErr.Type)
	assert.Equal(t, "The server had an error while processing your request. Sorry about that!", apiErr.Message)
	assert.Equal(t, "Partial", r.Content)
}

func TestChatStreamBadChunk(t *testing.T) {
	_, r, err := collect(streamOf(t, chunk("Partial", ""), "data: {not json}\n\n"))
	require.ErrorIs(t, err, openai.ErrStreamInterrupted)
	require.ErrorIs(t, err, openai.ErrBadResponse)
	assert.Equal(t, "Partial", r.Content)
}

func TestChatStreamRetriesOpening(t *testing.T) {
	var n atomic.Int64
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			writeJSON(w, 503, apiError("The engine is currently overloaded, please try again later.", "server_error", ""))
			return
		}
		sse(w)
		io.WriteString(w, chunk("Fine", "stop")+"data: [DONE]\n\n")
	})
	_, r, err := collect(newClient(t, fastConfig(srv)))
	require.NoError(t, err)
	assert.Equal(t, "Fine", r.Content)
	assert.Equal(t, int64(2), n.Load())
}

func TestChatStreamCallbackStops(t *testing.T) {
	stop := errors.New("enough")
	c := streamOf(t, chunk("One", ""), chunk(" two", ""), chunk(" three", "stop"), "data: [DONE]\n\n")
	var got []string
	r, err := c.ChatStream(context.Background(), hello, openai.ChatOptions{Model: "m"}, func(d string) error {
		got = append(got, d)
		if len(got) == 2 {
			return stop
		}
		return nil
	})
	require.ErrorIs(t, err, stop)
	assert.Equal(t, []string{"One", " two"}, got)
	assert.Equal(t, "One two", r.Content)
}

func TestChatStreamCancel(t *testing.T) {
	srv := server(t, stallAfter("One"))
	ctx, cancel := context.WithCancel(context.Background())
	c := newClient(t, fastConfig(srv))
	var r openai.Reply
	err := within(t, func() error {
		var err error
		r, err = c.ChatStream(ctx, hello, openai.ChatOptions{Model: "m"}, func(string) error { cancel(); return nil })
		return err
	})
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, "One", r.Content)
}

func TestChatStreamServerIgnoresStream(t *testing.T) {
	srv := server(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, chatCompletion("All at once.", "stop"))
	})
	deltas, r, err := collect(newClient(t, fastConfig(srv)))
	require.NoError(t, err)
	assert.Equal(t, []string{"All at once."}, deltas)
	assert.Equal(t, "stop", r.FinishReason)
}

func TestChatStreamNilCallback(t *testing.T) {
	c := streamOf(t)
	_, err := c.ChatStream(context.Background(), hello, openai.ChatOptions{Model: "m"}, nil)
	require.ErrorIs(t, err, openai.ErrConfig)
}

// The time onDelta takes is not the server's silence: a caller slower
// than StallTimeout still gets the whole reply.
func TestChatStreamSlowCallback(t *testing.T) {
	c := streamOf(t, chunk("One", ""), chunk(" two", ""), chunk(" three", "stop"), "data: [DONE]\n\n")
	cfg := c.Config()
	cfg.StallTimeout = 50 * time.Millisecond
	c = newClient(t, cfg)
	r, err := c.ChatStream(context.Background(), hello, openai.ChatOptions{Model: "m"}, func(string) error {
		time.Sleep(150 * time.Millisecond)
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, "One two three", r.Content)
}

// Once the model said why it finished, the reply is whole: a stream that
// then drops or stays silent without [DONE] is a success.
func TestChatStreamFinishedWithoutDone(t *testing.T) {
	tests := map[string]func(w http.ResponseWriter, r *http.Request){
		"dropped": func(w http.ResponseWriter, r *http.Request) { panic(http.ErrAbortHandler) },
		"silent":  func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() },
	}
	for name, then := range tests {
		t.Run(name, func(t *testing.T) {
			srv := server(t, func(w http.ResponseWriter, r *http.Request) {
				sse(w)
				io.WriteString(w, chunk("Whole", "")+chunk(" answer.", "stop"))
				flush(w)
				then(w, r)
			})
			_, r, err := collect(newClient(t, fastConfig(srv)))
			require.NoError(t, err)
			assert.Equal(t, "Whole answer.", r.Content)
			assert.Equal(t, "stop", r.FinishReason)
		})
	}
}

// Errors name their package once, whatever they wrap.
func TestErrorTextsHaveOnePrefix(t *testing.T) {
	var n atomic.Int64
	srv := server(t, counted(&n, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 503, apiError("overloaded", "server_error", ""))
	}))
	e, err := openai.NewEmbedder(openai.EmbedderConfig{Client: newClient(t, fastConfig(srv)), Model: "m"})
	require.NoError(t, err)
	_, err = e.Embed(context.Background(), []string{"a text"})
	require.ErrorIs(t, err, openai.ErrServer)
	assert.Equal(t, "openai: 503 Service Unavailable (server_error): overloaded (gave up after 3 attempts): batch 1 of 1 (texts 0-0)", err.Error())
	_, _, err = collect(streamOf(t, chunk("Half", "")))
	assert.Equal(t, "openai: stream interrupted: the stream ended without [DONE] after 4 bytes of reply", err.Error())
}
