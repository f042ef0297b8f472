package chunker_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/tokentest"
)

// pieces from which random texts are made: words of several scripts,
// punctuation, every kind of white space and line ending, Markdown
// syntax, long words and clusters of many code points.
var pieces = []string{
	"the", "lamp", "river", "Holmes", "café", "naïve", "don't", "3,000", "2.5",
	"日本語の文章です", "中文，句子。", "Привет", "مرحبا", "שלום", "ελληνικά",
	"👍", "👩‍👩‍👧‍👦", "🇫🇷", "e\u0301", "a\u0308\u0323",
	".", ",", ";", ":", "!", "?", "—", "–", "(", ")", "\"", "“", "”", "'", "...",
	" ", " ", " ", " ", "  ", "\t", "\u00a0", "\u2003",
	"\n", "\n", "\r\n", "\r", "\n\n", "\r\n\r\n", "\n\n\n\n",
	"# ", "## ", "- ", "* ", "1. ", "> ", "```", "~~~", "| a | b |", "|---|---|", "    ", "***", "<div>",
	"Mr.", "e.g.", "U.S.A.",
}

// randomText builds a text of about n pieces.
func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch k := r.IntN(100); {
		case k < 2:
			b.WriteString(strings.Repeat(string(rune('a'+r.IntN(26))), 1+r.IntN(400))) // one long word
		case k < 3:
			b.WriteString("o" + strings.Repeat("\u0308", 1+r.IntN(60))) // one long grapheme
		case k < 10:
			b.WriteString(" ")
		default:
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
	}
	return b.String()
}

func TestPropertiesRandomText(t *testing.T) {
	tok := cl100k(t)
	r := rand.New(rand.NewPCG(1, 2))
	iterations := 400
	if testing.Short() {
		iterations = 60
	}
	for i := 0; i < iterations; i++ {
		text := randomText(r, 1+r.IntN(600))
		cfg := chunker.Config{
			Tokenizer: tok,
			MaxTokens: 1 + r.IntN(200),
			Format:    document.Format(r.IntN(2)),
			Strategy:  chunker.Strategy(r.IntN(2)),
		}
		if r.IntN(3) == 0 {
			cfg.MaxTokens = 1 + r.IntN(8) // tiny chunks
		}
		if r.IntN(3) == 0 {
			cfg.OverlapTokens = r.IntN(cfg.MaxTokens)
		}
		if r.IntN(3) == 0 {
			cfg.MinTokens = r.IntN((cfg.MaxTokens-cfg.OverlapTokens)/2 + 1)
		}
		if r.IntN(3) == 0 {
			// short stretches make anchors in short texts too
			cfg.StretchChunks = []int{1, 2, 3, math.MaxInt}[r.IntN(4)]
		}
		checkSplit(t, cfg, text)
	}
}

// checkSplit splits text and checks the contract, or that the error is
// one Split documents and is deserved.
func checkSplit(t *testing.T, cfg chunker.Config, text string) {
	t.Helper()
	c := mustNew(t, cfg)
	chunks, err := c.Split(text)
	switch {
	case err == nil:
		checkContract(t, cfg, text, chunks)
		if cfg.MinTokens > 0 && cfg.Strategy == chunker.Balanced && cfg.Format == document.Text {
			checkMin(t, cfg, text, chunks)
		}
	case errors.Is(err, chunker.ErrEmptyText):
		if !allSpace(text) {
			t.Fatalf("ErrEmptyText for %q", clip(text))
		}
	case errors.Is(err, chunker.ErrInvalidUTF8):
		if utf8.ValidString(text) {
			t.Fatalf("ErrInvalidUTF8 for valid %q", clip(text))
		}
	case errors.Is(err, chunker.ErrGraphemeTooLong):
		longest := maxRune(cfg.Tokenizer, text)
		if cfg.KeepGraphemes {
			longest = maxGrapheme(cfg.Tokenizer, text)
		}
		if longest <= cfg.MaxTokens {
			t.Fatalf("ErrGraphemeTooLong but nothing that may not be cut is over %d: %v", cfg.MaxTokens, err)
		}
	default:
		t.Fatalf("Split(%q) with %+v: %v", clip(text), cfg, err)
	}
}

// checkMin checks MinTokens where the text surely allows it: plain text,
// whose units are all cut to fit (Markdown code that fits in a chunk is
// never cut and may leave a short neighbour), with room for two chunks of
// MinTokens in one and to spare for the granularity of graphemes and of
// the runs of white space, which a cut drops.
func checkMin(t *testing.T, cfg chunker.Config, text string, chunks []chunker.Chunk) {
	t.Helper()
	slack := 2*maxGrapheme(cfg.Tokenizer, text) + 2*maxSpaceRun(cfg.Tokenizer, text) + 4
	if len(chunks) == 1 || 2*cfg.MinTokens+slack > cfg.MaxTokens-cfg.OverlapTokens {
		return
	}
	for _, c := range chunks {
		if c.Tokens < cfg.MinTokens {
			t.Errorf("chunk %d of %d has %d tokens, under MinTokens %d (max %d): %q",
				c.Index, len(chunks), c.Tokens, cfg.MinTokens, cfg.MaxTokens, clip(c.Text))
		}
	}
}

// maxSpaceRun returns the count of the longest run of white space.
func maxSpaceRun(tok tokencount.Tokenizer, text string) int {
	m := 0
	for _, run := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsSpace(r) }) {
		m = max(m, tok.Count(run))
	}
	return m
}

// maxRune returns the count of the longest code point, where a white
// space character inside a grapheme cluster goes with the code point after
// it (or, last in the cluster, before it), as Split cuts a cluster.
func maxRune(tok tokencount.Tokenizer, text string) int {
	m := 0
	g := uniseg.NewGraphemes(text)
	for g.Next() {
		var pieces []string
		glue := false
		for _, r := range g.Str() {
			switch {
			case glue || (unicode.IsSpace(r) && len(pieces) > 0 && len(g.Str()) == len(string(r))+len(strings.Join(pieces, ""))):
				pieces[len(pieces)-1] += string(r)
			default:
				pieces = append(pieces, string(r))
			}
			glue = unicode.IsSpace(r)
		}
		for _, p := range pieces {
			m = max(m, tok.Count(p))
		}
	}
	return m
}

// maxGrapheme returns the count of the longest grapheme cluster.
func maxGrapheme(tok tokencount.Tokenizer, text string) int {
	m := 0
	g := uniseg.NewGraphemes(text)
	for g.Next() {
		m = max(m, tok.Count(g.Str()))
	}
	return m
}

func TestPropertiesTinyMax(t *testing.T) {
	// MaxTokens 1: every chunk is a single token, and every grapheme of
	// more than one token is an error.
	tok := cl100k(t)
	for _, text := range []string{
		"abc def. ghi!",
		"no-whitespace-at-all,just:punctuation;and(words)",
		"crlf\r\nlines\r\n\r\nand paragraphs\r\n",
		strings.Repeat("x", 500),
	} {
		chunks := split(t, chunker.Config{Tokenizer: tok, MaxTokens: 1}, text)
		for _, c := range chunks {
			require.Equal(t, 1, c.Tokens, "chunk %q", c.Text)
		}
	}
	// An emoji of several tokens a code point cannot be cut that far.
	_, err := mustNew(t, chunker.Config{Tokenizer: tok, MaxTokens: 1}).Split("emoji 👩‍👩‍👧‍👦 here")
	require.ErrorIs(t, err, chunker.ErrGraphemeTooLong)
}

func TestPropertiesSizesSweep(t *testing.T) {
	// Every size from 1 to 300 on one text with a bit of everything.
	tok := cl100k(t)
	text := corpus(t, "github_flavored.md")[:3000] + "\r\n\r\n" + corpus(t, "sherlock_1661.txt")[5000:8000]
	step := 1
	if testing.Short() {
		step = 7
	}
	for max := 1; max <= 300; max += step {
		for _, f := range []document.Format{document.Text, document.Markdown} {
			cfg := chunker.Config{Tokenizer: tok, MaxTokens: max, Format: f}
			checkSplit(t, cfg, text)
			if max > 4 {
				cfg.OverlapTokens = max / 4
				cfg.MinTokens = max / 3
				checkSplit(t, cfg, text)
			}
		}
	}
}

func TestPropertiesOtherTokenizers(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	base := cl100k(t).(tokencount.Offsetter)
	toks := []tokencount.Tokenizer{tokentest.Growing{}, tokentest.Edge{Inner: base, Extra: 2}, tokencount.Heuristic{}, tokentest.FixedWidth{Bytes: 4}}
	for i := 0; i < 150; i++ {
		text := randomText(r, 1+r.IntN(400))
		cfg := chunker.Config{
			Tokenizer: toks[i%len(toks)],
			MaxTokens: 3 + r.IntN(150),
			Format:    document.Format(r.IntN(2)),
		}
		if r.IntN(2) == 0 {
			cfg.OverlapTokens = r.IntN(cfg.MaxTokens / 2)
		}
		checkSplit(t, cfg, text)
	}
}

func TestPropertiesNoWhitespaceAndOneWord(t *testing.T) {
	tok := cl100k(t)
	cases := map[string]string{
		"cjk":             strings.Repeat("日本語の文章です。中文，句子。", 200),
		"enormous word":   strings.Repeat("supercalifragilistic", 500),
		"digits":          strings.Repeat("0123456789", 300),
		"punctuation":     strings.Repeat("!?.,;:-", 300),
		"single line":     strings.Repeat("word, ", 2000),
		"crlf only lines": strings.Repeat("line of text\r\n", 300),
		"lone cr":         strings.Repeat("old mac line\r", 300),
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			for _, max := range []int{2, 17, 100} {
				for _, f := range []document.Format{document.Text, document.Markdown} {
					checkSplit(t, chunker.Config{Tokenizer: tok, MaxTokens: max, Format: f}, text)
				}
			}
		})
	}
}

func ExampleBoundary() {
	fmt.Println(chunker.Paragraph, chunker.Sentence < chunker.Word)
	// Output: Paragraph true
}

// Every encoding counts chunks exactly: the counts that Split takes from
// its sizing pass and the chunks' edges are each chunk's Count, on random
// texts and configurations, and on prose cut at every size.
func TestPropertiesEncodings(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 29))
	room := corpus(t, "room_with_a_view.txt")[30000:60000]
	for _, name := range tokencount.Encodings() {
		tok, err := tokencount.Encoding(name)
		require.NoError(t, err)
		t.Run(name, func(t *testing.T) {
			for i := 0; i < 40; i++ {
				cfg := chunker.Config{
					Tokenizer:     tok,
					MaxTokens:     2 + r.IntN(300),
					Format:        document.Format(r.IntN(2)),
					Strategy:      chunker.Strategy(r.IntN(2)),
					StretchChunks: r.IntN(4),
				}
				if r.IntN(3) == 0 {
					cfg.OverlapTokens = r.IntN(cfg.MaxTokens / 2)
				}
				checkSplit(t, cfg, randomText(r, 1+r.IntN(800)))
				checkSplit(t, cfg, room[r.IntN(10000):])
			}
		})
	}
}
