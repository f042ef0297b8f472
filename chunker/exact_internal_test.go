package chunker

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/internal/testcorpus"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/tokentest"
)

// jointFragments are the shapes around which pre-tokenizers differ:
// contractions, runs of digits, punctuation, white space of every kind,
// letters with and without case, marks, emoji and scripts without spaces.
var jointFragments = []string{
	"word", "Word", "WORD", "it's", "they're", "we'll", "I'M", "'s", "'", "x", "naïve", "Straße",
	"1", "12", "12345", "3.14", "1,000", "…", ".", "...", "!!", "?", "--", "—", "/", "//", "(", ")", "\"",
	" ", " ", "  ", "   ", "\t", "\n", "\n\n", "\r\n", " \n", "\u00a0", "\u3000",
	"é", "e\u0301", "\u0301", "日本語", "中文，", "한국어", "Привет", "مرحبا", "👩‍👩‍👧", "🇫🇷", "\u0600",
	"<|endoftext|>", "#", "##", "`code`", "a_b", "x=1;", "\\", "'re", "'ve",
}

func randomJointText(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(jointFragments[r.IntN(len(jointFragments))])
	}
	return b.String()
}

// The sum behind countChunk holds on any text, cut anywhere, with every
// encoding: for joints x <= y inside a window of the sizing pass, and any
// a < x and b > y, Count(t[a:b]) is Count(t[a:x]), plus the window's
// tokens that end in (x, y], plus Count(t[y:b]).
func TestJointsAddUp(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 24))
	for _, name := range tokencount.Encodings() {
		tok, err := tokencount.Encoding(name)
		require.NoError(t, err)
		checked := 0
		for range 300 {
			text := randomJointText(r, 5+r.IntN(120))
			w0 := r.IntN(len(text) / 2)
			w1 := len(text) - r.IntN(len(text)/2)
			ends := tokencount.AppendTokenEnds(tok, nil, text[w0:w1])
			var joints []int
			for i := w0 + 1; i < w1; i++ {
				if jointAt(text, i) {
					joints = append(joints, i)
				}
			}
			if len(joints) == 0 {
				continue
			}
			for range 20 {
				x := joints[r.IntN(len(joints))]
				y := joints[r.IntN(len(joints))]
				x, y = min(x, y), max(x, y)
				a := r.IntN(x) // a < x: the character before x is in the chunk
				b := y + 1 + r.IntN(len(text)-y)
				inner := 0
				for _, e := range ends {
					if e > x-w0 && e <= y-w0 {
						inner++
					}
				}
				want := tok.Count(text[a:b])
				got := tok.Count(text[a:x]) + inner + tok.Count(text[y:b])
				require.Equal(t, want, got, "%s: %q cut [%d:%d] at joints %d and %d, window [%d:%d]", name, text, a, b, x, y, w0, w1)
				checked++
			}
		}
		require.Greater(t, checked, 1000, name)
	}
}

// splitBytes returns the bytes that Split tokenizes for text with an
// encoding, through a counting wrapper put in after the Chunker chose the
// encoding's exact path.
func splitBytes(t *testing.T, cfg Config, text string) int {
	t.Helper()
	c, err := New(cfg)
	require.NoError(t, err)
	first, last := trimText(text)
	s := newSplit(c, text, first, last)
	defer s.release()
	require.True(t, s.exact)
	counting := tokentest.NewCounting(cfg.Tokenizer)
	s.tok = counting
	chunks, err := s.run()
	require.NoError(t, err)
	for _, ch := range chunks {
		require.Equal(t, cfg.Tokenizer.Count(ch.Text), ch.Tokens)
	}
	return counting.Bytes()
}

// With an encoding, Split tokenizes the text once, and then only the edges
// of the chunks: it does not count every chunk again (issue 29).
func TestSplitTokenizesOnce(t *testing.T) {
	tok, err := tokencount.Encoding("cl100k_base")
	require.NoError(t, err)
	sherlock := testcorpus.Must(t, "sherlock_1661.txt")
	texts := map[string]string{
		"room_with_a_view.txt": testcorpus.Must(t, "room_with_a_view.txt"),
		"commonmark_spec.md":   testcorpus.Must(t, "commonmark_spec.md"),
		// Several windows of the sizing pass: chunks across their seams
		// are counted whole.
		"sherlock twice": sherlock + "\n\n" + sherlock,
		// Without line breaks the windows part at a space, inside a
		// sentence, where the tokens differ from the whole text's.
		"one line": strings.ReplaceAll(sherlock+" "+sherlock, "\n", " "),
	}
	for _, name := range []string{"room_with_a_view.txt", "commonmark_spec.md", "sherlock twice", "one line"} {
		text := texts[name]
		for _, format := range []document.Format{document.Text, document.Markdown} {
			for _, max := range []int{128, 512} {
				n := splitBytes(t, Config{Tokenizer: tok, MaxTokens: max, Format: format}, text)
				ratio := float64(n) / float64(len(text))
				t.Logf("%s %v %d: %.3f bytes tokenized per byte", name, format, max, ratio)
				require.Less(t, ratio, 1.5, "%s %v at %d", name, format, max)
			}
		}
	}
}

// jointMemo answers as jointAfter and jointBefore do, for cuts in order
// (with repeats), after a cut out of order, and far apart or close
// together, on texts with joints dense and sparse.
func TestJointMemo(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 29))
	for round := range 300 {
		text := randomJointText(r, 1+r.IntN(400))
		if round%3 == 0 { // long stretches without a joint, as code has
			text = strings.ReplaceAll(text, " ", "_")
		}
		var m jointMemo
		m.reset()
		from, to := 0, len(text)
		if round%2 == 1 {
			from, to = r.IntN(len(text)/2+1), len(text)-r.IntN(len(text)/2+1)
		}
		for i := from; i <= to; {
			require.Equal(t, jointAfter(text, i, to), m.after(text, i, to), "after %d in %q", i, text)
			require.Equal(t, jointBefore(text, from, i), m.before(text, from, i), "before %d in %q", i, text)
			switch r.IntN(10) {
			case 0: // out of order
				i = max(from, i-r.IntN(300))
			case 1: // again
			case 2:
				i += r.IntN(400)
			default:
				i += r.IntN(8)
			}
		}
	}
}
