package contextheader_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/contextheader"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/tokentest"
)

// checkDecorated checks the promises of Decorate on one result.
func checkDecorated(t *testing.T, tok tokencount.Tokenizer, d *contextheader.Decorator, chunks []chunker.Chunk, got []contextheader.Chunk) {
	cfg := d.Config()
	require.Len(t, got, len(chunks))
	for i, c := range got {
		require.Equal(t, chunks[i], c.Chunk)
		require.Equal(t, tok.Count(c.Header), c.HeaderTokens)
		require.LessOrEqual(t, c.HeaderTokens, cfg.MaxHeaderTokens)
		require.Equal(t, tok.Count(c.EmbedText), c.EmbedTokens)
		if cfg.MaxEmbedTokens > 0 {
			require.LessOrEqual(t, c.EmbedTokens, cfg.MaxEmbedTokens)
		}
		if c.Header == "" {
			require.Equal(t, c.Text, c.EmbedText)
		} else {
			require.Equal(t, c.Header+cfg.Separator+c.Text, c.EmbedText)
			require.NotContains(t, c.Header, "\n\n", "a header is one line per part")
		}
	}
}

var fuzzParts = []contextheader.Part{
	{Kind: contextheader.Title, Label: "Document: "},
	{Kind: contextheader.Section},
	{Kind: contextheader.Metadata, Template: "{author}, {year}"},
	{Kind: contextheader.Summary},
	{Kind: contextheader.Table},
}

// decorateRandom chunks text to leave room for headers and decorates it;
// it returns false when the configuration leaves no room for a chunk or
// the text cannot be chunked.
func decorateRandom(t *testing.T, tok tokencount.Tokenizer, doc document.Document, maxHeader, maxEmbed int) bool {
	d, err := contextheader.New(contextheader.Config{
		Tokenizer: tok, Parts: fuzzParts, Summarizer: &contextheader.Extractive{},
		MaxHeaderTokens: maxHeader, MaxEmbedTokens: maxEmbed,
	})
	if errors.Is(err, contextheader.ErrConfig) {
		return false
	}
	require.NoError(t, err)
	room := 64 // no embedder limit: any chunk size
	if maxEmbed > 0 {
		room, err = d.ChunkMaxTokens()
		require.NoError(t, err)
	}
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: room, Format: doc.Format})
	require.NoError(t, err)
	chunks, err := c.Split(doc.Text)
	if err != nil {
		return false // empty text, or a grapheme longer than the room
	}
	got, err := d.Decorate(context.Background(), doc, chunks)
	require.NoError(t, err)
	checkDecorated(t, tok, d, chunks, got)
	return true
}

func FuzzDecorate(f *testing.F) {
	f.Add(policy, "Travel policy", "Staff travel rules for 2024. Second.", "A. Author", true, uint8(10), uint16(60))
	f.Add("4 REVIEW\n\n4.2 Noise\n\nA limit of 35 dB applies.", "Report", "", "", false, uint8(3), uint16(20))
	f.Add("x", "", "\xff", "y", false, uint8(1), uint16(0))
	f.Add("# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n| 5 | 6 |\n", "T", strings.Repeat("Long summary. ", 300), "", true, uint8(12), uint16(24))
	tok := cl100k(f)
	f.Fuzz(func(t *testing.T, text, title, summary, author string, markdown bool, maxHeader uint8, maxEmbed uint16) {
		doc := document.Document{
			ID: "fuzz", Title: strings.ToValidUTF8(title, "?"), Text: strings.ToValidUTF8(text, "?"),
			Summary:  strings.ToValidUTF8(summary, "?"),
			Metadata: map[string]string{"author": strings.ToValidUTF8(author, "?"), "year": "2024"},
		}
		if markdown {
			doc.Format = document.Markdown
		}
		decorateRandom(t, tok, doc, int(maxHeader), int(maxEmbed))
	})
}

// TestHeaderLimitsProperty decorates random documents with tokenizers
// that are far from additive and checks the limits by exact count.
func TestHeaderLimitsProperty(t *testing.T) {
	tokenizers := map[string]tokencount.Tokenizer{
		"cl100k_base": cl100k(t),
		"Words":       tokentest.Words{},
		"Lumpy":       tokentest.Lumpy{},
		"Crowded":     tokentest.Crowded{},
		"Growing":     tokentest.Growing{},
		"FixedWidth3": tokentest.FixedWidth{Bytes: 3},
	}
	for name, tok := range tokenizers {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(len(name))))
			done := 0
			for range 60 {
				doc := randomDocument(rng)
				if decorateRandom(t, tok, doc, 1+rng.IntN(40), 20+rng.IntN(200)) {
					done++
				}
			}
			require.Greater(t, done, 40, "most random documents must be decorated")
		})
	}
}

var words = strings.Fields("the planning application site noise flood zone revenue quarter cloud " +
	"platform policy staff records retention approval threshold Kestrel Millbrook Eastmoor " +
	"2024 35 dB per cent £150 café naïve 東京 — (see above) 4.2")

func randomWords(rng *rand.Rand, n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = words[rng.IntN(len(words))]
	}
	return strings.Join(ws, " ")
}

// randomDocument makes a document of headings and paragraphs, Markdown
// or plain text, with a random title and summary.
func randomDocument(rng *rand.Rand) document.Document {
	doc := document.Document{
		ID:       "random",
		Title:    randomWords(rng, rng.IntN(12)),
		Summary:  randomWords(rng, rng.IntN(30)) + ". " + randomWords(rng, rng.IntN(20)) + ".",
		Metadata: map[string]string{"author": randomWords(rng, rng.IntN(4))},
	}
	markdown := rng.IntN(2) == 0
	if markdown {
		doc.Format = document.Markdown
	}
	var b strings.Builder
	for i := range 3 + rng.IntN(12) {
		switch {
		case rng.IntN(3) > 0:
			fmt.Fprintf(&b, "%s.\n\n", randomWords(rng, 3+rng.IntN(60)))
		case markdown:
			fmt.Fprintf(&b, "%s %s\n\n", strings.Repeat("#", 1+rng.IntN(4)), randomWords(rng, 1+rng.IntN(15)))
		default:
			fmt.Fprintf(&b, "%d.%d %s\n\n", i, rng.IntN(5), strings.ToUpper(randomWords(rng, 1+rng.IntN(15))))
		}
	}
	doc.Text = b.String() + "The end."
	return doc
}
