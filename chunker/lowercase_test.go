package chunker_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
)

// A filing extracted to lower case has no capital after its periods; the
// chunker must still cut it between sentences, not at commas
// ("as of december 31," | "2012"). The plan of each stretch between two
// anchors may take a clause cut to even out its own chunks, so a few cuts
// may be clause cuts, but none inside a date.
func TestLowerCaseFilingCutsAtSentences(t *testing.T) {
	var b strings.Builder
	for year := 2001; year < 2041; year++ {
		fmt.Fprintf(&b, "as of december 31, %d, the company had $%d.%d billion in cash and equivalents, compared with $%d.%d billion a year earlier. ", year, year%7+1, year%10, year%5+1, year%9)
		fmt.Fprintf(&b, "net revenue rose %d%% to $%d.%d billion, driven by higher volumes in the u.s. market, e.g. in retail. ", year%13+2, year%4+1, year%8)
		fmt.Fprintf(&b, "the board declared a quarterly dividend of $0.%02d per share, payable on jan. 15, %d. ", year%90+10, year+1)
	}
	text := strings.TrimSpace(b.String())
	c, err := chunker.New(chunker.Config{Tokenizer: cl100k(t), MaxTokens: 96})
	require.NoError(t, err)
	chunks, err := c.Split(text)
	require.NoError(t, err)
	require.Greater(t, len(chunks), 10)
	sentences := 0
	for _, ch := range chunks[1:] {
		require.False(t, strings.HasPrefix(ch.Text, "20"), "chunk %d is cut inside a date: %q", ch.Index, ch.Text[:min(40, len(ch.Text))])
		if ch.Boundary <= chunker.Sentence {
			sentences++
		}
	}
	require.GreaterOrEqual(t, sentences, 9*(len(chunks)-1)/10, "cuts at a sentence or stronger")
}
