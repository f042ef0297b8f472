package hf_test

import (
	"errors"
	"fmt"
	"strings"

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

// An XLM-R- or T5-style Unigram file counts the same way: here ALBERT's,
// converted from its SentencePiece model with its Precompiled normalizer
// and cut down to 3000 pieces (so words split more than with the whole
// vocabulary); 29 with [CLS] and [SEP] is what the library counts. A file
// with a component this package does not implement is refused, not
// counted approximately.
func Example_unigram() {
	tok, err := hf.LoadFile("testdata/albert.json", hf.Options{AddSpecialTokens: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tok.Count("Ｆｕｌｌ-width ｔｅｘｔ, ligatures (ﬁ) and accents: café."))

	_, err = hf.Load(strings.NewReader(`{"pre_tokenizer":{"type":"UnicodeScripts"},"model":{"type":"WordLevel","vocab":{"[UNK]":0},"unk_token":"[UNK]"}}`), hf.Options{})
	fmt.Println(errors.Is(err, hf.ErrUnsupported), err)
	// Output:
	// 29
	// true hf: unsupported tokenizer component: pre-tokenizer UnicodeScripts
}
