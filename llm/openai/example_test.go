package openai_test

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"time"

	"github.com/ragkit/ragkit/llm/openai"
)

// fakeOpenAI stands in for the API in the examples: it answers chat
// completions (plain and streamed) with a fixed reply, embeddings with
// small vectors, in reverse order as a server may, and reranking with
// the number of the query's words in each text, minus 2.
func fakeOpenAI() *httptest.Server {
	const answer = "Taxis are refunded up to 40 EUR a ride."
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/rerank" {
			(&rerankAPI{shape: "results", score: "relevance_score"}).ServeHTTP(w, r)
			return
		}
		var req struct {
			Stream bool     `json:"stream"`
			Input  []string `json:"input"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		switch {
		case r.URL.Path == "/v1/embeddings":
			writeJSON(w, 200, embeddings("nomic-embed-text", req.Input, true))
		case req.Stream:
			sse(w)
			for _, piece := range strings.SplitAfter(answer, " ") {
				io.WriteString(w, chunk(piece, ""))
			}
			io.WriteString(w, chunk("", "stop")+"data: [DONE]\n\n")
		default:
			writeJSON(w, 200, chatCompletion(answer, "stop"))
		}
	}))
}

func ExampleClient_Chat() {
	srv := fakeOpenAI() // stands in for http://localhost:11434/v1 (Ollama)
	defer srv.Close()

	c, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1"})
	if err != nil {
		panic(err)
	}
	reply, err := c.Chat(context.Background(), []openai.Message{
		{Role: openai.RoleSystem, Content: "Answer from the context only."},
		{Role: openai.RoleUser, Content: "Context: ...\n\nQuestion: Are taxis refunded?"},
	}, openai.ChatOptions{Model: "llama3.2"})
	if err != nil {
		panic(err)
	}
	fmt.Println(reply.Content)
	fmt.Println(reply.FinishReason)
	// Output:
	// Taxis are refunded up to 40 EUR a ride.
	// stop
}

func ExampleClient_ChatStream() {
	srv := fakeOpenAI()
	defer srv.Close()

	c, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1"})
	if err != nil {
		panic(err)
	}
	msgs := []openai.Message{{Role: openai.RoleUser, Content: "Are taxis refunded?"}}
	reply, err := c.ChatStream(context.Background(), msgs, openai.ChatOptions{Model: "llama3.2"}, func(delta string) error {
		fmt.Printf("[%s]", delta) // a terminal would print delta as it comes
		return nil
	})
	if err != nil {
		// With ErrStreamInterrupted, reply.Content holds what arrived.
		panic(err)
	}
	fmt.Println()
	fmt.Println(len(reply.Content), "bytes")
	// Output:
	// [Taxis ][are ][refunded ][up ][to ][40 ][EUR ][a ][ride.]
	// 39 bytes
}

func ExampleEmbedder() {
	srv := fakeOpenAI()
	defer srv.Close()

	c, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1"})
	if err != nil {
		panic(err)
	}
	emb, err := openai.NewEmbedder(openai.EmbedderConfig{
		Client:        c,
		Model:         "nomic-embed-text",
		BatchSize:     2,    // two texts per request: two requests here
		MaxTextTokens: 2048, // the context Ollama gives the model
	})
	if err != nil {
		panic(err)
	}
	texts := []string{"Taxis", "Rail", "Hotel stays"}
	vectors, err := emb.Embed(context.Background(), texts)
	if err != nil {
		panic(err)
	}
	// The fake server's vectors start with the length of their text:
	// each text gets its own, whatever order the server answered in.
	for i, v := range vectors {
		fmt.Println(texts[i], len(v), v[0])
	}
	// Output:
	// Taxis 3 5
	// Rail 3 4
	// Hotel stays 3 11
}

func ExampleReranker() {
	srv := fakeOpenAI() // stands in for http://localhost:8000/v1 (vLLM)
	defer srv.Close()

	c, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1"})
	if err != nil {
		panic(err)
	}
	rr, err := openai.NewReranker(openai.RerankerConfig{Client: c, Model: "BAAI/bge-reranker-v2-m3"})
	if err != nil {
		panic(err)
	}
	passages := []string{
		"Hotel stays are booked through the travel desk.",
		"Taxis on business travel are refunded.",
		"The cafeteria opens at eight.",
	}
	scores, err := rr.Rerank(context.Background(), "Taxis business travel", passages)
	if err != nil {
		panic(err)
	}
	// One score per passage, in the passages' order; higher is more
	// relevant (this model's scores are not probabilities).
	order := []int{0, 1, 2}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
	for _, i := range order {
		fmt.Printf("%+.0f %s\n", scores[i], passages[i])
	}
	// Output:
	// +1 Taxis on business travel are refunded.
	// -1 Hotel stays are booked through the travel desk.
	// -2 The cafeteria opens at eight.
}

func ExampleSummarizer() {
	srv := fakeOpenAI()
	defer srv.Close()

	c, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1"})
	if err != nil {
		panic(err)
	}
	sum, err := openai.NewSummarizer(openai.SummarizerConfig{Client: c, Model: "llama3.2", MaxTokens: 120})
	if err != nil {
		panic(err)
	}
	// contextheader passes the whole prompt, instruction and document.
	summary, err := sum.Summarize(context.Background(), "Summarize this document in one sentence:\n\n# Ground transport\n...")
	if err != nil {
		panic(err)
	}
	fmt.Println(summary)
	// Output:
	// Taxis are refunded up to 40 EUR a ride.
}

func ExampleAPIError() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "20")
		writeJSON(w, 429, `{"error":{"message":"Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3, Used 3, Requested 1.","type":"requests","param":null,"code":"rate_limit_exceeded"}}`)
	}))
	defer srv.Close()

	// Wait at most 10 s when asked: the server asks for 20, so the error
	// comes back at once for the caller to schedule.
	c, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1", MaxRetryAfter: 10 * time.Second})
	if err != nil {
		panic(err)
	}
	_, err = c.Chat(context.Background(), []openai.Message{{Role: openai.RoleUser, Content: "Hi"}}, openai.ChatOptions{Model: "gpt-4o-mini"})
	var apiErr *openai.APIError
	switch {
	case errors.Is(err, openai.ErrRateLimited) && errors.As(err, &apiErr):
		fmt.Println("rate limited; retry in", apiErr.RetryAfter)
	case errors.Is(err, openai.ErrAuth):
		fmt.Println("check the API key")
	}
	fmt.Println(err)
	// Output:
	// rate limited; retry in 20s
	// openai: 429 Too Many Requests (requests, rate_limit_exceeded): Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3, Used 3, Requested 1.
}
