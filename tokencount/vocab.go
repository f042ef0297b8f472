package tokencount

import (
	_ "embed" // the vocabularies

	"github.com/ragkit/ragkit/tokencount/internal/vocabhash"
)

//go:generate go run ./internal/vocabgen

// The vocabularies, generated from tiktoken-go-loader's rank files by
// internal/vocabgen and laid out as the lookup table (see vocab): for
// each encoding, the length of the token in each slot (0 for an empty
// slot), the rank of each token in the order of the slots (three bytes
// each), and the tokens' bytes in that order, split in files of at most 1
// MiB. Nothing needs decoding and nothing is hashed into place: an
// encoding is ready after one pass over its slots.
var (
	//go:embed ranks/cl100k_base.slots
	cl100kSlots string
	//go:embed ranks/cl100k_base.ranks
	cl100kRanks string
	//go:embed ranks/cl100k_base.0.tokens
	cl100kTokens string
	//go:embed ranks/o200k_base.slots
	o200kSlots string
	//go:embed ranks/o200k_base.ranks
	o200kRanks string
	//go:embed ranks/o200k_base.0.tokens
	o200kTokens0 string
	//go:embed ranks/o200k_base.1.tokens
	o200kTokens1 string
	//go:embed ranks/p50k_base.slots
	p50kSlots string
	//go:embed ranks/p50k_base.ranks
	p50kRanks string
	//go:embed ranks/p50k_base.0.tokens
	p50kTokens string
	//go:embed ranks/r50k_base.slots
	r50kSlots string
	//go:embed ranks/r50k_base.ranks
	r50kRanks string
	//go:embed ranks/r50k_base.0.tokens
	r50kTokens string
)

// spec describes one encoding: its vocabulary and how it pre-tokenizes.
type spec struct {
	name  string
	vocab vocabData
	split func(string, int) int // the pre-tokenizer
}

// vocabData is an encoding's generated files.
type vocabData struct {
	slots  string    // the length of the token in each slot, 0 if none
	ranks  string    // the rank of each token, three bytes, little-endian
	tokens [2]string // the tokens' bytes, in one or two parts
}

var specs = map[string]spec{
	Cl100kBase: {Cl100kBase, vocabData{cl100kSlots, cl100kRanks, [2]string{cl100kTokens}}, splitCl100k},
	O200kBase:  {O200kBase, vocabData{o200kSlots, o200kRanks, [2]string{o200kTokens0, o200kTokens1}}, splitO200k},
	P50kBase:   {P50kBase, vocabData{p50kSlots, p50kRanks, [2]string{p50kTokens}}, splitP50k},
	R50kBase:   {R50kBase, vocabData{r50kSlots, r50kRanks, [2]string{r50kTokens}}, splitP50k},
}

// A vocab maps every token of an encoding to its rank: an open-addressed
// table with linear probing (internal/vocabhash has its hash and layout).
// A slot holds a token's first eight bytes, so that a lookup of a token of
// at most eight bytes (most words with their leading space) reads one
// cache line, and a longer one reads one more, the rest of its bytes in
// the embedded vocabulary. A slot's meta is 0 when it is empty, or packs:
//
//	bits  0-17  the rank
//	bit     18  the token is not valid UTF-8 (partialUTF8 >> 13)
//	bits 19-26  the token's length (1 to 255)
//	bits 27-47  the token's offset in the vocabulary's bytes
//
// Filling the table computes no hash (the generator placed the tokens),
// and a lookup compares a slot's first eight bytes and length before it
// reads the rest of a longer token.
type vocab struct {
	blob  [2]string // the tokens' bytes; a token lies in one part
	slots []slot
}

type slot struct {
	head uint64 // vocabhash.Head(token)
	meta uint64
}

const (
	slotRank    = 1<<18 - 1
	slotPartial = 1 << 18
	slotLenAt   = 19
	slotOffAt   = 27
	slotLen     = 0xff << slotLenAt
	maxRanks    = slotRank + 1
	maxBlob     = 1 << 21
)

// newVocab fills the table from the generated files, in one pass over the
// slots in order, and the table of two-byte tokens (BPE.pairs). It
// returns ok false if the files are inconsistent, which the generated
// ones never are (a test checks that every token is found).
func newVocab(d vocabData) (v *vocab, pairs *[1 << 16]uint32, ok bool) {
	if len(d.tokens[0])+len(d.tokens[1]) > maxBlob {
		return nil, nil, false
	}
	v = &vocab{blob: d.tokens, slots: make([]slot, len(d.slots))}
	pairs = new([1 << 16]uint32)
	for i := range pairs {
		pairs[i] = noRank
	}
	off, k := 0, 0
	for i := range len(d.slots) {
		n := int(d.slots[i])
		if n == 0 {
			continue
		}
		b, o, ok := v.at(off, n)
		if !ok || k+3 > len(d.ranks) {
			return nil, nil, false
		}
		tok := b[o : o+n]
		r := uint64(d.ranks[k]) | uint64(d.ranks[k+1])<<8 | uint64(d.ranks[k+2])<<16
		partial := r >> 23
		if r &^= 1 << 23; r > slotRank {
			return nil, nil, false
		}
		w := headAt(b, o, o+n) // read from the blob: one load, not a loop over tok
		e := uint64(off)<<slotOffAt | uint64(n)<<slotLenAt | partial*slotPartial | r
		if n == 2 {
			pairs[uint16(tok[0])<<8|uint16(tok[1])] = uint32(r)
		}
		v.slots[i] = slot{w, e}
		off, k = off+n, k+3
	}
	return v, pairs, off == len(d.tokens[0])+len(d.tokens[1]) && k == len(d.ranks)
}

// token returns the n bytes at offset off of the vocabulary's bytes.
func (v *vocab) token(off, n int) (string, bool) {
	b, o, ok := v.at(off, n)
	if !ok {
		return "", false
	}
	return b[o : o+n], true
}

// at returns the part of the vocabulary's bytes that holds the n bytes at
// offset off, and their offset in it.
func (v *vocab) at(off, n int) (b string, o int, ok bool) {
	b = v.blob[0]
	if off >= len(b) {
		b, off = v.blob[1], off-len(b)
	}
	return b, off, off+n <= len(b)
}

// find returns the rank of the token s, with partialUTF8 set if its bytes
// are not valid UTF-8, and whether s is a token; w is vocabhash.Head(s)
// and h is vocabhash.Hash(s, w).
func (v *vocab) find(s string, w, h uint64) (uint32, bool) {
	want := uint64(len(s)) << slotLenAt
	for i := vocabhash.Index(h, len(v.slots)); ; {
		e := &v.slots[i]
		if e.meta == 0 {
			return 0, false
		}
		if e.head == w && e.meta&slotLen == want {
			if len(s) <= 8 {
				return uint32(e.meta&slotRank) | uint32(e.meta&slotPartial)<<13, true
			}
			if tok, _ := v.token(int(e.meta>>slotOffAt&(maxBlob-1)), len(s)); tok[8:] == s[8:] {
				return uint32(e.meta&slotRank) | uint32(e.meta&slotPartial)<<13, true
			}
		}
		if i++; i == len(v.slots) {
			i = 0
		}
	}
}

// all calls f with every token and its rank.
func (v *vocab) all(f func(tok string, rank uint32)) {
	for _, e := range v.slots {
		if e.meta != 0 {
			tok, _ := v.token(int(e.meta>>slotOffAt&(maxBlob-1)), int(e.meta>>slotLenAt&0xff))
			f(tok, uint32(e.meta&slotRank))
		}
	}
}

// headAt returns vocabhash.Head(text[i:j]): without a branch on the length of the
// piece unless it is at the very end of text.
func headAt(text string, i, j int) uint64 {
	if i+8 <= len(text) {
		return vocabhash.Load64(text[i:]) & headMask[min(j-i, 8)]
	}
	return vocabhash.Head(text[i:j])
}

// headMask[n] keeps the first n bytes of a word.
var headMask = [9]uint64{0, 1<<8 - 1, 1<<16 - 1, 1<<24 - 1, 1<<32 - 1, 1<<40 - 1, 1<<48 - 1, 1<<56 - 1, ^uint64(0)}
