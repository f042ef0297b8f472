package tokencount

import (
	"sync"

	"github.com/ragkit/ragkit/tokencount/internal/vocabhash"
)

// A tokenFilter is a Bloom filter over the tokens of an encoding. Most of
// the pairs a long merge looks up are not tokens (nine in ten in random
// letters), and the filter, small enough to stay in cache, rules them out
// where a lookup in the vocabulary's table would miss the cache. It is built on the
// first piece longer than maxCached, so that counting ordinary text never
// pays for it.
type tokenFilter struct {
	once sync.Once
	set  []uint64
}

// filterBits is the size of the filter: about 10 bits per token of
// o200k_base, for a false positive rate of a few percent.
const filterBits = 1 << 21

func (f *tokenFilter) bits(b *BPE) []uint64 {
	f.once.Do(func() {
		f.set = make([]uint64, filterBits/64)
		b.vocab.all(func(tok string, _ uint32) {
			w, mask := probe(vocabhash.Hash(tok, vocabhash.Head(tok)))
			f.set[w] |= mask
		})
	})
	return f.set
}

// mayBeToken reports whether s may be a token: false is certain.
func mayBeToken(set []uint64, s string) bool {
	w, mask := probe(vocabhash.Hash(s, vocabhash.Head(s)))
	return set[w]&mask == mask
}

// probe returns the word of the filter that hash h falls in and the two
// bits it sets there: one word, so that a probe reads one cache line.
func probe(h uint64) (word uint64, mask uint64) {
	return h % (filterBits / 64), 1<<(h>>52&63) | 1<<(h>>58)
}
