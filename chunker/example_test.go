package chunker_test

import (
	"fmt"
	"math"
	"strings"

	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/tokencount"
)

const story = `The lamp was lit at dusk. Nobody in the village remembered who had first lit it, or why.

Every evening the keeper climbed the hill. He carried oil, a cloth and a box of matches. The path was steep and the wind was cold.

One winter the keeper fell ill. His daughter climbed the hill in his place. She lit the lamp, and the village slept as it always had.

The end.`

func Example() {
	tok, err := tokencount.Encoding("cl100k_base")
	if err != nil {
		panic(err)
	}
	c, err := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 40})
	if err != nil {
		panic(err)
	}
	chunks, err := c.Split(story)
	if err != nil {
		panic(err)
	}
	for _, ch := range chunks {
		fmt.Printf("%d tokens, after a %v cut: %q\n", ch.Tokens, ch.Boundary, ch.Text)
	}
	// Output:
	// 29 tokens, after a DocumentStart cut: "The lamp was lit at dusk. Nobody in the village remembered who had first lit it, or why.\n\nEvery evening the keeper climbed the hill."
	// 29 tokens, after a Sentence cut: "He carried oil, a cloth and a box of matches. The path was steep and the wind was cold.\n\nOne winter the keeper fell ill."
	// 26 tokens, after a Sentence cut: "His daughter climbed the hill in his place. She lit the lamp, and the village slept as it always had.\n\nThe end."
}

// Greedy fills each chunk to the brim and leaves the rest to the last one;
// Balanced makes as many chunks, of even sizes.
func Example_strategies() {
	tok, _ := tokencount.Encoding("cl100k_base")
	for _, strategy := range []chunker.Strategy{chunker.Greedy, chunker.Balanced} {
		c, _ := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 40, Strategy: strategy})
		chunks, _ := c.Split(story)
		var sizes []string
		for _, ch := range chunks {
			sizes = append(sizes, fmt.Sprint(ch.Tokens))
		}
		fmt.Printf("%v: %s\n", strategy, strings.Join(sizes, ", "))
	}
	// Output:
	// Greedy: 29, 38, 17
	// Balanced: 29, 29, 26
}

func Example_markdown() {
	doc := "# Install\n\nRun the installer, then check the version:\n\n" +
		"```sh\n./install.sh --prefix /usr/local\nragkit --version\n```\n\n" +
		"# Use\n\nImport the package and make a chunker. Split your documents with it.\n"
	tok, _ := tokencount.Encoding("cl100k_base")
	c, _ := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 40, Format: document.Markdown})
	chunks, _ := c.Split(doc)
	for _, ch := range chunks {
		fmt.Printf("--- %d tokens\n%s\n", ch.Tokens, ch.Text)
	}
	// Output:
	// --- 30 tokens
	// # Install
	//
	// Run the installer, then check the version:
	//
	// ```sh
	// ./install.sh --prefix /usr/local
	// ragkit --version
	// ```
	// --- 18 tokens
	// # Use
	//
	// Import the package and make a chunker. Split your documents with it.
}

// With OverlapTokens, each chunk after the first starts with the last
// whole sentences of the one before; offsets stay true.
func Example_overlap() {
	tok, _ := tokencount.Encoding("cl100k_base")
	c, _ := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 48, OverlapTokens: 12})
	chunks, _ := c.Split(story)
	for i, ch := range chunks {
		repeated := ""
		if i > 0 && ch.Start < chunks[i-1].End {
			repeated = story[ch.Start:chunks[i-1].End]
		}
		fmt.Printf("chunk %d [%d:%d] repeats %q\n", i, ch.Start, ch.End, repeated)
	}
	// Output:
	// chunk 0 [0:132] repeats ""
	// chunk 1 [90:253] repeats "Every evening the keeper climbed the hill."
	// chunk 2 [222:365] repeats "One winter the keeper fell ill."
}

// An index embeds again the chunks an edit changed. Here one sentence is
// deleted at each of twelve places of a long text, in turn, and the
// chunks of the edited text that were not chunks of the original are
// counted: a plan of the whole text at once evens each loss out over many
// chunks, the default plans stretches between anchors on their own, and
// shorter stretches change fewer chunks still, for a few more chunks.
func Example_editStability() {
	tok, _ := tokencount.Encoding("cl100k_base")
	var b strings.Builder
	for day := 1; day <= 240; day++ {
		fmt.Fprintf(&b, "On day %d the keeper climbed the hill.", day)
		if day%3 != 0 {
			b.WriteString(" He carried oil, a cloth and a box of matches.")
		}
		if day%7 == 0 {
			b.WriteString(" Snow had fallen in the night, and the path was slow.")
		}
		b.WriteString(" The lamp burned until dawn.\n\n")
	}
	text := b.String()
	for _, stretch := range []struct {
		name   string
		chunks int
	}{{"math.MaxInt", math.MaxInt}, {"0 (default)", 0}, {"3", 3}} {
		c, _ := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 64, StretchChunks: stretch.chunks})
		before, _ := c.Split(text)
		old := map[string]bool{}
		for _, ch := range before {
			old[ch.Text] = true
		}
		changed := 0
		for day := 10; day <= 240; day += 20 {
			cut := fmt.Sprintf("On day %d the keeper climbed the hill. ", day)
			after, _ := c.Split(strings.Replace(text, cut, "", 1))
			for _, ch := range after {
				if !old[ch.Text] {
					changed++
				}
			}
		}
		fmt.Printf("StretchChunks %s: %d chunks, %.1f changed per edit\n", stretch.name, len(before), float64(changed)/12)
	}
	// Output:
	// StretchChunks math.MaxInt: 109 chunks, 24.0 changed per edit
	// StretchChunks 0 (default): 112 chunks, 6.2 changed per edit
	// StretchChunks 3: 116 chunks, 3.8 changed per edit
}

// SplitDocument reads a document as its own Format and takes plain text's
// headings from the document's outline, parsed once and shared with
// whatever else reads it (here the section path of each chunk).
func ExampleChunker_SplitDocument() {
	tok, _ := tokencount.Encoding("cl100k_base")
	c, _ := chunker.New(chunker.Config{Tokenizer: tok, MaxTokens: 30})
	doc := document.Document{Format: document.Text, Text: "SAFETY NOTES\n\n" +
		"Wear gloves when you handle the blades. Keep the guard closed while the motor runs.\n\n" +
		"CLEANING\n\nUnplug the machine first. Wipe the bowl with a damp cloth.\n"}.WithOutline()
	chunks, _ := c.SplitDocument(doc)
	for _, ch := range chunks {
		fmt.Printf("%v %q\n", doc.Outline().Path(ch.Start, ch.End), ch.Text)
	}
	// Output:
	// [SAFETY NOTES] "SAFETY NOTES\n\nWear gloves when you handle the blades. Keep the guard closed while the motor runs."
	// [CLEANING] "CLEANING\n\nUnplug the machine first. Wipe the bowl with a damp cloth."
}
