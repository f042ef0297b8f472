// Package peers builds the peer libraries' counterparts of ragkit's
// functions the way the benchmarks, cmd/chunkreport and cmd/report call
// them, so that every comparison runs the same code: tiktoken-go's
// EncodeOrdinary, neurosnap/sentences' English Punkt tokenizer, uniseg's
// sentence and word boundaries, and langchaingo's text splitters.
package peers

import (
	"strings"
	"sync"

	"github.com/neurosnap/sentences"
	"github.com/neurosnap/sentences/english"
	tiktoken "github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
	"github.com/rivo/uniseg"
	"github.com/tmc/langchaingo/textsplitter"

	"github.com/ragkit/ragkit/benchmarks/eval"
	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/tokencount"
)

// Tiktoken returns tiktoken-go's cl100k_base encoding, loaded offline once
// per process.
var Tiktoken = sync.OnceValues(func() (*tiktoken.Tiktoken, error) {
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	return tiktoken.GetEncoding("cl100k_base")
})

// Punkt returns neurosnap/sentences' English tokenizer, built once per
// process (building it decodes its training data).
var Punkt = sync.OnceValues(func() (*sentences.DefaultSentenceTokenizer, error) {
	return english.NewSentenceTokenizer(nil)
})

// UnisegSentences returns the number of sentences uniseg finds in text.
func UnisegSentences(text string) (n int) {
	for state := -1; text != ""; n++ {
		_, text, state = uniseg.FirstSentenceInString(text, state)
	}
	return n
}

// UnisegWords returns the number of word segments (white space included)
// uniseg finds in text.
func UnisegWords(text string) (n int) {
	for state := -1; text != ""; n++ {
		_, text, state = uniseg.FirstWordInString(text, state)
	}
	return n
}

// UnisegGraphemes returns the number of grapheme clusters in text.
func UnisegGraphemes(text string) (n int) {
	for state := -1; text != ""; n++ {
		_, text, _, state = uniseg.FirstGraphemeClusterInString(text, state)
	}
	return n
}

// A Splitter cuts a text into chunk texts.
type Splitter struct {
	Name  string
	Split func(text string) ([]string, error)
}

// FormatOf returns document.Markdown for a corpus name ending in ".md",
// document.Text otherwise.
func FormatOf(name string) document.Format {
	if strings.HasSuffix(name, ".md") {
		return document.Markdown
	}
	return document.Text
}

// Chunker returns ragkit's chunker configured by cfg as a split function.
func Chunker(cfg chunker.Config) (func(text string) ([]string, error), error) {
	c, err := chunker.New(cfg)
	if err != nil {
		return nil, err
	}
	return func(text string) ([]string, error) {
		chunks, err := c.Split(text)
		texts := make([]string, len(chunks))
		for i, ch := range chunks {
			texts[i] = ch.Text
		}
		return texts, err
	}, nil
}

// Recursive returns the evaluation's greedy baseline (LangChain's
// recursive splitter with a token count, eval.RecursiveSplit) as a split
// function.
func Recursive(tok tokencount.Tokenizer, max int, format document.Format) func(text string) ([]string, error) {
	return func(text string) ([]string, error) {
		spans, err := eval.RecursiveSplit(tok, max, format, text)
		texts := make([]string, len(spans))
		for i, sp := range spans {
			texts[i] = text[sp.Start:sp.End]
		}
		return texts, err
	}
}

// Splitters returns the splitters compared at max tokens (cl100k_base):
// ragkit's chunker, balanced and greedy, with tok, then langchaingo's
// RecursiveCharacter splitter (its default separators, tiktoken-go's count
// as its length function) and its TokenSplitter.
func Splitters(format document.Format, max int, tok tokencount.Tokenizer) ([]Splitter, error) {
	tk, err := Tiktoken()
	if err != nil {
		return nil, err
	}
	var out []Splitter
	for _, strategy := range []chunker.Strategy{chunker.Balanced, chunker.Greedy} {
		split, err := Chunker(chunker.Config{Tokenizer: tok, MaxTokens: max, Format: format, Strategy: strategy})
		if err != nil {
			return nil, err
		}
		out = append(out, Splitter{"ragkit " + strings.ToLower(strategy.String()), split})
	}
	return append(out,
		Splitter{"langchaingo recursive", LangchainRecursive(max, tk).SplitText},
		Splitter{"langchaingo token", textsplitter.NewTokenSplitter(
			textsplitter.WithChunkSize(max),
			textsplitter.WithChunkOverlap(0),
			textsplitter.WithEncodingName("cl100k_base"),
		).SplitText},
	), nil
}

// LangchainRecursive returns langchaingo's RecursiveCharacter splitter
// with chunks of at most max tokens by tk and no overlap: the recursive
// splitter most Go pipelines use.
func LangchainRecursive(max int, tk *tiktoken.Tiktoken) textsplitter.RecursiveCharacter {
	return textsplitter.NewRecursiveCharacter(
		textsplitter.WithChunkSize(max),
		textsplitter.WithChunkOverlap(0),
		textsplitter.WithLenFunc(func(s string) int { return len(tk.EncodeOrdinary(s)) }),
	)
}
