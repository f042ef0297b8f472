package chunker_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
)

// FuzzSplit holds the contract on any text and configuration (format
// packs Format, Strategy, KeepGraphemes and StretchChunks): chunks in
// order, true offsets, trimmed, exact counts within MaxTokens, covering
// the text; or one of the documented errors, deserved.
func FuzzSplit(f *testing.F) {
	seeds := []struct {
		text                string
		max, min, over, fmt uint8
	}{
		{"Hello, world. This is a test.", 5, 0, 0, 0},
		{"One.\n\nTwo.\n\nThree.", 2, 1, 0, 0},
		{"# Title\n\nText under it.\n\n```go\ncode()\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |", 8, 0, 2, 1},
		{"- item\n- item two\n  > quote\n\n    indented code", 3, 0, 0, 1},
		{"line one\r\nline two\r\n\r\nnext paragraph\rold mac", 4, 1, 1, 0},
		{"no-whitespace-at-all-just-one-long-word-with-dashes", 2, 0, 0, 0},
		{"e\u0301\u0301\u0301\u0301 👩‍👩‍👧‍👦 🇫🇷 日本語の文章です。中文，句子。", 3, 0, 1, 0},
		{"invalid \xff utf-8", 10, 0, 0, 0},
		{"   \n\t  ", 10, 0, 0, 0},
		{"", 1, 0, 0, 1},
		{"Mr. Holmes said, \"Come, Watson; the game is afoot!\" And so we went.", 6, 2, 3, 0},
		{"One. Two three. Four five six.\n\nSeven. Eight nine.\n\nTen eleven twelve. Thirteen.\n\nFourteen fifteen. Sixteen.", 2, 0, 0, 8},
	}
	for _, s := range seeds {
		f.Add(s.text, s.max, s.min, s.over, s.fmt)
	}
	tok := cl100k(f)
	f.Fuzz(func(t *testing.T, text string, max, min, over, format uint8) {
		if len(text) > 4096 {
			return
		}
		cfg := chunker.Config{
			Tokenizer:     tok,
			MaxTokens:     1 + int(max)%64,
			Format:        document.Format(format % 2),
			Strategy:      chunker.Strategy(format / 2 % 2),
			KeepGraphemes: format/4%2 == 1,
			StretchChunks: int(format/8) % 4, // 1-3 make anchors in short texts
		}
		cfg.OverlapTokens = int(over) % cfg.MaxTokens
		cfg.MinTokens = int(min) % ((cfg.MaxTokens-cfg.OverlapTokens)/2 + 1)
		checkSplit(t, cfg, text)

		// SplitDocument, handed the document's outline, cuts where Split does.
		c, err := chunker.New(cfg)
		require.NoError(t, err)
		want, wantErr := c.Split(text)
		got, err := c.SplitDocument(document.Document{Text: text, Format: cfg.Format}.WithOutline())
		require.Equal(t, wantErr, err)
		require.Equal(t, want, got)
	})
}
