package chunker_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
)

// TestTextHeadingIsACut: in plain text, a line that document.Headings
// reads as a heading is cut before, like a Markdown heading, even when
// body text follows it on the next line with no blank line between.
// Before plain-text headings were cuts, a heading and its first
// paragraph were one paragraph, and a chunk opening a section reported a
// Paragraph boundary at best.
func TestTextHeadingIsACut(t *testing.T) {
	intro := "The county received the application in March. Its planners read the site plan, " +
		"the traffic study and the letters from neighbours. They asked for a revised drainage plan."
	review := "The board reviewed the wetland survey and found two seasonal pools. " +
		"It asked the applicant to move the access road north of the pools."
	decision := "The permit was granted with conditions. The road moves north, the pools stay, " +
		"and the drainage plan is checked again after the first winter of use."
	text := intro + "\n\nENVIRONMENTAL REVIEW\n" + review + "\n\nDECISION\n" + decision
	for _, max := range []int{36, 40, 48} {
		chunks := split(t, chunker.Config{Tokenizer: cl100k(t), MaxTokens: max, Format: document.Text}, text)
		var opens []string
		for _, c := range chunks {
			if c.Boundary == chunker.Heading {
				opens = append(opens, strings.SplitN(c.Text, "\n", 2)[0])
			}
		}
		require.Contains(t, opens, "ENVIRONMENTAL REVIEW", "MaxTokens %d: %q", max, opens)
		require.Contains(t, opens, "DECISION", "MaxTokens %d", max)
	}
}
