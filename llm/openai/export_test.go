package openai

import (
	"context"
	"time"
)

// SetSleep replaces the wait between c's attempts, so that tests can see
// the waits without spending them.
func SetSleep(c *Client, f func(ctx context.Context, d time.Duration) error) { c.sleep = f }

// MaxMessage is the cap on a message taken from a body that is not JSON.
const MaxMessage = maxMessage

// EmbeddingsBody is an embeddings response of n random vectors of dim
// dimensions, as OpenAI sends it.
func EmbeddingsBody(n, dim int) []byte { return embeddingsBody(n, dim) }
