package tokencount

import (
	"fmt"
	"strings"
	"sync"

	tiktoken "github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

var offlineLoader sync.Once

// Reference returns a Tokenizer that counts with github.com/pkoukk/tiktoken-go
// itself: len(EncodeOrdinary(text)). It is the yardstick [Encoding] is
// tested against, and is much slower; use it to cross-check, not to count.
//
// tiktoken-go downloads its vocabulary files unless told otherwise, so on
// first use Reference installs tiktoken-go-loader's offline loader with
// tiktoken.SetBpeLoader, once per process. That setting is global to
// tiktoken-go: a program that uses tiktoken-go directly and needs another
// loader should set it after calling Reference.
func Reference(name string) (Tokenizer, error) {
	if _, ok := specs[name]; !ok {
		return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownEncoding, name, strings.Join(Encodings(), ", "))
	}
	offlineLoader.Do(func() { tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader()) })
	enc, err := tiktoken.GetEncoding(name)
	if err != nil {
		return nil, fmt.Errorf("tokencount: building reference %s: %w", name, err)
	}
	return referenceTokenizer{enc}, nil
}

type referenceTokenizer struct{ enc *tiktoken.Tiktoken }

func (r referenceTokenizer) Count(text string) int { return len(r.enc.EncodeOrdinary(text)) }
