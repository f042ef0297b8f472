package chunker_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/rivo/uniseg"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount/tokentest"
)

func TestNewValidates(t *testing.T) {
	tok := cl100k(t)
	tests := []struct {
		name string
		cfg  chunker.Config
		want string // the start of the error's message after the sentinel's, or "" for none
	}{
		{"no tokenizer", chunker.Config{MaxTokens: 10}, "Tokenizer is nil"},
		{"zero max", chunker.Config{Tokenizer: tok}, "MaxTokens is 0"},
		{"negative max", chunker.Config{Tokenizer: tok, MaxTokens: -1}, "MaxTokens is -1: must be positive"},
		{"negative min", chunker.Config{Tokenizer: tok, MaxTokens: 10, MinTokens: -1}, "MinTokens is -1"},
		{"min over max", chunker.Config{Tokenizer: tok, MaxTokens: 10, MinTokens: 11}, "MinTokens is 11"},
		{"negative overlap", chunker.Config{Tokenizer: tok, MaxTokens: 10, OverlapTokens: -1}, "OverlapTokens is -1"},
		{"overlap equal to max", chunker.Config{Tokenizer: tok, MaxTokens: 10, OverlapTokens: 10}, "OverlapTokens is 10"},
		{"unknown format", chunker.Config{Tokenizer: tok, MaxTokens: 10, Format: 7}, "Format is Format(7): must be Text or Markdown"},
		{"unknown strategy", chunker.Config{Tokenizer: tok, MaxTokens: 10, Strategy: 7}, "Strategy is Strategy(7)"},
		{"negative strategy", chunker.Config{Tokenizer: tok, MaxTokens: 10, Strategy: -1}, "Strategy is Strategy(-1): must be Balanced or Greedy"},
		{"negative stretch", chunker.Config{Tokenizer: tok, MaxTokens: 10, StretchChunks: -1}, "StretchChunks is -1: must not be negative"},
		{"one stretch", chunker.Config{Tokenizer: tok, MaxTokens: 10, StretchChunks: math.MaxInt}, ""},
		{"minimal", chunker.Config{Tokenizer: tok, MaxTokens: 1}, ""},
		{"min equal to max", chunker.Config{Tokenizer: tok, MaxTokens: 10, MinTokens: 10}, "MinTokens is 10"},
		{"min over half of the body", chunker.Config{Tokenizer: tok, MaxTokens: 100, MinTokens: 41, OverlapTokens: 20}, "MinTokens is 41: must be between 0 and (MaxTokens-OverlapTokens)/2 (40)"},
		{"min at half of the body", chunker.Config{Tokenizer: tok, MaxTokens: 100, MinTokens: 40, OverlapTokens: 20}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := chunker.New(tt.cfg)
			if tt.want == "" {
				require.NoError(t, err)
				assert.Equal(t, tt.cfg, c.Config())
				return
			}
			assert.ErrorIs(t, err, chunker.ErrConfig)
			assert.True(t, strings.HasPrefix(err.Error(), "chunker: invalid configuration: "+tt.want), err.Error())
			assert.Nil(t, c)
		})
	}
}

func TestSplitBadText(t *testing.T) {
	c := mustNew(t, chunker.Config{Tokenizer: cl100k(t), MaxTokens: 50})
	tests := []struct {
		name, text string
		want       error
	}{
		{"empty", "", chunker.ErrEmptyText},
		{"white space", " \t\r\n\u00a0\u2003\n", chunker.ErrEmptyText},
		{"invalid byte", "fine text \xff and more", chunker.ErrInvalidUTF8},
		{"truncated rune", "caf\xc3", chunker.ErrInvalidUTF8},
		{"surrogate", "a\xed\xa0\x80b", chunker.ErrInvalidUTF8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chunks, err := c.Split(tt.text)
			assert.ErrorIs(t, err, tt.want)
			assert.Nil(t, chunks)
		})
	}
	_, err := c.Split("fine text \xff and more")
	assert.Contains(t, err.Error(), "offset 10")
}

func TestChunkerNotMadeByNew(t *testing.T) {
	var zero chunker.Chunker
	_, err := zero.Split("text")
	assert.ErrorIs(t, err, chunker.ErrConfig)
	var nilChunker *chunker.Chunker
	_, err = nilChunker.Split("text")
	assert.ErrorIs(t, err, chunker.ErrConfig)
}

func TestGraphemeTooLong(t *testing.T) {
	tok := cl100k(t)
	family := "👨‍👩‍👧‍👦" // one grapheme cluster of 18 cl100k_base tokens
	accents := "e" + strings.Repeat("\u0301", 5000)
	require.Equal(t, 1, len(segment.Graphemes(accents)))
	for name, huge := range map[string]string{"emoji family": family, "combining marks": accents} {
		text := "Before it. " + huge + " After it."
		max := min(100, tok.Count(huge)-1)
		t.Run(name+"/KeepGraphemes", func(t *testing.T) {
			c := mustNew(t, chunker.Config{Tokenizer: tok, MaxTokens: max, KeepGraphemes: true})
			_, err := c.Split(text)
			require.ErrorIs(t, err, chunker.ErrGraphemeTooLong)
		})
		t.Run(name+"/cut at code points", func(t *testing.T) {
			cfg := chunker.Config{Tokenizer: tok, MaxTokens: max}
			chunks := split(t, cfg, text)
			runeCuts := 0
			for _, ch := range chunks {
				if ch.Boundary == chunker.Rune {
					runeCuts++
				}
			}
			require.Positive(t, runeCuts)
		})
		t.Run(name+"/whole when it fits", func(t *testing.T) {
			cfg := chunker.Config{Tokenizer: tok, MaxTokens: tok.Count(huge), KeepGraphemes: true}
			chunks := split(t, cfg, text)
			found := false
			for _, ch := range chunks {
				found = found || strings.Contains(ch.Text, huge)
			}
			require.True(t, found, "the grapheme was split")
		})
	}
	t.Run("code point too long", func(t *testing.T) {
		// A single code point of 3 tokens cannot be cut at all.
		require.Greater(t, tok.Count("\U0001F9EC"), 1)
		c := mustNew(t, chunker.Config{Tokenizer: tok, MaxTokens: 1})
		_, err := c.Split("\U0001F9EC")
		require.ErrorIs(t, err, chunker.ErrGraphemeTooLong)
	})
}

func TestSingleChunk(t *testing.T) {
	tok := cl100k(t)
	text := "\n\n  Hello, world. This is short.  \n"
	chunks := split(t, chunker.Config{Tokenizer: tok, MaxTokens: 100}, text)
	require.Len(t, chunks, 1)
	assert.Equal(t, "Hello, world. This is short.", chunks[0].Text)
	assert.Equal(t, tok.Count("Hello, world. This is short."), chunks[0].Tokens)
}

// sentence returns a distinct sentence of about n words.
func sentence(i, n int) string {
	words := []string{"river", "lamp", "garden", "window", "stone", "letter", "morning", "bridge", "quiet", "copper"}
	var b strings.Builder
	fmt.Fprintf(&b, "Sentence %d", i)
	for k := 0; k < n; k++ {
		b.WriteString(" ")
		b.WriteString(words[(i*7+k*3)%len(words)])
	}
	b.WriteString(".")
	return b.String()
}

// paragraphs returns np paragraphs of ns sentences of about nw words.
func paragraphs(np, ns, nw int) string {
	var ps []string
	for p := 0; p < np; p++ {
		var ss []string
		for s := 0; s < ns; s++ {
			ss = append(ss, sentence(p*ns+s, nw))
		}
		ps = append(ps, strings.Join(ss, " "))
	}
	return strings.Join(ps, "\n\n")
}

func TestBoundaryPreferences(t *testing.T) {
	tok := cl100k(t)
	t.Run("paragraphs when they fit", func(t *testing.T) {
		// Paragraphs of about 37 tokens: three fit in a chunk, and
		// cutting between sentences would not make fewer chunks.
		text := paragraphs(12, 3, 8)
		chunks := split(t, chunker.Config{Tokenizer: tok, MaxTokens: 120}, text)
		require.Len(t, chunks, 4)
		for _, c := range chunks[1:] {
			assert.Equal(t, "\n\n", text[c.Start-2:c.Start], "cut inside a paragraph")
			assert.Equal(t, chunker.Paragraph, c.Boundary)
		}
	})
	t.Run("sentences when paragraphs do not fit", func(t *testing.T) {
		text := paragraphs(2, 30, 8)
		chunks := split(t, chunker.Config{Tokenizer: tok, MaxTokens: 60}, text)
		for _, c := range chunks {
			assert.True(t, strings.HasSuffix(c.Text, "."), "chunk ends mid-sentence: %q", clip(c.Text))
			assert.True(t, strings.HasPrefix(c.Text, "Sentence "), "chunk starts mid-sentence: %q", clip(c.Text))
		}
	})
	t.Run("hard wraps are not line breaks", func(t *testing.T) {
		text := wrap(paragraphs(1, 40, 9), 70)
		require.Greater(t, strings.Count(text, "\n"), 40)
		chunks := split(t, chunker.Config{Tokenizer: tok, MaxTokens: 80}, text)
		for _, c := range chunks {
			assert.True(t, strings.HasSuffix(c.Text, "."), "cut at a wrap: %q", clip(c.Text))
		}
	})
	t.Run("verse lines are breaks", func(t *testing.T) {
		var lines []string
		for i := 0; i < 60; i++ {
			lines = append(lines, fmt.Sprintf("Upon the %s hill the %s wind did blow", []string{"green", "grey", "far"}[i%3], []string{"cold", "soft"}[i%2]))
		}
		text := strings.Join(lines, "\n")
		chunks := split(t, chunker.Config{Tokenizer: tok, MaxTokens: 50}, text)
		for _, c := range chunks[1:] {
			assert.Equal(t, "\n", text[c.Start-1:c.Start], "cut inside a verse line")
			assert.Equal(t, chunker.Line, c.Boundary)
		}
	})
	t.Run("clauses inside a sentence too long", func(t *testing.T) {
		var parts []string
		for i := 0; i < 40; i++ {
			parts = append(parts, fmt.Sprintf("and the %d lamps were lit by the keeper of the bridge", i))
		}
		text := "It began, " + strings.Join(parts, ", ") + "."
		chunks := split(t, chunker.Config{Tokenizer: tok, MaxTokens: 40}, text)
		for _, c := range chunks[:len(chunks)-1] {
			assert.True(t, strings.HasSuffix(c.Text, ","), "not cut at a clause: %q", clip(c.Text))
			assert.Equal(t, chunker.Clause, chunks[c.Index+1].Boundary)
		}
	})
	t.Run("words without punctuation", func(t *testing.T) {
		text := strings.Repeat("lorem ipsum dolor sit amet ", 200)
		chunks := split(t, chunker.Config{Tokenizer: tok, MaxTokens: 30}, text)
		for _, c := range chunks[1:] {
			assert.Equal(t, " ", text[c.Start-1:c.Start])
			assert.Equal(t, chunker.Word, c.Boundary)
		}
	})
	t.Run("graphemes inside one enormous word", func(t *testing.T) {
		// No white space at all; decomposed accents and flags make
		// graphemes of several code points.
		word := strings.Repeat("e\u0301a\U0001F1EB\U0001F1F7ko\u0308", 300)
		chunks := split(t, chunker.Config{Tokenizer: tok, MaxTokens: 25}, word)
		require.Greater(t, len(chunks), 10)
		bounds := graphemeBounds(word)
		for _, c := range chunks {
			assert.True(t, bounds[c.Start] && bounds[c.End], "chunk [%d,%d) splits a grapheme", c.Start, c.End)
		}
	})
}

// wrap hard-wraps text at width columns, as an editor would.
func wrap(text string, width int) string {
	var b strings.Builder
	col := 0
	for _, w := range strings.Fields(text) {
		if col > 0 && col+1+len(w) > width {
			b.WriteString("\n")
			col = 0
		} else if col > 0 {
			b.WriteString(" ")
			col++
		}
		b.WriteString(w)
		col += len(w)
	}
	return b.String()
}

// graphemeBounds returns the set of byte offsets where grapheme clusters
// start or end, by uniseg rather than by segment, which the chunker cuts
// with, so that the check is independent of what it checks.
func graphemeBounds(s string) []bool {
	m := make([]bool, len(s)+1)
	m[0] = true
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		_, to := g.Positions()
		m[to] = true
	}
	return m
}

func TestBalancedAgainstGreedy(t *testing.T) {
	tok := cl100k(t)
	text := paragraphs(15, 4, 9)
	bal := split(t, chunker.Config{Tokenizer: tok, MaxTokens: 120}, text)
	gre := split(t, chunker.Config{Tokenizer: tok, MaxTokens: 120, Strategy: chunker.Greedy}, text)
	require.Equal(t, len(gre), len(bal), "balanced must not make more chunks than greedy")
	b, g := sizes(bal), sizes(gre)
	assert.GreaterOrEqual(t, b.min, g.min)
	assert.LessOrEqual(t, b.max-b.min, g.max-g.min)
	assert.GreaterOrEqual(t, float64(b.min), 0.75*b.mean(), "balanced chunks are uneven: %+v", b)
}

func TestMinTokens(t *testing.T) {
	tok := cl100k(t)
	// Greedy packing leaves the end of this text as a crumb of its own;
	// the balanced plan with a floor moves its cuts so that no chunk is
	// under it, with as many chunks.
	text := paragraphs(6, 6, 9) + "\n\nThe end."
	gre := split(t, chunker.Config{Tokenizer: tok, MaxTokens: 100, Strategy: chunker.Greedy}, text)
	require.Less(t, sizes(gre).min, 20)
	bal := split(t, chunker.Config{Tokenizer: tok, MaxTokens: 100, MinTokens: 40}, text)
	require.GreaterOrEqual(t, sizes(bal).min, 40)
	require.Len(t, bal, len(gre))
	// A text shorter than MinTokens is one chunk.
	chunks := split(t, chunker.Config{Tokenizer: tok, MaxTokens: 100, MinTokens: 50}, "Tiny text.")
	require.Len(t, chunks, 1)
}

func TestOverlap(t *testing.T) {
	tok := cl100k(t)
	text := paragraphs(8, 5, 8)
	sents := map[int]bool{}
	for _, s := range segment.Sentences(text) {
		sents[s.Start] = true
	}
	cfg := chunker.Config{Tokenizer: tok, MaxTokens: 120, OverlapTokens: 30}
	chunks := split(t, cfg, text)
	require.Greater(t, len(chunks), 3)
	for _, c := range chunks[1:] {
		p := chunks[c.Index-1]
		require.Less(t, c.Start, p.End, "chunk %d has no overlap", c.Index)
		assert.True(t, sents[c.Start], "overlap of chunk %d does not start a sentence: %q", c.Index, clip(c.Text))
	}
	// Without overlap the same text is cut into no more chunks.
	plain := split(t, chunker.Config{Tokenizer: tok, MaxTokens: 120}, text)
	assert.LessOrEqual(t, len(plain), len(chunks))
}

func TestOverlapFallsBackToWords(t *testing.T) {
	tok := cl100k(t)
	// Sentences of about 40 tokens cannot be repeated in 10.
	text := paragraphs(1, 12, 30)
	cfg := chunker.Config{Tokenizer: tok, MaxTokens: 100, OverlapTokens: 10}
	chunks := split(t, cfg, text)
	for _, c := range chunks[1:] {
		p := chunks[c.Index-1]
		require.Less(t, c.Start, p.End, "chunk %d has no overlap", c.Index)
		assert.Equal(t, " ", text[c.Start-1:c.Start], "overlap does not start a word")
	}
}

func TestDeterministicAndConcurrent(t *testing.T) {
	tok := cl100k(t)
	text := corpus(t, "romeo_and_juliet.txt")[:40000]
	c := mustNew(t, chunker.Config{Tokenizer: tok, MaxTokens: 200, OverlapTokens: 20})
	want, err := c.Split(text)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 3; i++ {
				got, err := c.Split(text)
				if assert.NoError(t, err) {
					assert.Equal(t, want, got)
				}
			}
		}()
	}
	wg.Wait()
}

func TestRepairsEstimatesThatFallShort(t *testing.T) {
	base := cl100k(t).(interface {
		Count(string) int
		AppendTokenEnds([]int, string) []int
	})
	text := corpus(t, "room_with_a_view.txt")[20000:60000]
	for _, extra := range []int{3, 12} {
		tok := tokentest.Edge{Inner: base, Extra: extra}
		for _, max := range []int{40, 128, 512} {
			t.Run(fmt.Sprintf("extra %d max %d", extra, max), func(t *testing.T) {
				chunks := split(t, chunker.Config{Tokenizer: tok, MaxTokens: max}, text)
				// Repairs move cuts back; they do not make many more chunks.
				plain := split(t, chunker.Config{Tokenizer: base, MaxTokens: max - extra}, text)
				assert.LessOrEqual(t, len(chunks), len(plain)+len(plain)/10+1)
			})
		}
	}
	t.Run("not an Offsetter", func(t *testing.T) {
		for _, max := range []int{20, 100, 400} {
			split(t, chunker.Config{Tokenizer: tokentest.Growing{}, MaxTokens: max}, text)
			split(t, chunker.Config{Tokenizer: tokentest.Growing{}, MaxTokens: max, OverlapTokens: max / 4}, text)
		}
	})
}

func TestStrings(t *testing.T) {
	assert.Equal(t, "Markdown", document.Markdown.String())
	assert.Equal(t, "Greedy", chunker.Greedy.String())
	assert.Equal(t, "Sentence", chunker.Sentence.String())
	assert.Equal(t, "Format(9)", document.Format(9).String())
	assert.Equal(t, "Strategy(9)", chunker.Strategy(9).String())
	assert.Equal(t, "Boundary(99)", chunker.Boundary(99).String())
	assert.Equal(t, "Strategy(-1)", chunker.Strategy(-1).String())
	assert.Equal(t, "Boundary(-1)", chunker.Boundary(-1).String())
	assert.True(t, errors.Is(fmt.Errorf("x: %w", chunker.ErrEmptyText), chunker.ErrEmptyText))
}
