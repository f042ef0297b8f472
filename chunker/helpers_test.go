package chunker_test

import (
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/rivo/uniseg"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/internal/testcorpus"
	"github.com/ragkit/ragkit/tokencount"
)

var (
	cl100kOnce sync.Once
	cl100kTok  tokencount.Tokenizer
)

// cl100k returns the cl100k_base encoding.
func cl100k(t testing.TB) tokencount.Tokenizer {
	t.Helper()
	cl100kOnce.Do(func() {
		var err error
		if cl100kTok, err = tokencount.Encoding("cl100k_base"); err != nil {
			panic(err)
		}
	})
	return cl100kTok
}

func mustNew(t testing.TB, cfg chunker.Config) *chunker.Chunker {
	t.Helper()
	c, err := chunker.New(cfg)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	return c
}

// split makes a Chunker, splits text and checks the contract.
func split(t testing.TB, cfg chunker.Config, text string) []chunker.Chunk {
	t.Helper()
	chunks, err := mustNew(t, cfg).Split(text)
	if err != nil {
		t.Fatalf("Split: %v", err)
	}
	checkContract(t, cfg, text, chunks)
	return chunks
}

// checkContract checks everything Split promises about its chunks.
func checkContract(t testing.TB, cfg chunker.Config, text string, chunks []chunker.Chunk) {
	t.Helper()
	if len(chunks) == 0 {
		t.Fatal("no chunks for a non-empty text")
	}
	if !allSpace(text[:chunks[0].Start]) {
		t.Fatalf("non-space text before the first chunk: %q", clip(text[:chunks[0].Start]))
	}
	if chunks[0].Boundary != chunker.DocumentStart {
		t.Errorf("first chunk has Boundary %v", chunks[0].Boundary)
	}
	bounds := graphemeBounds(text)
	for i, c := range chunks {
		// Chunks start and end at grapheme boundaries, but where a
		// grapheme too long for a chunk was cut at a code point.
		if cfg.KeepGraphemes && c.Boundary == chunker.Rune {
			t.Fatalf("chunk %d is cut inside a grapheme with KeepGraphemes", i)
		}
		if !bounds[c.Start] && c.Boundary != chunker.Rune {
			t.Fatalf("chunk %d starts inside a grapheme at %d", i, c.Start)
		}
		if !bounds[c.End] && (i+1 == len(chunks) || chunks[i+1].Boundary != chunker.Rune) {
			t.Fatalf("chunk %d ends inside a grapheme at %d", i, c.End)
		}
		if c.Index != i {
			t.Fatalf("chunk %d has Index %d", i, c.Index)
		}
		if c.Start < 0 || c.End > len(text) || c.Start >= c.End {
			t.Fatalf("chunk %d has bad offsets [%d,%d) in %d bytes", i, c.Start, c.End, len(text))
		}
		if text[c.Start:c.End] != c.Text {
			t.Fatalf("chunk %d: Text is not text[Start:End]", i)
		}
		// Trimmed in whole grapheme clusters: a space that carries a
		// combining mark or a joiner is not white space.
		if first, last := edgeClusters(c.Text); allSpace(first) || allSpace(last) {
			t.Fatalf("chunk %d starts or ends with white space: %q", i, clip(c.Text))
		}
		if n := cfg.Tokenizer.Count(c.Text); n != c.Tokens {
			t.Fatalf("chunk %d: Tokens = %d, exact count %d", i, c.Tokens, n)
		}
		if c.Tokens > cfg.MaxTokens {
			t.Fatalf("chunk %d: %d tokens, over MaxTokens %d", i, c.Tokens, cfg.MaxTokens)
		}
		if i == 0 {
			continue
		}
		p := chunks[i-1]
		if c.Boundary == chunker.DocumentStart {
			t.Errorf("chunk %d has Boundary DocumentStart", i)
		}
		if cfg.OverlapTokens == 0 || c.Start >= p.End {
			if c.Start < p.End {
				t.Fatalf("chunks %d and %d overlap without OverlapTokens", i-1, i)
			}
			if !allSpace(text[p.End:c.Start]) {
				t.Fatalf("non-space text between chunks %d and %d: %q", i-1, i, clip(text[p.End:c.Start]))
			}
			continue
		}
		if c.Start <= p.Start || c.End <= p.End {
			t.Fatalf("chunk %d [%d,%d) does not move on from chunk %d [%d,%d)", i, c.Start, c.End, i-1, p.Start, p.End)
		}
		if n := cfg.Tokenizer.Count(text[c.Start:p.End]); n > cfg.OverlapTokens {
			t.Fatalf("chunk %d repeats %d tokens, over OverlapTokens %d", i, n, cfg.OverlapTokens)
		}
	}
	if last := chunks[len(chunks)-1]; !allSpace(text[last.End:]) {
		t.Fatalf("non-space text after the last chunk: %q", clip(text[last.End:]))
	}
}

// edgeClusters returns the first and last grapheme clusters of s, by uniseg.
func edgeClusters(s string) (first, last string) {
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		if first == "" {
			first = g.Str()
		}
		last = g.Str()
	}
	return first, last
}

func allSpace(s string) bool {
	return strings.TrimFunc(s, unicode.IsSpace) == ""
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:40] + "..." + s[len(s)-40:]
	}
	return s
}

// corpus reads a text from the library's testdata.
func corpus(t testing.TB, name string) string {
	t.Helper()
	return testcorpus.Must(t, name)
}

// stats summarises chunk sizes.
type stats struct {
	n, min, max, sum int
}

func sizes(chunks []chunker.Chunk) stats {
	s := stats{n: len(chunks), min: chunks[0].Tokens}
	for _, c := range chunks {
		s.min = min(s.min, c.Tokens)
		s.max = max(s.max, c.Tokens)
		s.sum += c.Tokens
	}
	return s
}

func (s stats) mean() float64 { return float64(s.sum) / float64(s.n) }
