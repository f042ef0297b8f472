package chunker_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
)

// golden renders chunks as the golden files hold them.
func golden(chunks []chunker.Chunk) string {
	var b strings.Builder
	b.WriteString("# index start end tokens boundary\n")
	for _, c := range chunks {
		fmt.Fprintf(&b, "%d %d %d %d %v\n", c.Index, c.Start, c.End, c.Tokens, c.Boundary)
	}
	return b.String()
}

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden pins the chunk boundaries on a few corpora: a change that moves
// a cut fails here even when every statistic still holds. After a change
// that is meant to move cuts, run `go test ./chunker -run TestGolden -update`
// and review the diff of testdata/golden.
func TestGolden(t *testing.T) {
	cases := []struct {
		corpus string
		format document.Format
	}{
		{"room_with_a_view.txt", document.Text},
		{"romeo_and_juliet.txt", document.Text},
		{"commonmark_spec.md", document.Markdown},
	}
	for _, tc := range cases {
		for _, max := range []int{128, 512} {
			name := fmt.Sprintf("%s-%d", strings.TrimSuffix(tc.corpus, filepath.Ext(tc.corpus)), max)
			t.Run(name, func(t *testing.T) {
				text := corpus(t, tc.corpus)
				got := golden(split(t, chunker.Config{Tokenizer: cl100k(t), MaxTokens: max, Format: tc.format}, text))
				path := filepath.Join("testdata", "golden", name+".txt")
				if *update {
					require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
					require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
					return
				}
				want, err := os.ReadFile(path)
				require.NoError(t, err, "run with -update to create it")
				require.Equal(t, string(want), got)

				// SplitDocument reads the document's Format, not the
				// Config's, and the headings of its outline: the same cuts.
				other := document.Markdown
				if tc.format == document.Markdown {
					other = document.Text
				}
				c, err := chunker.New(chunker.Config{Tokenizer: cl100k(t), MaxTokens: max, Format: other})
				require.NoError(t, err)
				doc := document.Document{Text: text, Format: tc.format}.WithOutline()
				chunks, err := c.SplitDocument(doc)
				require.NoError(t, err)
				require.Equal(t, string(want), golden(chunks), "SplitDocument")
			})
		}
	}
}
