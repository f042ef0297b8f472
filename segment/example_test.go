package segment_test

import (
	"fmt"

	"github.com/ragkit/ragkit/segment"
)

func ExampleSentences() {
	text := `Dr. Okafor arrived at 9 a.m. on Monday. She works for the U.S. Navy.
The lab (on Elm St.) opened at 10. It has 3.5 million samples... Impressive!`
	for _, s := range segment.Sentences(text) {
		fmt.Printf("%q\n", text[s.Start:s.End])
	}
	// Output:
	// "Dr. Okafor arrived at 9 a.m. on Monday."
	// "She works for the U.S. Navy."
	// "The lab (on Elm St.) opened at 10."
	// "It has 3.5 million samples..."
	// "Impressive!"
}

func ExampleSentences_structure() {
	// A line break inside a paragraph is a space, unless the lines show
	// structure; a blank line always ends a sentence.
	text := "Results\n\nThe samples were stored\nat room temperature. Then:\n- batch one\n- batch two\n"
	for _, s := range segment.Sentences(text) {
		fmt.Printf("%q\n", text[s.Start:s.End])
	}
	// Output:
	// "Results"
	// "The samples were stored\nat room temperature."
	// "Then:"
	// "- batch one"
	// "- batch two"
}

func ExampleNew() {
	seg, err := segment.New(segment.Config{
		Language:      "en",
		Abbreviations: []string{"Tbl."},
		Newlines:      segment.NewlineBreak,
	})
	if err != nil {
		panic(err)
	}
	text := "See Tbl. 2 for totals.\nEach line is a unit"
	for _, s := range seg.Sentences(text) {
		fmt.Printf("%q\n", s.Text(text))
	}
	// Output:
	// "See Tbl. 2 for totals."
	// "Each line is a unit"
}

func ExampleNew_japanese() {
	seg, err := segment.New(segment.Config{Language: "ja"})
	if err != nil {
		panic(err)
	}
	text := "「もう帰る？」と聞いた。雨だから。"
	for _, s := range seg.Sentences(text) {
		fmt.Println(s.Text(text))
	}
	// Output:
	// 「もう帰る？」と聞いた。
	// 雨だから。
}

func ExampleAppendSentences() {
	// Reuse one buffer for many documents: no allocation once it is large
	// enough.
	var buf []segment.Span
	for _, doc := range []string{"One. Two.", "Three? Four! Five."} {
		buf = segment.AppendSentences(buf[:0], doc)
		fmt.Println(len(buf))
	}
	// Output:
	// 2
	// 3
}

func ExampleParagraphs() {
	text := "First paragraph,\r\nstill the first.\r\n   \r\nSecond."
	for _, p := range segment.Paragraphs(text) {
		fmt.Printf("%q\n", p.Text(text))
	}
	// Output:
	// "First paragraph,\r\nstill the first."
	// "Second."
}

func ExampleLines() {
	text := "alpha\r\n\r\n  beta  \ngamma"
	for _, l := range segment.Lines(text) {
		fmt.Printf("%q\n", l.Text(text))
	}
	// Output:
	// "alpha"
	// "beta"
	// "gamma"
}

func ExampleWords() {
	text := "It's 3.5 km, isn't it?"
	for _, w := range segment.Words(text) {
		fmt.Printf("%q ", w.Text(text))
	}
	fmt.Println()
	// Output:
	// "It's" "3.5" "km" "," "isn't" "it" "?"
}

func ExampleGraphemes() {
	text := "né 🇯🇵"
	for _, g := range segment.Graphemes(text) {
		fmt.Printf("%q ", g.Text(text))
	}
	fmt.Println()
	// Output:
	// "n" "é" "🇯🇵"
}
