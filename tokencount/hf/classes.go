package hf

import (
	"slices"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// Character classes as Oniguruma (the regular expression engine the
// Hugging Face library is built with) sees them in its Unicode mode:
// \s is White_Space, \p{L} letters (of five categories), \p{N}
// numbers, \p{M} marks, \p{P} punctuation, \p{S} symbols. Go's unicode
// tables give the same sets.
const (
	cLu    = 1 << iota // \p{Lu}
	cLl                // \p{Ll}
	cLt                // \p{Lt}
	cLm                // \p{Lm}
	cLo                // \p{Lo}
	cN                 // \p{N}
	cSpace             // \s
	cNL                // \r or \n
	cM                 // \p{M}
	cP                 // \p{P}
	cS                 // \p{S}
	cWide              // a byte >= 0x80: decode the rune to classify it

	cL = cLu | cLl | cLt | cLm | cLo // \p{L}
)

// class is a set of the bits above.
type class = uint16

var byteClass = func() (t [256]class) {
	for b := range t {
		if b < utf8.RuneSelf {
			t[b] = runeClass(rune(b))
		} else {
			t[b] = cWide
		}
	}
	return t
}()

// runeClass returns the class of r in the library's regular expressions:
// Go's tables, but for the characters they do not know yet.
func runeClass(r rune) class {
	if r >= utf8.RuneSelf {
		if k, ok := slices.BinarySearchFunc(refClasses, r, func(cr classRange, r rune) int {
			switch {
			case cr.hi < r:
				return -1
			case cr.lo > r:
				return 1
			}
			return 0
		}); ok {
			return refClasses[k].c
		}
	}
	return runeClassGo(r)
}

// classRange gives the class c to the characters lo to hi.
type classRange struct {
	lo, hi rune
	c      class
}

// runeClassGo is the class of r by Go's tables alone.
func runeClassGo(r rune) class {
	switch {
	case unicode.IsLetter(r):
		switch {
		case unicode.Is(unicode.Lu, r):
			return cLu
		case unicode.Is(unicode.Ll, r):
			return cLl
		case unicode.Is(unicode.Lt, r):
			return cLt
		case unicode.Is(unicode.Lm, r):
			return cLm
		}
		return cLo
	case unicode.IsNumber(r):
		return cN
	case unicode.IsMark(r):
		return cM
	case unicode.IsSpace(r):
		if r == '\r' || r == '\n' {
			return cSpace | cNL
		}
		return cSpace
	case unicode.IsPunct(r):
		return cP
	case unicode.IsSymbol(r):
		return cS
	}
	return 0
}

// classAt returns the class of the rune at s[i] and its width.
func classAt(s string, i int) (class, int) {
	if c := byteClass[s[i]]; c != cWide {
		return c, 1
	}
	return wideClass(s[i:])
}

// wideClass classifies the non-ASCII rune that s starts with. Classes of
// the Basic Multilingual Plane are looked up in blocks of 256 runes built
// on first use: unicode.Is over several tables is slow, and text in one
// script keeps hitting the same blocks.
func wideClass(s string) (class, int) {
	r, w := utf8.DecodeRuneInString(s)
	if r > 0xFFFF {
		return runeClass(r), w
	}
	blk := classBlocks[r>>8].Load()
	if blk == nil {
		blk = new([256]class)
		for k := range blk {
			blk[k] = runeClass(r&^0xFF | rune(k))
		}
		classBlocks[r>>8].Store(blk)
	}
	return blk[r&0xFF], w
}

var classBlocks [256]atomic.Pointer[[256]class]

// run returns the end of the run of runes from i whose class has any of
// the bits in mask.
func run(s string, i int, mask class) int {
	for i < len(s) {
		c := byteClass[s[i]]
		if c&mask != 0 {
			i++
			continue
		}
		if c != cWide {
			break
		}
		c, w := wideClass(s[i:])
		if c&mask == 0 {
			break
		}
		i += w
	}
	return i
}

// runNot returns the end of the run of runes from i whose class has none
// of the bits in mask.
func runNot(s string, i int, mask class) int {
	for i < len(s) {
		c, w := classAt(s, i)
		if c&mask != 0 {
			break
		}
		i += w
	}
	return i
}

// runMax is run limited to max runes.
func runMax(s string, i int, mask class, max int) int {
	for n := 0; n < max && i < len(s); n++ {
		c, w := classAt(s, i)
		if c&mask == 0 {
			break
		}
		i += w
	}
	return i
}
