package tokencount_test

import (
	"fmt"

	"github.com/ragkit/ragkit/tokencount"
)

func ExampleEncoding() {
	enc, err := tokencount.Encoding("cl100k_base")
	if err != nil {
		panic(err)
	}
	fmt.Println(enc.Count("Retrieval-augmented generation, done right."))
	// Special-token markup in a document is ordinary text.
	fmt.Println(enc.Count("<|endoftext|>"))
	// Output:
	// 11
	// 7
}

func ExampleForModel() {
	enc, err := tokencount.ForModel("gpt-4o-mini")
	if err != nil {
		panic(err)
	}
	fmt.Println(enc.(*tokencount.BPE).Name(), enc.Count("How many tokens is this?"))

	_, err = tokencount.ForModel("my-local-model")
	fmt.Println(err)
	// Output:
	// o200k_base 6
	// tokencount: unknown model: "my-local-model" (tokencount knows OpenAI's models; module github.com/ragkit/ragkit/tokencount/hf counts for the others from their tokenizer.json)
}

func ExampleAppendTokenEnds() {
	enc, err := tokencount.Encoding("cl100k_base")
	if err != nil {
		panic(err)
	}
	text := "Tokenization isn't additive."
	ends := tokencount.AppendTokenEnds(enc, nil, text)
	start := 0
	for _, end := range ends {
		fmt.Printf("%q ", text[start:end])
		start = end
	}
	fmt.Println()
	// Output:
	// "Token" "ization" " isn" "'t" " additive" "."
}

func ExampleHeuristic() {
	text := "The quick brown fox jumps over the lazy dog."
	exact, err := tokencount.Encoding("cl100k_base")
	if err != nil {
		panic(err)
	}
	fmt.Println(tokencount.Heuristic{}.Count(text), exact.Count(text))
	// Output:
	// 10 10
}
