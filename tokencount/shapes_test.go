package tokencount

import (
	"math/rand/v2"
	"strings"
)

// A shape is a degenerate input of a given size: one enormous piece, or
// pieces no natural text has, each a way to make byte pair merging or the
// pre-tokenizer slow. They are counted, checked against tiktoken-go and
// benchmarked by size to show that the cost stays linear.
type shape struct {
	Name string
	Make func(size int) string
}

var shapes = []shape{
	{"letter", func(n int) string { return strings.Repeat("a", n) }},
	{"ab", func(n int) string { return repeatTo("ab", n) }},
	{"random-letters", func(n int) string { return randomFrom("abcdefghijklmnopqrstuvwxyz", n) }},
	{"random-case", func(n int) string { return randomFrom("aAbBcCdDeE", n) }},
	{"digits", func(n int) string { return randomFrom("0123456789", n) }},
	{"spaces", func(n int) string { return strings.Repeat(" ", n-1) + "x" }},
	{"newlines", func(n int) string { return strings.Repeat("\n", n) }},
	{"mixed-space", func(n int) string { return repeatTo(" \t \r\n", n) }},
	{"punctuation", func(n int) string { return repeatTo("=-", n) }},
	{"cjk", func(n int) string { return repeatTo("中", n) }},
	{"cjk-random", func(n int) string {
		return randomFrom("的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年", n)
	}},
	{"emoji-family", func(n int) string { return repeatTo("👨\u200d👩\u200d👧\u200d👦", n) }},
	{"combining", func(n int) string { return "a" + repeatTo("\u0301", n-1) }},
	{"random-bytes", func(n int) string {
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return string(b)
	}},
	{"high-bytes", func(n int) string { return randomFrom("\x80\xbf\xc3\xe2\xf0\xff", n) }},
}

// repeatTo repeats unit up to about n bytes, whole units only.
func repeatTo(unit string, n int) string {
	return strings.Repeat(unit, max(n/len(unit), 1))
}

// randomFrom draws about n bytes of runes from alphabet, or of bytes when
// alphabet is not valid UTF-8, with a seed fixed by n.
func randomFrom(alphabet string, n int) string {
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	var b strings.Builder
	b.Grow(n + 4)
	runes := []rune(alphabet)
	bytesOnly := string(runes) != alphabet
	for b.Len() < n {
		if bytesOnly {
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		} else {
			b.WriteRune(runes[rng.IntN(len(runes))])
		}
	}
	return b.String()
}
