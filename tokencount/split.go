package tokencount

import (
	"math/bits"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/tokencount/internal/vocabhash"
)

// This file holds hand-written pre-tokenizers equivalent to the split
// patterns of the tiktoken encodings, as tiktoken-go runs them with the
// backtracking engine github.com/dlclark/regexp2: leftmost-first
// alternation, greedy quantifiers with backtracking, and Go's unicode
// tables for \p{..} and \s (unicode.IsSpace). Each split function returns
// the end of the piece that starts at byte i; every position starts some
// alternative, so the pieces partition the text.
//
// tiktoken-go hands the regexp []rune(text), so an invalid byte is one
// rune, U+FFFD (category So), and that is what these functions see too.

// Character class bits.
const (
	cL     = 1 << iota // \p{L}
	cN                 // \p{N}
	cSpace             // \s
	cNL                // \r or \n
	cUp                // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	cLow               // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	cM                 // \p{M}
	cWide              // a byte >= 0x80: decode the rune to classify it
)

// byteClass holds the class bits of every ASCII byte, and cWide for the
// bytes that start or continue a multi-byte rune.
var byteClass = func() (t [256]uint8) {
	for b := range t {
		if b < utf8.RuneSelf {
			t[b] = runeClass(rune(b))
		} else {
			t[b] = cWide
		}
	}
	return t
}()

func runeClass(r rune) uint8 {
	var c uint8
	switch {
	case unicode.IsLetter(r):
		c |= cL
		switch {
		case unicode.Is(unicode.Lu, r), unicode.Is(unicode.Lt, r):
			c |= cUp
		case unicode.Is(unicode.Ll, r):
			c |= cLow
		default: // Lm, Lo
			c |= cUp | cLow
		}
	case unicode.IsNumber(r):
		c |= cN
	case unicode.IsMark(r):
		c |= cM | cUp | cLow
	case unicode.IsSpace(r):
		c |= cSpace
		if r == '\r' || r == '\n' {
			c |= cNL
		}
	}
	return c
}

// classAt returns the class of the rune at text[i] and its width.
func classAt(text string, i int) (uint8, int) {
	if c := byteClass[text[i]]; c != cWide {
		return c, 1
	}
	return wideClass(text[i:])
}

// wideClass returns the class and width of the non-ASCII rune that s
// starts with. Classes of the Basic Multilingual Plane are looked up in
// blocks of 256 runes computed on first use, since unicode.Is over several
// tables is slow and text in one script keeps hitting the same blocks.
func wideClass(s string) (uint8, int) {
	r, w := utf8.DecodeRuneInString(s)
	if r > 0xFFFF {
		return runeClass(r), w
	}
	blk := classBlocks[r>>8].Load()
	if blk == nil {
		blk = new([256]uint8)
		for k := range blk {
			blk[k] = runeClass(r&^0xFF | rune(k))
		}
		classBlocks[r>>8].Store(blk)
	}
	return blk[r&0xFF], w
}

var classBlocks [256]atomic.Pointer[[256]uint8]

// c1Wide returns the class of the non-ASCII rune at text[i].
func c1Wide(text string, i int) uint8 {
	c, _ := wideClass(text[i:])
	return c
}

// prefixable reports whether a rune of class c matches [^\r\n\p{L}\p{N}].
func prefixable(c uint8) bool { return c&(cNL|cL|cN) == 0 }

// punct reports whether a rune of class c matches [^\s\p{L}\p{N}].
func punct(c uint8) bool { return c&(cSpace|cL|cN) == 0 }

// run returns the end of the run of runes from i whose class has any of
// the bits in mask. Runs of ASCII letters are scanned eight bytes at a
// time; other ASCII bytes take one table lookup each.
func run(text string, i int, mask uint8) int {
	switch mask {
	case cL:
		i = asciiLetters(text, i, 0x20)
	case cLow:
		i = asciiLetters(text, i, 0)
	}
	for i < len(text) {
		c := byteClass[text[i]]
		if c&mask != 0 {
			i++
			continue
		}
		if c != cWide {
			break
		}
		c, w := wideClass(text[i:])
		if c&mask == 0 {
			break
		}
		i += w
	}
	return i
}

// asciiLetters returns the end of the run of ASCII letters from i: lower
// case ones only if fold is 0, both cases if it is 0x20.
func asciiLetters(text string, i int, fold uint64) int {
	for i+8 <= len(text) {
		if m := notLetters(vocabhash.Load64(text[i:]), fold); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for i < len(text) && 'a' <= text[i]|byte(fold) && text[i]|byte(fold) <= 'z' {
		i++
	}
	return i
}

// notLetters returns x, eight bytes, with the high bit of each byte that
// is not an ASCII letter set, and no other bit (see asciiLetters for fold).
// No byte's arithmetic carries into the next: bytes are at most 0x7f once
// the high bit is cleared.
func notLetters(x, fold uint64) uint64 {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	y := (x | fold*ones) &^ high
	atLeastA := y + (0x80-'a')*ones
	atMostZ := ('z'+0x80)*ones - y
	return ^(atLeastA & atMostZ &^ x) & high
}

// runMax is run limited to max runes.
func runMax(text string, i int, mask uint8, max int) int {
	for n := 0; n < max && i < len(text); n++ {
		c, w := classAt(text, i)
		if c&mask == 0 {
			break
		}
		i += w
	}
	return i
}

// contraction matches 's|'t|'re|'ve|'m|'ll|'d at i, ASCII case-folded
// when fold is set, and returns its end or -1. regexp2 folds case with
// unicode.ToLower, and no non-ASCII rune lowers to these letters.
func contraction(text string, i int, fold bool) int {
	if i+1 >= len(text) || text[i] != '\'' {
		return -1
	}
	lower := func(b byte) byte {
		if fold && 'A' <= b && b <= 'Z' {
			return b + 'a' - 'A'
		}
		return b
	}
	switch lower(text[i+1]) {
	case 's', 't', 'm', 'd':
		return i + 2
	case 'r', 'v':
		if i+2 < len(text) && lower(text[i+2]) == 'e' {
			return i + 3
		}
	case 'l':
		if i+2 < len(text) && lower(text[i+2]) == 'l' {
			return i + 3
		}
	}
	return -1
}

// newlineWhitespace matches \s*[\r\n]+ at i: the end of the last newline
// in the run of white space, or -1 when the run has none.
func newlineWhitespace(text string, i int) int {
	last := -1
	for i < len(text) {
		c, w := classAt(text, i)
		if c&cSpace == 0 {
			break
		}
		if c&cNL != 0 {
			last = i + 1
		}
		i += w
	}
	return last
}

// whitespace matches \s+(?!\S)|\s+ at i, where text[i] is white space:
// a run of white space gives back its last rune when a non-space follows,
// so that the rune can prefix the next word.
func whitespace(text string, i int) int {
	end, lastStart := i, i
	for end < len(text) {
		c, w := classAt(text, end)
		if c&cSpace == 0 {
			break
		}
		lastStart = end
		end += w
	}
	if end == len(text) || lastStart == i {
		return end
	}
	return lastStart
}

// splitCl100k implements cl100k_base's pattern:
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
func splitCl100k(text string, i int) int {
	// classAt by hand (the compiler does not inline it): this runs once
	// for every piece.
	c0, w0 := byteClass[text[i]], 1
	if c0 == cWide {
		c0, w0 = wideClass(text[i:])
	} else if text[i] == '\'' {
		if e := contraction(text, i, true); e >= 0 {
			return e
		}
	}
	if c0&cL != 0 {
		return run(text, i+w0, cL)
	}
	if prefixable(c0) && i+w0 < len(text) {
		c1, w1 := byteClass[text[i+w0]], 1
		if c1 == cWide {
			c1, w1 = wideClass(text[i+w0:])
		}
		if c1&cL != 0 {
			return run(text, i+w0+w1, cL)
		}
	}
	if c0&cN != 0 {
		return runMax(text, i, cN, 3)
	}
	if e := spacePunct(text, i, c0); e >= 0 {
		return run(text, e, cNL)
	}
	if e := newlineWhitespace(text, i); e >= 0 {
		return e
	}
	return whitespace(text, i)
}

// spacePunct matches " ?[^\s\p{L}\p{N}]+" at i, where the rune at i has
// class c0, and returns its end or -1.
func spacePunct(text string, i int, c0 uint8) int {
	if text[i] == ' ' && i+1 < len(text) {
		if c1 := byteClass[text[i+1]]; c1 == 0 || c1 == cWide && punct(c1Wide(text, i+1)) {
			return runPunct(text, i+1)
		}
	}
	if punct(c0) {
		return runPunct(text, i)
	}
	return -1
}

// runPunct returns the end of the run of [^\s\p{L}\p{N}] from i.
func runPunct(text string, i int) int {
	for i < len(text) {
		c := byteClass[text[i]]
		if c == 0 { // ASCII punctuation and symbols have no class bits
			i++
			continue
		}
		if c != cWide {
			break
		}
		c, w := wideClass(text[i:])
		if !punct(c) {
			break
		}
		i += w
	}
	return i
}

// splitP50k implements the pattern of p50k_base and r50k_base:
//
//	's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
func splitP50k(text string, i int) int {
	if e := contraction(text, i, false); e >= 0 {
		return e
	}
	start := i
	c, w := classAt(text, i)
	if text[i] == ' ' && i+1 < len(text) {
		c, w = classAt(text, i+1)
		if c&cSpace == 0 {
			start = i + 1
		}
	}
	switch {
	case start == i && c&cSpace != 0:
		return whitespace(text, i)
	case c&cL != 0:
		return run(text, start+w, cL)
	case c&cN != 0:
		return run(text, start+w, cN)
	default:
		return runPunct(text, start+w)
	}
}

// splitO200k implements o200k_base's pattern:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
func splitO200k(text string, i int) int {
	if e := asciiWordO200k(text, i); e >= 0 {
		return e
	}
	c0, w0 := classAt(text, i)
	canPrefix := prefixable(c0) && i+w0 < len(text)
	// Both word alternatives need a letter or mark at i, or at i+w0 after a
	// prefix: punctuation and white space before anything else (most
	// pieces of code) skip them.
	if c0&(cUp|cLow) != 0 || canPrefix && wordy(text, i+w0) {
		for _, body := range [2]func(string, int) int{wordLowerTail, wordUpperHead} {
			if canPrefix {
				if e := body(text, i+w0); e >= 0 {
					return e
				}
			}
			if e := body(text, i); e >= 0 {
				return e
			}
		}
	}
	if c0&cN != 0 {
		return runMax(text, i, cN, 3)
	}
	if e := spacePunct(text, i, c0); e >= 0 {
		for e < len(text) && (text[e] == '\r' || text[e] == '\n' || text[e] == '/') {
			e++
		}
		return e
	}
	if e := newlineWhitespace(text, i); e >= 0 {
		return e
	}
	return whitespace(text, i)
}

// wordy reports whether the rune at text[i] is in [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
// or [\p{Ll}\p{Lm}\p{Lo}\p{M}], the runes o200k_base's words start with.
func wordy(text string, i int) bool {
	c, _ := classAt(text, i)
	return c&(cUp|cLow) != 0
}

// asciiWordO200k matches at i the commonest pieces of o200k_base's first
// two alternatives without their general machinery: an optional ASCII
// prefix, ASCII upper-case letters, then lower-case ones, at least one
// letter in all, followed by the end of the text or by an ASCII byte that
// is not an apostrophe (an upper-case letter after lower-case ones starts
// the next piece). No ASCII letter is both upper and lower case, so there
// is nothing to backtrack over. It returns -1 for
// anything else, which the general path matches.
func asciiWordO200k(text string, i int) int {
	j := i
	if c := byteClass[text[i]]; c != cWide && c&(cNL|cL|cN) == 0 {
		j++
	}
	k := j
	for k < len(text) && 'A' <= text[k] && text[k] <= 'Z' {
		k++
	}
	e := asciiLetters(text, k, 0)
	if e == j || (e < len(text) && (text[e] >= utf8.RuneSelf || text[e] == '\'')) {
		return -1
	}
	return e
}

// wordLowerTail matches [Up]*[Low]+(?i:'s|...)? at i, with the
// backtracking of a greedy [Up]*: when the upper run is not followed by a
// lower rune, the last rune of the run that is also lower ends the match.
func wordLowerTail(text string, i int) int {
	end, lastBoth := i, -1
	for end < len(text) {
		c, w := classAt(text, end)
		if c&cUp == 0 {
			break
		}
		if c&cLow != 0 {
			lastBoth = end + w
		}
		end += w
	}
	if end < len(text) {
		if c, w := classAt(text, end); c&cLow != 0 {
			end = run(text, end+w, cLow)
			return optContraction(text, end)
		}
	}
	if lastBoth < 0 {
		return -1
	}
	return optContraction(text, lastBoth)
}

// wordUpperHead matches [Up]+[Low]*(?i:'s|...)? at i.
func wordUpperHead(text string, i int) int {
	if c, _ := classAt(text, i); c&cUp == 0 {
		return -1
	}
	end := run(text, i, cUp)
	end = run(text, end, cLow)
	return optContraction(text, end)
}

func optContraction(text string, i int) int {
	if e := contraction(text, i, true); e >= 0 {
		return e
	}
	return i
}
