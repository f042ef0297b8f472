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
	// o200k_base (GPT-4o, gpt-oss) and Mistral's Tekken (digits one at a
	// time, no contractions).
	patO200k  = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	patTekken = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
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
// pattern means the same there as in Oniguruma (see toGoRegexp).
func compileRegex(pat string) (matcher, error) {
	switch pat {
	case patLlama3:
		return partition(splitLlama3), nil
	case patQwen:
		return partition(splitQwen), nil
	case patGPT2:
		return partition(splitGPT2), nil
	case patO200k:
		return partition(splitO200k), nil
	case patTekken:
		return partition(splitTekken), nil
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
	goPat, err := toGoRegexp(pat)
	if err != nil {
		return nil, fmt.Errorf("%w: regex %q: %v", ErrUnsupported, pat, err)
	}
	re, err := regexp.Compile(goPat)
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

func splitO200k(s string, i int) int  { return splitCased(s, i, 3, true) }
func splitTekken(s string, i int) int { return splitCased(s, i, 1, false) }

// splitCased implements patO200k (digits = 3, contractions) and patTekken
// (digits = 1, none), as Oniguruma's backtracking runs them: the first
// two alternatives, each tried with the optional prefix and then
// without, and then the ones of splitCl but for [\r\n/]*.
func splitCased(s string, i int, digits int, contractions bool) int {
	if e := casedWord(s, i, contractions); e >= 0 {
		return e
	}
	c0, _ := classAt(s, i)
	if c0&cN != 0 {
		return runMax(s, i, cN, digits)
	}
	if s[i] == ' ' && i+1 < len(s) {
		if c1, _ := classAt(s, i+1); c1&notSpaceLN == 0 {
			return newlinesOrSlashes(s, runNot(s, i+1, notSpaceLN))
		}
	}
	if c0&notSpaceLN == 0 {
		return newlinesOrSlashes(s, runNot(s, i, notSpaceLN))
	}
	if e := newlineWhitespace(s, i); e >= 0 {
		return e
	}
	return whitespace(s, i)
}

const (
	cUpper = cLu | cLt | cLm | cLo | cM // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	cLower = cLl | cLm | cLo | cM       // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
)

// casedWord matches the first two alternatives of patO200k at i, or
// returns -1: [^\r\n\p{L}\p{N}]?, then upper* lower+ (the first) or
// upper+ lower* (the second), then a contraction if one follows.
func casedWord(s string, i int, contractions bool) int {
	c0, w0 := classAt(s, i)
	prefix := c0&(cNL|cL|cN) == 0
	for _, second := range []bool{false, true} {
		if prefix {
			if e := casedRun(s, i+w0, second); e >= 0 {
				return contraction2(s, e, contractions)
			}
		}
		if e := casedRun(s, i, second); e >= 0 {
			return contraction2(s, e, contractions)
		}
	}
	return -1
}

// casedRun matches upper* lower+ at j (or upper+ lower* when second) and
// returns its end, or -1.
func casedRun(s string, j int, second bool) int {
	k := run(s, j, cUpper)
	if second {
		if k == j {
			return -1
		}
		return run(s, k, cLower)
	}
	if e := run(s, k, cLower); e > k {
		return e
	}
	// upper* gives back characters until lower+ matches one: the last
	// in upper* that is also lower (Lm, Lo, M); the ones after it are
	// Lu or Lt, so lower+ ends right after it.
	last := -1
	for p := j; p < k; {
		c, w := classAt(s, p)
		if c&cLower != 0 {
			last = p + w
		}
		p += w
	}
	return last
}

// contraction2 extends a word that ends at e by a contraction that
// follows, when the pattern has them.
func contraction2(s string, e int, contractions bool) int {
	if contractions && e < len(s) {
		if ce := contraction(s, e, true); ce >= 0 {
			return ce
		}
	}
	return e
}

// newlinesOrSlashes matches [\r\n/]* at i.
func newlinesOrSlashes(s string, i int) int {
	for i < len(s) && (s[i] == '\r' || s[i] == '\n' || s[i] == '/') {
		i++
	}
	return i
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

// spaceClass is Oniguruma's \s in Unicode mode: U+0009-000D, U+0085 and
// the categories Zs, Zl and Zp, which is Unicode's White_Space (and Go's
// unicode.IsSpace, cSpace).
const spaceClass = `\t-\r\x{20}\x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}`

// toGoRegexp returns the Go regexp that means what pat means to
// Oniguruma (Ruby syntax, Unicode, as the library compiles it), with \s
// written out as Oniguruma's class; a construct that Go reads otherwise,
// or does not have, is an error that names it.
func toGoRegexp(pat string) (string, error) {
	var b strings.Builder
	inClass := false
	classStart := 0 // where the current class's members start in pat
	for i := 0; i < len(pat); {
		c := pat[i]
		switch {
		case c == '\\':
			if i+1 >= len(pat) {
				return "", fmt.Errorf("a trailing backslash")
			}
			e := pat[i+1]
			switch e {
			case 's':
				if inClass {
					b.WriteString(spaceClass)
				} else {
					b.WriteString("[" + spaceClass + "]")
				}
			case 'S':
				if inClass {
					return "", fmt.Errorf(`\S inside a class has no exact equivalent here`)
				}
				b.WriteString("[^" + spaceClass + "]")
			case 'p', 'P':
				if i+2 < len(pat) && pat[i+2] == '{' {
					return "", fmt.Errorf(`\%c{...}: Go's Unicode tables are not the library's`, e)
				}
				return "", fmt.Errorf(`\%c without braces: a class in Go, not in Oniguruma`, e)
			case 'Q':
				return "", fmt.Errorf(`\Q...\E: Oniguruma's Ruby syntax has no quoting`)
			case 'w', 'W', 'd', 'D', 'b', 'B', 'h', 'H', 'A', 'z', 'Z', 'G', 'X', 'R', 'K', 'k', 'g', 'N', 'O', 'y', 'Y', 'u', 'e':
				return "", fmt.Errorf(`\%c has no exact equivalent here`, e)
			default:
				if '0' <= e && e <= '9' {
					return "", fmt.Errorf(`\%c: a back reference or octal escape, read differently by Go`, e)
				}
				b.WriteString(pat[i : i+2])
			}
			i += 2
			continue
		case inClass && c == '[':
			if i+1 < len(pat) && pat[i+1] == ':' {
				return "", fmt.Errorf("a POSIX bracket (%s) inside a class: Go's are ASCII", posixName(pat[i:]))
			}
			return "", fmt.Errorf("a class inside a class: Go reads [ there as a literal")
		case inClass && c == '&' && i+1 < len(pat) && pat[i+1] == '&':
			return "", fmt.Errorf("&& in a class: an intersection in Oniguruma, literal in Go")
		case inClass && c == ']' && i > classStart:
			inClass = false
		case inClass:
		case c == '[':
			inClass = true
			b.WriteByte(c)
			i++
			if i < len(pat) && pat[i] == '^' {
				b.WriteByte('^')
				i++
			}
			if i+1 < len(pat) && pat[i] == '[' && pat[i+1] == ':' {
				return "", fmt.Errorf("a POSIX bracket (%s): Go's are ASCII", posixName(pat[i:]))
			}
			classStart = i
			continue
		case c == '(' && i+1 < len(pat) && pat[i+1] == '?':
			if i+2 < len(pat) && pat[i+2] == ':' {
				break
			}
			end := min(len(pat), i+4)
			if k := strings.IndexAny(pat[i+2:end], ":)"); k >= 0 {
				end = i + 2 + k + 1
			}
			return "", fmt.Errorf("%s has no exact equivalent here (flags, look-around, named and atomic groups differ or do not exist in Go)", pat[i:end])
		case c == '{' && i+1 < len(pat) && pat[i+1] == ',':
			return "", fmt.Errorf("{,n}: a quantifier in Oniguruma, literal in Go")
		case c == '^' || c == '$':
			return "", fmt.Errorf("%c is a line anchor in Oniguruma's Ruby syntax, a text anchor in Go", c)
		}
		b.WriteByte(c)
		i++
	}
	return b.String(), nil
}

// posixName returns the POSIX bracket at the start of s, [:name:].
func posixName(s string) string {
	if k := strings.Index(s, ":]"); k >= 0 && k < 20 {
		return s[:k+2]
	}
	return "[:"
}
