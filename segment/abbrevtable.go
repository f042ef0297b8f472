package segment

import "unicode/utf8"

// abbrevTable holds a set of abbreviations and their kinds. It is looked
// up once for nearly every period in a text, almost always with an
// ordinary word, so it hashes the lower-case form of a token while making
// it, in one pass, and probes an open-addressed table, where a map needed
// the lower-case bytes first and hashed them again.
type abbrevTable struct {
	slots []abbrevSlot // a power of two of them, at most half full
	// seen has the bit seenBit sets for every ASCII key: a token whose bit
	// is clear is no abbreviation, which most words before a period are
	// not, and this tells without reading the whole token twice.
	seen [seenWords]uint64
}

const seenWords = 64 // 4096 bits

// seenBit returns the bit of a lower-case ASCII key of length n that
// starts with first and ends with last.
func seenBit(n int, first, last byte) (word int, bit uint64) {
	h := uint(n)*0x9E3779B1 ^ uint(first)*0x85EBCA77 ^ uint(last)*0xC2B2AE3D
	h ^= h >> 15
	return int(h>>6) % seenWords, 1 << (h & 63)
}

// lowerASCII returns the lower case of the ASCII byte c.
func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		c += 'a' - 'A'
	}
	return c
}

type abbrevSlot struct {
	key  string // lower case, without the final period; "" if free
	kind abbrKind
}

// newAbbrevTable builds the table of the abbreviations in m. No list holds
// the empty string, which marks a free slot.
func newAbbrevTable(m map[string]abbrKind) *abbrevTable {
	n := 8
	for n < 2*len(m) {
		n <<= 1
	}
	t := &abbrevTable{slots: make([]abbrevSlot, n)}
	for k, v := range m {
		if k == "" || v == abbrNone {
			continue
		}
		i := hashKey(k) & uint64(n-1)
		for t.slots[i].key != "" {
			i = (i + 1) & uint64(n-1)
		}
		t.slots[i] = abbrevSlot{k, v}
		if allASCII(k) {
			w, b := seenBit(len(k), k[0], k[len(k)-1])
			t.seen[w] |= b
		}
	}
	return t
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// hashKey is FNV-1a of a lower-case key.
func hashKey(k string) uint64 {
	h := uint64(fnvOffset)
	for i := 0; i < len(k); i++ {
		h = (h ^ uint64(k[i])) * fnvPrime
	}
	return h
}

// lookup returns the kind of abbreviation the lower-case form of tok is
// (see lower), or abbrNone, and whether tok is ASCII.
func (t *abbrevTable) lookup(tok string) (kind abbrKind, ascii bool) {
	if len(tok) == 0 || !allASCII(tok) {
		return t.lookupUnicode(tok), false
	}
	var buf [24]byte
	if len(tok) > len(buf) {
		return abbrNone, true // lower would not fit it either
	}
	if w, b := seenBit(len(tok), lowerASCII(tok[0]), lowerASCII(tok[len(tok)-1])); t.seen[w]&b == 0 {
		return abbrNone, true
	}
	h := uint64(fnvOffset)
	for i := 0; i < len(tok); i++ {
		c := lowerASCII(tok[i])
		buf[i] = c
		h = (h ^ uint64(c)) * fnvPrime
	}
	return t.find(buf[:len(tok)], h), true
}

// lookupUnicode is lookup for a token that is not ASCII.
func (t *abbrevTable) lookupUnicode(tok string) abbrKind {
	var buf [24]byte
	key := lower(buf[:], tok)
	if key == nil {
		return abbrNone
	}
	return t.find(key, hashKey(string(key)))
}

func (t *abbrevTable) find(key []byte, h uint64) abbrKind {
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.key == string(key) {
			return s.kind
		}
		if s.key == "" {
			return abbrNone
		}
	}
}

func allASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
