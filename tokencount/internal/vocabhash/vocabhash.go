// Package vocabhash is the hash and the table layout of package
// tokencount's vocabularies, shared by the package and by the generator
// (internal/vocabgen) that lays the tables out ahead of time: both must
// place every token in the same slot.
package vocabhash

import "math/bits"

// Size returns the number of slots of the table of n tokens: 70% full,
// which keeps the table small (building it in a fresh process is mostly
// first touches of its memory) and its probes short.
func Size(n int) int { return n*10/7 + 1 }

// Index returns the slot at which the probes for hash h start, in a table
// of size slots: the high bits of h scaled to the size. The probes go on
// at the next slots, wrapping around.
func Index(h uint64, size int) int {
	i, _ := bits.Mul64(h, uint64(size))
	return int(i)
}

// Head returns the first eight bytes of s as a little-endian word, padded
// with zeros.
func Head(s string) uint64 {
	switch n := len(s); {
	case n >= 8:
		return Load64(s)
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

// The constants of wyhash, whose structure Hash follows.
const (
	k0 = 0xa0761d6478bd642f
	k1 = 0xe7037ed1a0b428db
	k2 = 0x8ebc6af09c88c6e3
)

// Hash is a fast hash of short strings (wyhash's structure, fixed keys)
// given w, Head(s). The tables are fixed, so no input can be chosen to
// make their probes long; a fixed hash lets the tables be laid out ahead
// of time.
func Hash(s string, w uint64) uint64 {
	n := len(s)
	seed := uint64(k0)
	var b uint64
	switch {
	case n > 16:
		for p := s[8:]; len(p) > 16; p = p[16:] {
			seed = mix(Load64(p)^k1, Load64(p[8:])^seed)
		}
		b = Load64(s[n-16:]) ^ Load64(s[n-8:])<<1
	case n > 8:
		b = Load64(s[n-8:])
	}
	return mix(k1^uint64(n), mix(w^k1, b^seed^k2))
}

func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// Load64 reads a little-endian word from the first eight bytes of s; the
// compiler makes it a single load.
func Load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func load32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}
