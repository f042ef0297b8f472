package chunker_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/segment"
)

// TestEditStability checks the promise of the package documentation's
// section on edit stability: a one-sentence edit to a long document (the
// sentence deleted, or a word inserted into it) leaves most chunks byte
// for byte as they were. At sixteen places spread over each document, it
// counts the chunks of the edited text that are not a chunk of the
// original, the ones an index would embed again. A plan balanced over the
// whole document changed 7 to 14 of them per edit on average here. It
// also checks Config.StretchChunks: shorter stretches change fewer chunks
// and make more of them, and math.MaxInt makes the fewest.
func TestEditStability(t *testing.T) {
	if testing.Short() {
		t.Skip("splits each document 33 times")
	}
	tok := cl100k(t)
	for _, tc := range []struct {
		corpus string
		format document.Format
	}{
		{"room_with_a_view.txt", document.Text},
		{"commonmark_spec.md", document.Markdown},
	} {
		text := corpus(t, tc.corpus)
		edits := sentenceEdits(text, 16)
		require.GreaterOrEqual(t, len(edits), 24, "edited copies")
		for _, max := range []int{128, 512} {
			t.Run(fmt.Sprintf("%s/%d", tc.corpus, max), func(t *testing.T) {
				count := map[int]int{}
				for _, stretch := range []int{0, 4, math.MaxInt} {
					c := mustNew(t, chunker.Config{Tokenizer: tok, MaxTokens: max, Format: tc.format, StretchChunks: stretch})
					before := chunkTexts(t, c, text)
					count[stretch] = len(before)
					if stretch == math.MaxInt {
						continue // the whole text is one stretch: no stability to check
					}
					mean, least := churn(t, c, before, edits)
					t.Logf("StretchChunks %d: %d chunks; %.2f changed per edit; at least %.1f%% kept", stretch, len(before), mean, 100*least)
					wantMean, wantLeast := 3.0, 0.9
					if max == 512 && stretch == 0 {
						wantMean, wantLeast = 5, 0.7 // an edit that moves an anchor re-plans two stretches of about 24 chunks
					}
					require.LessOrEqual(t, mean, wantMean, "chunks changed per edit")
					require.GreaterOrEqual(t, least, wantLeast, "share of chunks kept by the worst edit")
				}
				require.LessOrEqual(t, count[math.MaxInt], count[0], "chunks of one stretch and of the default")
				require.LessOrEqual(t, count[0], count[4], "chunks of the default and of short stretches")
			})
		}
	}
}

// churn splits each edited text with c and returns the mean count of its
// chunks that are not in before, and the least share of chunks kept.
func churn(t *testing.T, c *chunker.Chunker, before map[string]bool, edits []string) (mean, least float64) {
	t.Helper()
	changed, least := 0, 1.0
	for _, edited := range edits {
		after := chunkTexts(t, c, edited)
		n := 0
		for ch := range after {
			if !before[ch] {
				n++
			}
		}
		changed += n
		least = min(least, 1-float64(n)/float64(len(after)))
	}
	return float64(changed) / float64(len(edits)), least
}

// chunkTexts splits text and returns the set of its chunks' texts. (A
// text repeated as two chunks counts once, which no corpus here has.)
func chunkTexts(t *testing.T, c *chunker.Chunker, text string) map[string]bool {
	t.Helper()
	chunks, err := c.Split(text)
	require.NoError(t, err)
	set := make(map[string]bool, len(chunks))
	for _, ch := range chunks {
		set[ch.Text] = true
	}
	return set
}

// sentenceEdits returns two edited copies of text for each of n places
// spread evenly over it: one without a sentence (and the spaces after
// it), one with "very " inserted before the sentence's third word. Only
// sentences of five words or more that share their line with the next
// sentence are edited, so that no paragraph or line disappears.
func sentenceEdits(text string, n int) []string {
	sents := segment.Sentences(text)
	var out []string
	for p := range n {
		for i := len(sents) * p / n; i+1 < len(sents) && i < len(sents)*(p+1)/n; i++ {
			s, next := sents[i], sents[i+1]
			words := segment.Words(text[s.Start:s.End])
			if len(words) < 5 || strings.ContainsAny(text[s.End:next.Start], "\r\n") {
				continue
			}
			w := s.Start + words[2].Start
			out = append(out, text[:s.Start]+text[next.Start:], text[:w]+"very "+text[w:])
			break
		}
	}
	return out
}
