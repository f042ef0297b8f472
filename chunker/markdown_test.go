package chunker_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
)

func md(t testing.TB, max int, text string) []chunker.Chunk {
	t.Helper()
	return split(t, chunker.Config{Tokenizer: cl100k(t), MaxTokens: max, Format: document.Markdown}, text)
}

// codeBlock returns a fenced code block of n lines.
func codeBlock(n int) string {
	var b strings.Builder
	b.WriteString("```go\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\tx%d := compute(%d, \"value\") // step %d\n", i, i*i, i)
	}
	b.WriteString("```")
	return b.String()
}

func TestMarkdownCodeBlockThatFitsIsWhole(t *testing.T) {
	code := codeBlock(6)
	text := paragraphs(3, 3, 8) + "\n\nHere is the code:\n\n" + code + "\n\n" + paragraphs(3, 3, 8)
	codeTokens := cl100k(t).Count(code)
	for max := codeTokens; max < codeTokens+120; max += 7 {
		chunks := md(t, max, text)
		whole := false
		for _, c := range chunks {
			whole = whole || strings.Contains(c.Text, code)
		}
		assert.True(t, whole, "MaxTokens %d: the code block (%d tokens) was split", max, codeTokens)
	}
}

func TestMarkdownCodeBlockTooLongSplitsAtLines(t *testing.T) {
	code := codeBlock(60)
	text := "Intro paragraph.\n\n" + code + "\n\nOutro paragraph."
	start := strings.Index(text, code)
	for _, max := range []int{60, 150, 400} {
		chunks := md(t, max, text)
		for _, c := range chunks[1:] {
			if c.Start > start && c.Start < start+len(code) {
				assert.Equal(t, chunker.Line, c.Boundary)
				assert.Contains(t, text[chunks[c.Index-1].End:c.Start], "\n", "cut inside a line of code")
			}
		}
	}
}

func TestMarkdownTableSplitsAtRows(t *testing.T) {
	var b strings.Builder
	b.WriteString("| name | value | notes |\n|---|:---:|---|\n")
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, "| item %d | %d | a note about item %d |\n", i, i*31, i)
	}
	table := strings.TrimSpace(b.String())
	text := "# Data\n\nThe table:\n\n" + table + "\n\nAfter the table."
	tok := cl100k(t)
	t.Run("fits", func(t *testing.T) {
		chunks := md(t, tok.Count(table)+5, text)
		found := false
		for _, c := range chunks {
			found = found || strings.Contains(c.Text, table)
		}
		assert.True(t, found, "a table that fits was split")
	})
	t.Run("too long", func(t *testing.T) {
		start := strings.Index(text, table)
		chunks := md(t, 100, text)
		inside := 0
		for _, c := range chunks[1:] {
			if c.Start > start && c.Start < start+len(table) {
				inside++
				assert.True(t, strings.HasPrefix(c.Text, "| item "), "table cut inside a row: %q", clip(c.Text))
			}
		}
		assert.Positive(t, inside)
	})
}

func TestMarkdownHeadingsStartChunks(t *testing.T) {
	var sections []string
	for i := 0; i < 8; i++ {
		sections = append(sections, fmt.Sprintf("## Section %d\n\n%s", i, paragraphs(2, 2, 8)))
	}
	text := "# Title\n\n" + strings.Join(sections, "\n\n")
	// Sections of about 55 tokens; chunks of up to 130 hold two.
	chunks := md(t, 130, text)
	for _, c := range chunks[1:] {
		assert.True(t, strings.HasPrefix(c.Text, "## Section"), "chunk does not start a section: %q", clip(c.Text))
		assert.Equal(t, chunker.Heading, c.Boundary)
	}
	// A heading never ends a chunk when its section could follow it.
	for _, c := range chunks {
		lines := strings.Split(c.Text, "\n")
		assert.False(t, strings.HasPrefix(lines[len(lines)-1], "#"), "chunk ends with a heading: %q", clip(c.Text))
	}
}

func TestMarkdownListsSplitBetweenItems(t *testing.T) {
	var b strings.Builder
	b.WriteString("Steps:\n\n")
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&b, "%d. Take the %d lamps to the river, then wash them, dry them and bring them back.\n", i, i)
	}
	text := b.String()
	chunks := md(t, 90, text)
	for _, c := range chunks[1:] {
		assert.Regexp(t, `^\d+\. Take`, c.Text, "cut inside a list item")
		assert.Equal(t, chunker.Block, c.Boundary)
	}
}

func TestMarkdownSoftBreaksAreNotLines(t *testing.T) {
	// Markdown paragraphs wrapped by hand, at irregular widths.
	var lines []string
	words := strings.Fields(paragraphs(1, 30, 9))
	for i := 0; i < len(words); {
		n := 5 + i%7
		lines = append(lines, strings.Join(words[i:min(i+n, len(words))], " "))
		i += n
	}
	text := strings.Join(lines, "\n")
	chunks := md(t, 70, text)
	for _, c := range chunks {
		assert.True(t, strings.HasSuffix(c.Text, "."), "cut at a soft break: %q", clip(c.Text))
	}
}

func TestMarkdownStructures(t *testing.T) {
	// Every construct the scanner knows, at sizes that force cuts
	// everywhere: the contract must hold whatever the structure.
	text := `---
title: front matter
---

Setext heading
==============

Intro paragraph with a [link](http://example.com) and *emphasis*.
A second line of the same paragraph.

> A quote that runs
> over two lines.
>
> A second quoted paragraph.

- item one
- item two
  continued lazily
    - nested item
- item three

  A later paragraph of item three.

1) ordered
2) list

    indented code
    more code

<div>
an html block
</div>

***

| a | b |
|---|---|
| 1 | 2 |

~~~
tilde fence
~~~

` + "```" + `
unclosed fence at the end
with lines`
	for _, max := range []int{3, 8, 20, 60, 500} {
		chunks := md(t, max, text)
		if max == 500 {
			assert.Len(t, chunks, 1)
		}
	}
}
