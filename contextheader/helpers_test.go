package contextheader_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/tokencount"
)

func cl100k(t testing.TB) tokencount.Tokenizer {
	t.Helper()
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(t, err)
	return tok
}

// fakeSummarizer counts its calls and answers from a function of the
// prompt it was given; it records every prompt.
type fakeSummarizer struct {
	answer func(ctx context.Context, text string) (string, error)

	calls    atomic.Int64
	inFlight atomic.Int64
	maxIn    atomic.Int64

	mu      sync.Mutex
	prompts []string
}

func (f *fakeSummarizer) Summarize(ctx context.Context, text string) (string, error) {
	f.calls.Add(1)
	n := f.inFlight.Add(1)
	defer f.inFlight.Add(-1)
	for {
		m := f.maxIn.Load()
		if n <= m || f.maxIn.CompareAndSwap(m, n) {
			break
		}
	}
	f.mu.Lock()
	f.prompts = append(f.prompts, text)
	f.mu.Unlock()
	if f.answer == nil {
		return "A summary.", nil
	}
	return f.answer(ctx, text)
}

func (f *fakeSummarizer) Calls() int { return int(f.calls.Load()) }

func (f *fakeSummarizer) Prompts() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.prompts...)
}

// docSummarizer also implements DocumentSummarizer and records what it
// was given there.
type docSummarizer struct {
	fakeSummarizer
	documents []string
}

func (d *docSummarizer) SummarizeDocument(_ context.Context, document string) (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.documents = append(d.documents, document)
	return "From the document.", nil
}

// failingCache fails every Get or every Put.
type failingCache struct {
	get bool
	contextheader.MemoryCache
}

var errDisk = errors.New("disk full")

func (c *failingCache) Get(ctx context.Context, key string) (string, bool, error) {
	if c.get {
		return "", false, errDisk
	}
	return c.MemoryCache.Get(ctx, key)
}

func (c *failingCache) Put(ctx context.Context, key, value string) error {
	if !c.get {
		return errDisk
	}
	return c.MemoryCache.Put(ctx, key, value)
}

// split chunks doc with tok at maxTokens.
func split(t testing.TB, tok tokencount.Tokenizer, maxTokens int, doc document.Document) []chunker.Chunk {
	t.Helper()
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: maxTokens, Format: doc.Format})
	require.NoError(t, err)
	chunks, err := c.Split(doc.Text)
	require.NoError(t, err)
	return chunks
}

func newDecorator(t testing.TB, cfg contextheader.Config) *contextheader.Decorator {
	t.Helper()
	d, err := contextheader.New(cfg)
	require.NoError(t, err)
	return d
}

// paragraphs returns a text of n paragraphs, each naming its number.
func paragraphs(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("Paragraph ")
		b.WriteString(strings.Repeat("x", i%7+1))
		b.WriteString(" says something of its own here. It goes on for a second sentence.")
	}
	return b.String()
}

// cutAt cuts text into chunks that start where each of starts first
// occurs, trimmed of white space, with exact counts by tok.
func cutAt(t testing.TB, tok tokencount.Tokenizer, text string, starts ...string) []chunker.Chunk {
	t.Helper()
	offsets := []int{0}
	for _, s := range starts {
		i := strings.Index(text, s)
		require.Greater(t, i, offsets[len(offsets)-1], "start %q", s)
		offsets = append(offsets, i)
	}
	offsets = append(offsets, len(text))
	var out []chunker.Chunk
	for i := range len(offsets) - 1 {
		s, e := offsets[i], offsets[i+1]
		for s < e && strings.ContainsRune(" \t\r\n", rune(text[s])) {
			s++
		}
		for e > s && strings.ContainsRune(" \t\r\n", rune(text[e-1])) {
			e--
		}
		out = append(out, chunker.Chunk{Index: len(out), Start: s, End: e, Text: text[s:e], Tokens: tok.Count(text[s:e])})
	}
	return out
}
