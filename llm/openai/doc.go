// Package openai connects ragkit to the models people run: OpenAI, and the
// servers that speak its HTTP API (Ollama, vLLM, llama.cpp's server, LM
// Studio). It uses net/http and the standard library only.
//
// A [Client] holds the endpoint, the key and the retry policy. On it:
//
//   - an [Embedder] (POST /embeddings) implements vectorstore.Embedder:
//     texts are checked and counted first, sent in batches bounded by
//     count and by tokens, several batches in flight, and the vectors
//     come back in the order of the texts whatever order the server
//     answers in; the vectors are read by a decoder made for the
//     response's shape, in one pass without reflection, one allocation
//     per vector;
//   - a [Summarizer] (POST /chat/completions) implements
//     contextheader.Summarizer;
//   - a [Reranker] (POST /rerank) scores passages against a query, as
//     a retrieve.Reranker;
//   - a [Condenser] (POST /chat/completions) is a retrieve.Rewriter: it
//     turns a follow-up question and the last turns of a conversation
//     into one standalone question, with a documented prompt
//     ([DefaultCondensePrompt]) and a bounded reply;
//   - [Client.Chat] answers a conversation, and [Client.ChatStream]
//     streams the answer as it is written.
//
// # Pointing it at a server
//
// OpenAI, with the key in $OPENAI_API_KEY:
//
//	c, err := openai.New(openai.Config{}) // https://api.openai.com/v1
//	emb, err := openai.NewEmbedder(openai.EmbedderConfig{Client: c, Model: "text-embedding-3-small"})
//	sum, err := openai.NewSummarizer(openai.SummarizerConfig{Client: c, Model: "gpt-4o-mini"})
//	cond, err := openai.NewCondenser(openai.CondenserConfig{Client: c, Model: "gpt-4o-mini"}) // retrieve.Config.Rewriter
//	reply, err := c.Chat(ctx, msgs, openai.ChatOptions{Model: "gpt-4o-mini"})
//
// Ollama (after "ollama pull llama3.2" and "ollama pull nomic-embed-text";
// no key):
//
//	c, err := openai.New(openai.Config{BaseURL: "http://localhost:11434/v1"})
//	emb, err := openai.NewEmbedder(openai.EmbedderConfig{Client: c, Model: "nomic-embed-text", MaxTextTokens: 2048})
//	reply, err := c.Chat(ctx, msgs, openai.ChatOptions{Model: "llama3.2"})
//
// vLLM, llama.cpp's server and LM Studio work the same way with their
// base URLs (by default http://localhost:8000/v1, http://localhost:8080/v1
// and http://localhost:1234/v1). An empty [Config.BaseURL] means
// $OPENAI_BASE_URL, then OpenAI. An empty [Config.APIKey] means
// $OPENAI_API_KEY, whatever the base URL: the key is sent to the server
// the base URL names, so with that variable set, point the client only at
// servers you would give the key to.
//
// # Failures
//
// Each attempt has [Config.Timeout] (30 s by default) and a whole call,
// retries and waits included, [Config.Deadline] (90 s): a server that
// does not answer fails a call with [ErrTimeout] within the Deadline. A
// stream that has begun may be silent for [Config.StallTimeout] (30 s)
// between two pieces; the time the caller's callback takes does not
// count.
//
// Requests that fail for a reason that may pass (429, 5xx, a timeout, a
// connection that could not be made or broke before the response was
// complete) are retried up to [Config.MaxRetries] times, after a wait
// drawn at random up to an exponentially growing ceiling ("full jitter"),
// or after the wait the server asked for with Retry-After (seconds or an
// HTTP date) or retry-after-ms, up to [Config.MaxRetryAfter], plus a
// little jitter so that requests turned away together do not come back
// together. Other 4xx
// answers are not retried, nor is a 429 that says the quota is spent.
// Cancelling the context stops a request or a wait at once.
//
// Every size a server controls is bounded before it is read into memory
// (an event of a stream, a reply, an embeddings body, a vector): a larger
// one is an error wrapping [ErrTooLarge].
//
// An error answer is an [*APIError] with the HTTP status and the API's
// type, code and message, whatever shape of error body the server uses; it
// matches the sentinel of its class with errors.Is ([ErrRateLimited],
// [ErrAuth], [ErrNotFound], [ErrContextLength], ...). Errors about input
// name the text or message at fault; errors of the [Embedder] say which
// batch and which texts failed.
//
// # The API key
//
// The key is sent, as a bearer token, to the server [Config.BaseURL]
// names, whichever that is (a key from $OPENAI_API_KEY too), and to no
// other: a redirect is followed only to the same origin (scheme, host and
// port), so that neither the key nor a request's body reaches another
// server; a redirect elsewhere is an [*APIError] with its status. It never
// appears in an error, a log record or the printed form of a [Config] or
// [Client] (with any fmt verb, log/slog or encoding/json): every string
// the client makes from what a server sent (an error's message, type and
// code, a request ID, a piece of a body, a transport error) has the key
// removed before it is cut to length, and a start of the key left at a
// cut is removed too; the client keeps the key where reflection-based
// printers cannot reach it.
package openai
