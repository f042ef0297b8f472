package tokencount

import (
	"fmt"
	"io"
	"sync/atomic"
	"unicode/utf8"

	"github.com/ragkit/ragkit/tokencount/internal/invalidutf8"

	"github.com/ragkit/ragkit/tokencount/internal/vocabhash"
)

// BPE is a tiktoken byte pair encoding: the type that [Encoding] and
// [ForModel] return. It counts exactly what tiktoken-go's EncodeOrdinary
// produces, without building token slices. A BPE is safe for concurrent
// use; get one from [Encoding] rather than building your own, so that the
// process shares its tables and cache.
//
// Text is encoded as ordinary text: special-token markup such as
// "<|endoftext|>" inside a document is counted as the characters it is
// made of (7 tokens in cl100k_base), never as the single special token,
// which is what a chat API does with user content. Invalid UTF-8 is
// counted as tiktoken-go counts it: each invalid byte is read as U+FFFD.
type BPE struct {
	name  string
	split func(text string, i int) int
	vocab *vocab
	// pairs holds the rank of every two-byte token, noRank for the other
	// pairs of bytes: the first round of every merge looks up each
	// adjacent pair of bytes, and a flat table is faster than the
	// vocabulary's hash table for it.
	pairs *[1 << 16]uint32
	// absent rules out most byte strings that are not tokens; built on
	// the first long merge (see filter.go).
	absent tokenFilter
	// cache maps a piece (a pre-token) that is not a single token to its
	// token ends. It is bounded and set associative: a newer piece evicts the
	// oldest in its set. Readers and writers only
	// swap pointers to immutable entries, so concurrent use needs no lock.
	cache []atomic.Pointer[cacheEntry]
	// hot remembers recent pieces of 2 to 7 bytes that are whole tokens,
	// each as one word (see hotKey), in a table small enough to stay in
	// the processor's nearest caches: most pieces of any text are short
	// whole tokens, and the vocabulary's table, megabytes, misses those
	// caches on nearly every lookup. A slot is written with one atomic
	// store, so concurrent use needs no lock.
	hot *[hotSlots]atomic.Uint64
}

// hotSlots is the size of BPE.hot: 128 KiB, which measured faster than
// 64 KiB and 32 KiB on prose and Markdown.
const hotBits, hotSlots = 14, 1 << hotBits

// hotKey packs a piece of 2 to 7 bytes, whose head is w, into one word:
// its bytes and its length, never 0. It returns 0 for other pieces.
func hotKey(piece string, w uint64) uint64 {
	if len(piece) < 2 || len(piece) > 7 {
		return 0
	}
	return w | uint64(len(piece))<<56
}

// hotSlot returns the slot of BPE.hot for key.
func (b *BPE) hotSlot(key uint64) *atomic.Uint64 {
	return &b.hot[(key*0x9e3779b97f4a7c15)>>(64-hotBits)]
}

// hotHit reports whether piece, whose head is w, is in BPE.hot, and
// returns its key for whole.
func (b *BPE) hotHit(piece string, w uint64) (key uint64, hit bool) {
	key = hotKey(piece, w)
	return key, key != 0 && b.hotSlot(key).Load() == key
}

// whole reports whether piece, whose head is w, hash h and hot key key,
// is a single token, and remembers it in BPE.hot if so. A piece whose
// bytes are a token that is not valid UTF-8 is not: tiktoken-go reads its
// invalid bytes as U+FFFD first.
func (b *BPE) whole(piece string, w, h, key uint64) bool {
	r, ok := b.vocab.find(piece, w, h)
	if !ok || r&partialUTF8 != 0 {
		return false
	}
	if key != 0 {
		b.hotSlot(key).Store(key)
	}
	return true
}

// cacheSlots bounds the cache: 32768 pointers, 256 KiB per encoding plus
// the entries, room for several times the multi-token vocabulary of a
// novel (about 4,000 distinct pieces in The Adventures of Sherlock Holmes).
const cacheSlots = 1 << 15

// cacheWays is the number of slots a piece may occupy: with 4 ways, a
// novel's pieces rarely contend for a set, and a lookup still reads a
// single cache line of pointers.
const cacheWays = 4

type cacheEntry struct {
	key  string
	ends string // the end offset of each token within key, one byte each
}

func newBPE(s spec) (*BPE, error) {
	v, pairs, ok := newVocab(s.vocab)
	if !ok {
		return nil, fmt.Errorf("tokencount: the embedded vocabulary of %s is malformed", s.name)
	}
	return &BPE{
		name:  s.name,
		split: s.split,
		vocab: v,
		pairs: pairs,
		cache: make([]atomic.Pointer[cacheEntry], cacheSlots),
		hot:   new([hotSlots]atomic.Uint64),
	}, nil
}

// Name returns the encoding's name, such as "cl100k_base".
func (b *BPE) Name() string { return b.name }

// String returns "tokencount.BPE(" + the encoding's name + ")".
func (b *BPE) String() string {
	if b == nil {
		return "tokencount.BPE(nil)"
	}
	return "tokencount.BPE(" + b.name + ")"
}

// Format prints b as [BPE.String] does, with any verb: the vocabulary and
// caches behind it are megabytes, and no verb walks them.
func (b *BPE) Format(f fmt.State, verb rune) { io.WriteString(f, b.String()) }

// Count returns the number of tokens in text, equal to
// len(EncodeOrdinary(text)) of tiktoken-go for the same encoding.
func (b *BPE) Count(text string) int {
	n := 0
	for i := 0; i < len(text); {
		j := b.split(text, i)
		n += b.pieceCount(text[i:j], headAt(text, i, j))
		i = j
	}
	return n
}

// AppendTokenEnds appends the byte offset at which each token of text ends
// and returns the extended slice; see [Offsetter]. Byte-level tokens can
// end inside a multi-byte character. Where invalid UTF-8 makes a token end
// inside the replacement character of an invalid byte, the offset is the
// end of that byte, so offsets can repeat there.
func (b *BPE) AppendTokenEnds(dst []int, text string) []int {
	for i := 0; i < len(text); {
		j := b.split(text, i)
		dst = b.pieceEnds(dst, text[i:j], headAt(text, i, j), i)
		i = j
	}
	return dst
}

// pieceCount returns the number of tokens of piece, whose head is w.
func (b *BPE) pieceCount(piece string, w uint64) int {
	if len(piece) == 1 && piece[0] < utf8.RuneSelf {
		return 1
	}
	if len(piece) <= maxCached {
		// Most pieces of natural text are whole tokens: one lookup.
		key, hit := b.hotHit(piece, w)
		if hit {
			return 1
		}
		h := vocabhash.Hash(piece, w)
		if b.whole(piece, w, h, key) {
			return 1
		}
		if e := b.lookup(piece, h); e != nil {
			return len(e.ends)
		}
		if e := b.fill(piece, h); e != nil {
			return len(e.ends)
		}
	}
	k := sink{count: true}
	b.uncached(piece, &k)
	return k.n
}

func (b *BPE) pieceEnds(dst []int, piece string, w uint64, base int) []int {
	if len(piece) == 1 && piece[0] < utf8.RuneSelf {
		return append(dst, base+1)
	}
	var e *cacheEntry
	if len(piece) <= maxCached {
		key, hit := b.hotHit(piece, w)
		if hit {
			return append(dst, base+len(piece))
		}
		h := vocabhash.Hash(piece, w)
		if b.whole(piece, w, h, key) {
			return append(dst, base+len(piece))
		}
		if e = b.lookup(piece, h); e == nil {
			e = b.fill(piece, h)
		}
	}
	if e == nil {
		k := sink{dst: dst, base: base}
		b.uncached(piece, &k)
		return k.dst
	}
	for k := 0; k < len(e.ends); k++ {
		dst = append(dst, base+int(e.ends[k]))
	}
	return dst
}

// lookup returns the cached entry for piece, whose vocabhash.Hash is h, or
// nil. The cache is set associative: a piece lives in one of the
// cacheWays slots of its set.
func (b *BPE) lookup(piece string, h uint64) *cacheEntry {
	set := b.set(h)
	for k := range set {
		if e := set[k].Load(); e != nil && e.key == piece {
			return e
		}
	}
	return nil
}

// set returns the slots of the set of the pieces whose vocabhash.Hash is h. It
// takes the hash's top bits: the low ones pick the vocabulary's slot.
func (b *BPE) set(h uint64) []atomic.Pointer[cacheEntry] {
	i := h >> 32 & (cacheSlots - 1) &^ (cacheWays - 1)
	return b.cache[i : i+cacheWays : i+cacheWays]
}

// store puts e in its set: in an empty slot if there is one, otherwise
// in slot 0 after shifting the others down, so that the oldest entry is
// the one evicted.
func (b *BPE) store(e *cacheEntry, h uint64) {
	set := b.set(h)
	for k := range set {
		if set[k].CompareAndSwap(nil, e) {
			return
		}
	}
	for k := len(set) - 1; k > 0; k-- {
		set[k].Store(set[k-1].Load())
	}
	set[0].Store(e)
}

// fill merges a valid piece of 2 to maxCached bytes that is not itself a
// token, whose vocabhash.Hash is h, and caches the result. It returns nil for
// any other piece: those are rare, and encoding them uncached keeps the
// cache's entries small.
func (b *BPE) fill(piece string, h uint64) *cacheEntry {
	if !utf8.ValidString(piece) {
		return nil
	}
	var small [maxSmall]uint8
	var ends []uint8
	if len(piece) <= maxSmall {
		ends = small[:b.mergeSmall(piece, &small)]
	} else {
		m := mergers.Get().(*merger)
		for _, e := range m.merge(b, piece) {
			ends = append(ends, uint8(e))
		}
		mergers.Put(m)
	}
	// One allocation holds the key and its ends.
	buf := make([]byte, len(piece)+len(ends))
	copy(buf, piece)
	copy(buf[len(piece):], ends)
	s := string(buf)
	e := &cacheEntry{key: s[:len(piece)], ends: s[len(piece):]}
	b.store(e, h)
	return e
}

// uncached sends the token ends of a piece longer than maxCached or
// holding invalid UTF-8 to k.
func (b *BPE) uncached(piece string, k *sink) {
	if utf8.ValidString(piece) {
		b.valid(piece, k)
		return
	}
	b.invalid(piece, k)
}

// valid sends the token ends of a valid piece of any length to k.
func (b *BPE) valid(piece string, k *sink) {
	switch {
	case len(piece) == 1 || b.rank(piece) != noRank:
		k.add(len(piece))
	case len(piece) <= maxSmall:
		var ends [maxSmall]uint8
		n := b.mergeSmall(piece, &ends)
		for _, e := range ends[:n] {
			k.add(int(e))
		}
	default:
		b.mergeLong(piece, k)
	}
}

// invalid encodes a piece holding invalid UTF-8 the way tiktoken-go does,
// as string([]rune(piece)): every invalid byte becomes U+FFFD. Token ends
// are mapped back to offsets in the original piece.
func (b *BPE) invalid(piece string, k *sink) {
	first, base := len(k.dst), k.base
	k.base = 0
	b.valid(invalidutf8.Replace(piece), k)
	k.base = base
	m := invalidutf8.Mapper{Text: piece}
	for x := first; x < len(k.dst); x++ {
		k.dst[x] = base + m.Map(k.dst[x])
	}
}
