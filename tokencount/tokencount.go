package tokencount

import (
	"errors"
	"fmt"
	"strings"
	"sync"
)

// A Tokenizer counts the tokens a model's tokenizer would produce for a
// text. Implementations must be safe for concurrent use.
type Tokenizer interface {
	// Count returns exactly the number of tokens the model's tokenizer
	// produces for text. Count of the empty string is 0.
	Count(text string) int
}

// An Offsetter is a Tokenizer that can also report, in a single pass,
// where each token of a text ends. The encodings returned by [Encoding]
// and [ForModel] implement it, and so does [Heuristic].
type Offsetter interface {
	Tokenizer
	// AppendTokenEnds appends to dst the byte offset in text at which each
	// token ends, in order, and returns the extended slice. It appends
	// exactly Count(text) offsets; they are non-decreasing and the last
	// one is len(text).
	AppendTokenEnds(dst []int, text string) []int
}

var (
	// ErrUnknownEncoding is returned by [Encoding] for a name it does not know.
	ErrUnknownEncoding = errors.New("tokencount: unknown encoding")
	// ErrUnknownModel is returned by [ForModel] for a model it cannot map to an encoding.
	ErrUnknownModel = errors.New("tokencount: unknown model")
)

// Encoding names accepted by [Encoding].
const (
	O200kBase  = "o200k_base"
	Cl100kBase = "cl100k_base"
	P50kBase   = "p50k_base"
	R50kBase   = "r50k_base"
)

// Encodings returns the names accepted by [Encoding], sorted.
func Encodings() []string {
	return []string{Cl100kBase, O200kBase, P50kBase, R50kBase}
}

var (
	encMu    sync.Mutex
	encCache = map[string]*encodingOnce{}
)

type encodingOnce struct {
	once sync.Once
	bpe  *BPE
	err  error
}

// Encoding returns the tiktoken encoding with the given name: "o200k_base",
// "cl100k_base", "p50k_base" or "r50k_base". The dynamic type of the result
// is [*BPE], which also implements [Offsetter].
//
// Each encoding is built once per process, on first use, from vocabulary
// files embedded in the binary (no network and no disk), and is then
// shared; it is safe for concurrent use.
// An unknown name returns an error wrapping [ErrUnknownEncoding].
func Encoding(name string) (Tokenizer, error) {
	b, err := encoding(name)
	if err != nil {
		return nil, err
	}
	return b, nil
}

func encoding(name string) (*BPE, error) {
	spec, ok := specs[name]
	if !ok {
		return nil, fmt.Errorf("%w: %q (known: %s)", ErrUnknownEncoding, name, strings.Join(Encodings(), ", "))
	}
	encMu.Lock()
	e := encCache[name]
	if e == nil {
		e = &encodingOnce{}
		encCache[name] = e
	}
	encMu.Unlock()
	e.once.Do(func() { e.bpe, e.err = newBPE(spec) })
	return e.bpe, e.err
}
