package tokencount

import (
	_ "embed" // the vocabularies
	"math/bits"
	"unicode/utf8"
)

//go:generate go run ./internal/vocabgen

// The vocabularies, generated from tiktoken-go-loader's rank files by
// internal/vocabgen: for each encoding, the length of each rank's token
// (one byte per rank, 0 for a rank no token has) and the tokens' bytes in
// rank order, split in files of at most 1 MiB. Nothing needs decoding: an
// encoding is ready once its lookup table is filled.
var (
	//go:embed ranks/cl100k_base.lens
	cl100kLens string
	//go:embed ranks/cl100k_base.0.tokens
	cl100kTokens string
	//go:embed ranks/o200k_base.lens
	o200kLens string
	//go:embed ranks/o200k_base.0.tokens
	o200kTokens0 string
	//go:embed ranks/o200k_base.1.tokens
	o200kTokens1 string
	//go:embed ranks/p50k_base.lens
	p50kLens string
	//go:embed ranks/p50k_base.0.tokens
	p50kTokens string
)

// r50kRanks is the number of ranks of r50k_base: its tokens are the first
// ones of p50k_base.
const r50kRanks = 50256

// spec describes one encoding: its tokens and how it pre-tokenizes.
type spec struct {
	name   string
	lens   string                // the length of each rank's token
	tokens func() string         // every token's bytes, in rank order
	split  func(string, int) int // the pre-tokenizer
}

var specs = map[string]spec{
	Cl100kBase: {Cl100kBase, cl100kLens, func() string { return cl100kTokens }, splitCl100k},
	O200kBase:  {O200kBase, o200kLens, func() string { return o200kTokens0 + o200kTokens1 }, splitO200k},
	P50kBase:   {P50kBase, p50kLens, func() string { return p50kTokens }, splitP50k},
	R50kBase:   {R50kBase, p50kLens[:r50kRanks], func() string { return p50kTokens[:bytesOf(p50kLens[:r50kRanks])] }, splitP50k},
}

// bytesOf returns the total length of the tokens whose lengths are lens.
func bytesOf(lens string) int {
	n := 0
	for i := range len(lens) {
		n += int(lens[i])
	}
	return n
}

// A vocab maps every token of an encoding to its rank: an open-addressed
// table with linear probing, filled in about a millisecond per 100,000
// tokens. A slot holds a token's first eight bytes, so that a lookup of
// a token of at most eight bytes (most words with their leading space)
// reads one cache line, and a longer one reads one more, the rest of its
// bytes in blob. A slot's meta is 0 when it is empty, or packs:
//
//	bits  0-17  the rank
//	bit     18  the token is not valid UTF-8 (partialUTF8 >> 13)
//	bits 19-26  the token's length (1 to 255)
//	bits 27-47  the token's offset in blob
//	bits 48-63  the top 16 bits of the token's hash, which rule out
//	            almost every other string that starts with the same bytes
//
// The table is at most half full, so most probes for a string that is not
// a token end at the first empty slot.
type vocab struct {
	blob  string
	slots []slot
	mask  uint64
}

type slot struct {
	head uint64 // head(token)
	meta uint64
}

const (
	slotRank    = 1<<18 - 1
	slotPartial = 1 << 18
	slotLenAt   = 19
	slotOffAt   = 27
	slotTag     = uint64(0xffff) << 48
	slotKey     = slotTag | 0xff<<slotLenAt
	maxRanks    = slotRank + 1
	maxBlob     = 1 << 21
)

// newVocab builds the table of the tokens described by lens and blob (see
// the generated files), and the table of two-byte tokens (BPE.pairs). It
// returns ok false if they do not fit the slot layout, which the generated
// files always do.
func newVocab(lens, blob string) (v *vocab, pairs *[1 << 16]uint32, ok bool) {
	if len(lens) > maxRanks || len(blob) > maxBlob {
		return nil, nil, false
	}
	size := 1
	for size < 2*len(lens) {
		size *= 2
	}
	v = &vocab{blob: blob, slots: make([]slot, size), mask: uint64(size - 1)}
	pairs = new([1 << 16]uint32)
	for i := range pairs {
		pairs[i] = noRank
	}
	off := 0
	for r := range len(lens) {
		n := int(lens[r])
		if n == 0 {
			continue
		}
		if off+n > len(blob) {
			return nil, nil, false
		}
		tok := blob[off : off+n]
		w := head(tok)
		h := hashString(tok, w)
		e := h&slotTag | uint64(off)<<slotOffAt | uint64(n)<<slotLenAt | uint64(r)
		if !utf8.ValidString(tok) {
			e |= slotPartial
		}
		if n == 2 {
			pairs[uint16(tok[0])<<8|uint16(tok[1])] = uint32(r)
		}
		i := h & v.mask
		for v.slots[i].meta != 0 {
			i = (i + 1) & v.mask
		}
		v.slots[i] = slot{w, e}
		off += n
	}
	return v, pairs, off == len(blob)
}

// find returns the rank of the token s, with partialUTF8 set if its bytes
// are not valid UTF-8, and whether s is a token; w is head(s) and h is
// hashString(s, w).
func (v *vocab) find(s string, w, h uint64) (uint32, bool) {
	want := h&slotTag | uint64(len(s))<<slotLenAt
	for i := h & v.mask; ; i = (i + 1) & v.mask {
		e := &v.slots[i]
		if e.meta == 0 {
			return 0, false
		}
		if e.head == w && e.meta&slotKey == want {
			if len(s) <= 8 {
				return uint32(e.meta&slotRank) | uint32(e.meta&slotPartial)<<13, true
			}
			off := int(e.meta >> slotOffAt & (maxBlob - 1))
			if v.blob[off+8:off+len(s)] == s[8:] {
				return uint32(e.meta&slotRank) | uint32(e.meta&slotPartial)<<13, true
			}
		}
	}
}

// all calls f with every token and its rank.
func (v *vocab) all(f func(tok string, rank uint32)) {
	for _, e := range v.slots {
		if e.meta != 0 {
			off, n := int(e.meta>>slotOffAt&(maxBlob-1)), int(e.meta>>slotLenAt&0xff)
			f(v.blob[off:off+n], uint32(e.meta&slotRank))
		}
	}
}

// headAt returns head(text[i:j]): without a branch on the length of the
// piece unless it is at the very end of text.
func headAt(text string, i, j int) uint64 {
	if i+8 <= len(text) {
		return load64(text[i:]) & headMask[min(j-i, 8)]
	}
	return head(text[i:j])
}

// headMask[n] keeps the first n bytes of a word.
var headMask = [9]uint64{0, 1<<8 - 1, 1<<16 - 1, 1<<24 - 1, 1<<32 - 1, 1<<40 - 1, 1<<48 - 1, 1<<56 - 1, ^uint64(0)}

// head returns the first eight bytes of s as a little-endian word, padded
// with zeros.
func head(s string) uint64 {
	switch n := len(s); {
	case n >= 8:
		return load64(s)
	case n >= 4:
		return uint64(load32(s)) | uint64(load32(s[n-4:])>>(8*(8-n)))<<32
	default:
		var w uint64
		for k := n - 1; k >= 0; k-- {
			w = w<<8 | uint64(s[k])
		}
		return w
	}
}

// The constants of wyhash, whose structure hashString follows.
const (
	hashK0 = 0xa0761d6478bd642f
	hashK1 = 0xe7037ed1a0b428db
	hashK2 = 0x8ebc6af09c88c6e3
)

// hashString is a fast hash of short strings (wyhash's structure, fixed
// keys) given w, head(s): the table is fixed, so no input can be chosen to
// make its probes long, and a fixed hash keeps the table's layout the
// same in every run.
func hashString(s string, w uint64) uint64 {
	n := len(s)
	seed := uint64(hashK0)
	var b uint64
	switch {
	case n > 16:
		for p := s[8:]; len(p) > 16; p = p[16:] {
			seed = mix(load64(p)^hashK1, load64(p[8:])^seed)
		}
		b = load64(s[n-16:]) ^ load64(s[n-8:])<<1
	case n > 8:
		b = load64(s[n-8:])
	}
	return mix(hashK1^uint64(n), mix(w^hashK1, b^seed^hashK2))
}

func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// load64 and load32 read little-endian words; the compiler makes each a
// single load.
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func load32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}
