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
				chunks := split(t, chunker.Config{Tokenizer: cl100k(t), MaxTokens: max, Format: tc.format}, text)
				var b strings.Builder
				b.WriteString("# index start end tokens boundary\n")
				for _, c := range chunks {
					fmt.Fprintf(&b, "%d %d %d %d %v\n", c.Index, c.Start, c.End, c.Tokens, c.Boundary)
				}
				path := filepath.Join("testdata", "golden", name+".txt")
				if *update {
					require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
					require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
					return
				}
				want, err := os.ReadFile(path)
				require.NoError(t, err, "run with -update to create it")
				require.Equal(t, string(want), b.String())
			})
		}
	}
}
