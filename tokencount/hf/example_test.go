package hf_test

import (
	"fmt"

	"github.com/ragkit/ragkit/tokencount/hf"
)

// Count with a model's own tokenizer.json: here a cut-down
// bert-base-uncased (the WordPiece family of BERT-style embedders), with
// and without the [CLS] and [SEP] the embedder adds.
func Example() {
	tok, err := hf.LoadFile("testdata/wordpiece.json", hf.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	embedder, err := hf.LoadFile("testdata/wordpiece.json", hf.Options{AddSpecialTokens: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	text := "The quick brown fox jumps over the lazy dog."
	fmt.Println(tok.Count(text), embedder.Count(text))
	fmt.Println(tok.AppendTokenEnds(nil, "Hello, world!"))
	// Output:
	// 21 23
	// [2 3 4 5 6 12 13]
}
