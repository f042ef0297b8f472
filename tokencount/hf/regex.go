package hf

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// A matcher finds the pattern of a Split pre-tokenizer: find returns the
// leftmost match that starts at or after i, or -1, -1. Matchers never
// return an empty match.
type matcher interface {
	find(s string, i int) (start, end int)
}

// Hand-written matchers for the split patterns of the tokenizers in wide
// use, equivalent to Oniguruma's leftmost-first backtracking search with
// the classes of classes.go. Patterns are recognized by their exact text.
const (
	// Llama 3 and cl100k_base.
	patLlama3 = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	// Qwen 2 and 3: digits one at a time.
	patQwen = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	// GPT-2, RoBERTa and the ByteLevel pre-tokenizer's own use_regex.
	patGPT2 = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`
	// DeepSeek V3, in three Splits.
	patDigits3  = `\p{N}{1,3}`
	patCJK      = "[\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff]+"
	patDeepSeek = "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+"
)

// partition is a matcher for patterns that match at every position.
type partition func(s string, i int) int

func (p partition) find(s string, i int) (int, int) {
	if i >= len(s) {
		return -1, -1
	}
	return i, p(s, i)
}

// scanner is a matcher for patterns that match at some positions only:
// at returns the end of the match at i, or -1. start, when set, tells the
// bytes a match can start with: the search steps over the others without
// calling at, a byte at a time.
type scanner struct {
	at    func(s string, i int) int
	start *[256]bool
}

func (p scanner) find(s string, i int) (int, int) {
	for i < len(s) {
		if p.start != nil {
			for i < len(s) && !p.start[s[i]] {
				i++
			}
			if i == len(s) {
				break
			}
		}
		if e := p.at(s, i); e >= 0 {
			return i, e
		}
		_, w := classAt(s, i)
		i += w
	}
	return -1, -1
}

// numberStart are the bytes a \p{N} can start with: ASCII digits and the
// lead bytes of other characters.
var numberStart = func() (t [256]bool) {
	for b := range t {
		t[b] = b >= utf8.RuneSelf || byteClass[b]&cN != 0
	}
	return t
}()

// cjkStart are the bytes patCJK's characters start with (U+3040 and up
// take three bytes from 0xE3).
var cjkStart = func() (t [256]bool) {
	for b := 0xE3; b <= 0xE9; b++ {
		t[b] = true
	}
	return t
}()

type literal string

func (l literal) find(s string, i int) (int, int) {
	k := strings.Index(s[i:], string(l))
	if k < 0 {
		return -1, -1
	}
	return i + k, i + k + len(l)
}

// goRegexp runs a pattern with Go's regexp package, which agrees with
// Oniguruma's leftmost-first search on the patterns it accepts once the
// constructs whose meaning differs are excluded (see compileRegex).
type goRegexp struct{ re *regexp.Regexp }

func (g goRegexp) find(s string, i int) (int, int) {
	loc := g.re.FindStringIndex(s[i:])
	if loc == nil || loc[1] == loc[0] {
		return -1, -1
	}
	return i + loc[0], i + loc[1]
}

// compileRegex returns the matcher of a Split's Regex pattern: a
// hand-written one for the known patterns, else Go's regexp when the
// pattern means the same there as in Oniguruma. \s, \w, \d and \b are
// ASCII in Go and Unicode in Oniguruma, case folding and anchors differ,
// and look-around does not exist in Go: such patterns are refused.
func compileRegex(pat string) (matcher, error) {
	switch pat {
	case patLlama3:
		return partition(splitLlama3), nil
	case patQwen:
		return partition(splitQwen), nil
	case patGPT2:
		return partition(splitGPT2), nil
	case patDigits3:
		return scanner{at: func(s string, i int) int {
			if c, _ := classAt(s, i); c&cN == 0 {
				return -1
			}
			return runMax(s, i, cN, 3)
		}, start: &numberStart}, nil
	case patCJK:
		return scanner{at: matchCJK, start: &cjkStart}, nil
	case patDeepSeek:
		return scanner{at: matchDeepSeek}, nil
	}
	for _, bad := range []string{`\s`, `\S`, `\w`, `\W`, `\d`, `\D`, `\b`, `\B`, `(?i`, `(?=`, `(?!`, `(?<`, `^`, `$`, `\A`, `\z`, `\Z`, `\G`, `\h`, `\X`, `\R`, `\K`, `\p{`, `\P{`, `[[:`} {
		if strings.Contains(pat, bad) {
			return nil, fmt.Errorf("%w: regex %q: %s has no exact equivalent here", ErrUnsupported, pat, bad)
		}
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		return nil, fmt.Errorf("%w: regex %q: %v", ErrUnsupported, pat, err)
	}
	if re.MatchString("") {
		return nil, fmt.Errorf("%w: regex %q: it matches the empty string", ErrUnsupported, pat)
	}
	return goRegexp{re}, nil
}

// contraction matches 's|'t|'re|'ve|'m|'ll|'d at i and returns its end or
// -1. With fold, letters match case-insensitively as Oniguruma folds
// them: ASCII, and U+017F (long s) for s.
func contraction(s string, i int, fold bool) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return -1
	}
	lower := func(b byte) byte {
		if fold && 'A' <= b && b <= 'Z' {
			return b + 'a' - 'A'
		}
		return b
	}
	switch lower(s[i+1]) {
	case 's', 't', 'm', 'd':
		return i + 2
	case 'r', 'v':
		if i+2 < len(s) && lower(s[i+2]) == 'e' {
			return i + 3
		}
	case 'l':
		if i+2 < len(s) && lower(s[i+2]) == 'l' {
			return i + 3
		}
	}
	if fold && strings.HasPrefix(s[i+1:], "ſ") {
		return i + 3
	}
	return -1
}

// newlineWhitespace matches \s*[\r\n]+ at i: the end of the last newline
// in the run of white space, or -1 when the run has none.
func newlineWhitespace(s string, i int) int {
	last := -1
	for i < len(s) {
		c, w := classAt(s, i)
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

// whitespace matches \s+(?!\S)|\s+ at i, where s[i] is white space: a
// run of white space gives back its last rune when a non-space follows,
// so that the rune can prefix the next word.
func whitespace(s string, i int) int {
	end, lastStart := i, i
	for end < len(s) {
		c, w := classAt(s, end)
		if c&cSpace == 0 {
			break
		}
		lastStart = end
		end += w
	}
	if end == len(s) || lastStart == i {
		return end
	}
	return lastStart
}

const notSpaceLN = cSpace | cL | cN // [^\s\p{L}\p{N}] has none of these

func splitLlama3(s string, i int) int { return splitCl(s, i, 3) }
func splitQwen(s string, i int) int   { return splitCl(s, i, 1) }

// splitCl implements patLlama3 (digits = 3) and patQwen (digits = 1).
func splitCl(s string, i int, digits int) int {
	if e := contraction(s, i, true); e >= 0 {
		return e
	}
	c0, w0 := classAt(s, i)
	if c0&cL != 0 {
		return run(s, i+w0, cL)
	}
	if c0&(cNL|cL|cN) == 0 && i+w0 < len(s) {
		if c1, w1 := classAt(s, i+w0); c1&cL != 0 {
			return run(s, i+w0+w1, cL)
		}
	}
	if c0&cN != 0 {
		return runMax(s, i, cN, digits)
	}
	if s[i] == ' ' && i+1 < len(s) {
		if c1, _ := classAt(s, i+1); c1&notSpaceLN == 0 {
			return run(s, runNot(s, i+1, notSpaceLN), cNL)
		}
	}
	if c0&notSpaceLN == 0 {
		return run(s, runNot(s, i, notSpaceLN), cNL)
	}
	if e := newlineWhitespace(s, i); e >= 0 {
		return e
	}
	return whitespace(s, i)
}

// splitGPT2 implements patGPT2.
func splitGPT2(s string, i int) int {
	if e := contraction(s, i, false); e >= 0 {
		return e
	}
	start := i
	c, w := classAt(s, i)
	if s[i] == ' ' && i+1 < len(s) {
		c, w = classAt(s, i+1)
		if c&cSpace == 0 {
			start = i + 1
		}
	}
	switch {
	case start == i && c&cSpace != 0:
		return whitespace(s, i)
	case c&cL != 0:
		return run(s, start+w, cL)
	case c&cN != 0:
		return run(s, start+w, cN)
	default:
		return runNot(s, start+w, notSpaceLN)
	}
}

func isCJK(r rune) bool {
	return r >= 0x4e00 && r <= 0x9fa5 || r >= 0x3040 && r <= 0x30ff
}

// matchCJK matches patCJK at i.
func matchCJK(s string, i int) int {
	e := i
	for e < len(s) && s[e] >= 0xE3 {
		r, w := decodeRune(s[e:])
		if !isCJK(r) {
			break
		}
		e += w
	}
	if e == i {
		return -1
	}
	return e
}

// matchDeepSeek matches patDeepSeek at i, or returns -1.
func matchDeepSeek(s string, i int) int {
	b := s[i]
	if b < 0x80 && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", b) >= 0 {
		e := i + 1
		for e < len(s) && (s[e]|0x20 >= 'a' && s[e]|0x20 <= 'z') {
			e++
		}
		if e > i+1 {
			return e
		}
	}
	c0, w0 := classAt(s, i)
	if c0&(cNL|cL|cP|cS) == 0 && i+w0 < len(s) {
		if c1, w1 := classAt(s, i+w0); c1&(cL|cM) != 0 {
			return run(s, i+w0+w1, cL|cM)
		}
	}
	if c0&(cL|cM) != 0 {
		return run(s, i+w0, cL|cM)
	}
	if b == ' ' && i+1 < len(s) {
		if c1, _ := classAt(s, i+1); c1&(cP|cS) != 0 {
			return run(s, run(s, i+1, cP|cS), cNL)
		}
	}
	if c0&(cP|cS) != 0 {
		return run(s, run(s, i, cP|cS), cNL)
	}
	if c0&cSpace == 0 {
		return -1
	}
	if e := newlineWhitespace(s, i); e >= 0 {
		return e
	}
	return whitespace(s, i)
}
