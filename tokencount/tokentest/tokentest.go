package tokentest

import (
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/tokencount"
)

// Func adapts an ordinary function to the [tokencount.Tokenizer] interface,
// like http.HandlerFunc: Func(f).Count(s) is f(s). It is the quickest way
// to write a tokenizer that misbehaves on purpose (a negative count, an
// enormous one, one that changes between calls).
type Func func(text string) int

// Count returns f(text).
func (f Func) Count(text string) int { return f(text) }

// FixedWidth counts one token per Bytes bytes, rounding up: with Bytes 4,
// "hello" is 2 tokens. Bytes below 1 counts as 1. It is additive only at
// multiples of Bytes, and it is not an [tokencount.Offsetter].
type FixedWidth struct{ Bytes int }

// Count returns ceil(len(text) / Bytes).
func (f FixedWidth) Count(text string) int {
	w := max(f.Bytes, 1)
	return (len(text) + w - 1) / w
}

// Runes counts one token per rune (an invalid byte is one rune). It is
// additive across concatenation, and it is not an [tokencount.Offsetter].
type Runes struct{}

// Count returns the number of runes in text.
func (Runes) Count(text string) int { return utf8.RuneCountInString(text) }

// Words counts one token per run of non-space characters, as
// strings.Fields splits them. "a" + "b" is 1 token, not 2: it is not
// additive.
type Words struct{}

// Count returns len(strings.Fields(text)).
func (Words) Count(text string) int { return len(strings.Fields(text)) }

// Hidden hides every method of a tokenizer but Count, so that code that
// takes a faster path for a [tokencount.Offsetter] falls back to its
// general one (synthetic token ends, whose estimates are further off).
type Hidden struct{ Tokenizer tokencount.Tokenizer }

// Count returns h.Tokenizer.Count(text).
func (h Hidden) Count(text string) int { return h.Tokenizer.Count(text) }

// Edge counts like Inner plus Extra tokens for any non-empty text, but
// reports Inner's token ends: every estimate made from the ends of a
// substring is short by Extra, so code that plans near a limit from
// estimates must repair what it planned.
type Edge struct {
	Inner tokencount.Offsetter
	Extra int
}

// Count returns Inner.Count(text) + Extra, or 0 for the empty string.
func (e Edge) Count(text string) int {
	if text == "" {
		return 0
	}
	return e.Inner.Count(text) + e.Extra
}

// AppendTokenEnds returns Inner's token ends.
func (e Edge) AppendTokenEnds(dst []int, text string) []int {
	return e.Inner.AppendTokenEnds(dst, text)
}

// Lumpy is far from additive: a token is a run of up to four letters or
// digits, or any other non-space rune, and white space belongs to the
// token that follows it. "ab"+"cd" is 1 token, not 2; "a"+" "+"b" is 2,
// not 3. White space alone is one token.
type Lumpy struct{}

// Count returns Lumpy's count of text.
func (Lumpy) Count(text string) int {
	n, run := 0, 0
	for _, r := range text {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if run%4 == 0 {
				n++
			}
			run++
		case unicode.IsSpace(r):
			run = 0
		default:
			n++
			run = 0
		}
	}
	if text != "" && n == 0 {
		n = 1
	}
	return n
}

// Crowded is far from additive the other way: a text costs more per word
// the longer it is, as if its tokens crowded each other (n words count
// n + n²/64), so the sum of the parts underestimates the whole by a wide
// margin.
type Crowded struct{}

// Count returns n + n*n/64 for the n words of text.
func (Crowded) Count(text string) int {
	n := len(strings.Fields(text))
	return n + n*n/64
}

// Growing counts one token per word and per punctuation mark, plus one for
// every 16 bytes, so a text counts more than the pieces it is made of.
type Growing struct{}

// Count returns Growing's count of text.
func (Growing) Count(text string) int {
	n := len(text) / 16
	inWord := false
	for _, r := range text {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if !inWord {
				n++
			}
			inWord = true
		case unicode.IsSpace(r):
			inWord = false
		default:
			n++
			inWord = false
		}
	}
	return n
}

// Counting wraps a tokenizer and counts the calls and the bytes that reach
// it, so that tests and benchmarks can check how much tokenizer work an
// operation costs. It implements [tokencount.Offsetter] whatever it wraps:
// AppendTokenEnds is [tokencount.AppendTokenEnds] of the wrapped tokenizer,
// which is its own single pass when it is an Offsetter. Use [Hidden] around
// a Counting to take the Offsetter away. It is safe for concurrent use.
type Counting struct {
	Tokenizer tokencount.Tokenizer

	counts, ends, bytes atomic.Int64
}

// NewCounting returns a Counting that wraps t.
func NewCounting(t tokencount.Tokenizer) *Counting { return &Counting{Tokenizer: t} }

// Count counts the call and returns c.Tokenizer.Count(text).
func (c *Counting) Count(text string) int {
	c.counts.Add(1)
	c.bytes.Add(int64(len(text)))
	return c.Tokenizer.Count(text)
}

// AppendTokenEnds counts the call and returns the wrapped tokenizer's
// token ends.
func (c *Counting) AppendTokenEnds(dst []int, text string) []int {
	c.ends.Add(1)
	c.bytes.Add(int64(len(text)))
	return tokencount.AppendTokenEnds(c.Tokenizer, dst, text)
}

// Counts returns the number of Count calls since the last Reset.
func (c *Counting) Counts() int { return int(c.counts.Load()) }

// Ends returns the number of AppendTokenEnds calls since the last Reset.
func (c *Counting) Ends() int { return int(c.ends.Load()) }

// Bytes returns the bytes passed to Count and AppendTokenEnds since the
// last Reset.
func (c *Counting) Bytes() int { return int(c.bytes.Load()) }

// Reset sets the counters to zero.
func (c *Counting) Reset() {
	c.counts.Store(0)
	c.ends.Store(0)
	c.bytes.Store(0)
}
