package openai_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/llm/openai"
)

// BenchmarkEmbed measures the client's cost per batch (encoding the
// request, reading and decoding the response, placing the vectors)
// against a local server that answers with a prepared body.
func BenchmarkEmbed(b *testing.B) {
	for _, dim := range []int{384, 1536} {
		for _, n := range []int{16, 256} {
			b.Run(fmt.Sprintf("dim=%d/texts=%d", dim, n), func(b *testing.B) {
				body := openai.EmbeddingsBody(n, dim)
				srv := server(b, func(w http.ResponseWriter, r *http.Request) {
					io.Copy(io.Discard, r.Body)
					w.Header().Set("Content-Type", "application/json")
					w.Write(body)
				})
				e, err := openai.NewEmbedder(openai.EmbedderConfig{Client: newClient(b, fastConfig(srv)), Model: "m", BatchSize: n})
				if err != nil {
					b.Fatal(err)
				}
				in := texts(n)
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := e.Embed(context.Background(), in); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkChatStream measures reading a streamed reply of many small
// chunks, as a model sends them.
func BenchmarkChatStream(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("chunks=%d", n), func(b *testing.B) {
			var s strings.Builder
			for i := range n {
				s.WriteString(chunk(fmt.Sprintf(" word%d", i), ""))
			}
			s.WriteString(chunk("", "stop") + "data: [DONE]\n\n")
			body := s.String()
			srv := server(b, func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				sse(w)
				io.WriteString(w, body)
			})
			c := newClient(b, fastConfig(srv))
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.ChatStream(context.Background(), hello, openai.ChatOptions{Model: "m"}, func(string) error { return nil }); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
