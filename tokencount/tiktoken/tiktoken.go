package tiktoken

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	tiktokengo "github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"

	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/internal/invalidutf8"
)

var (
	offline  sync.Once
	mu       sync.Mutex
	builders = map[string]func() (*tiktokengo.Tiktoken, error){}
)

// Encoding returns a Tokenizer that counts with tiktoken-go's encoding of
// the given name, one of [tokencount.Encodings]. Its dynamic type also
// implements [tokencount.Offsetter]. The encoding is built once per
// process, on first use, and is safe for concurrent use. An unknown name
// returns an error wrapping [tokencount.ErrUnknownEncoding].
func Encoding(name string) (tokencount.Tokenizer, error) {
	known := tokencount.Encodings()
	if !slices.Contains(known, name) {
		return nil, fmt.Errorf("%w: %q (known: %s)", tokencount.ErrUnknownEncoding, name, strings.Join(known, ", "))
	}
	mu.Lock()
	build := builders[name]
	if build == nil {
		build = sync.OnceValues(func() (*tiktokengo.Tiktoken, error) {
			offline.Do(func() { tiktokengo.SetBpeLoader(loader.NewOfflineLoader()) })
			return tiktokengo.GetEncoding(name)
		})
		builders[name] = build
	}
	mu.Unlock()
	enc, err := build()
	if err != nil {
		return nil, fmt.Errorf("tiktoken: building %s: %w", name, err)
	}
	return encoder{enc}, nil
}

type encoder struct{ enc *tiktokengo.Tiktoken }

// Count returns len(EncodeOrdinary(text)).
func (e encoder) Count(text string) int { return len(e.enc.EncodeOrdinary(text)) }

// AppendTokenEnds appends the offset in text at which each token of
// EncodeOrdinary(text) ends, from the length of each decoded token.
// tiktoken-go reads each invalid byte of text as U+FFFD; a token that ends
// inside such a replacement character ends, here, after the invalid byte.
func (e encoder) AppendTokenEnds(dst []int, text string) []int {
	m := invalidutf8.Mapper{Text: text}
	end := 0 // in the text tiktoken-go reads
	for _, id := range e.enc.EncodeOrdinary(text) {
		end += len(e.enc.Decode([]int{id}))
		dst = append(dst, m.Map(end))
	}
	return dst
}
