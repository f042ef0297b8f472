package tokencount

import "unicode/utf8"

// Heuristic estimates token counts without a vocabulary: nothing to build
// (an exact encoding builds tables of several megabytes once per process,
// on first use) and no memory beyond the call, at about the speed of an
// exact count with a warm cache. It is calibrated against cl100k_base
// (o200k_base counts English within a few percent of it) and is meant for
// callers who cannot afford the tables or whose model's tokenizer is not
// one of the encodings here. Its zero value is ready to use and safe for concurrent
// use.
//
// The text is split into pieces by cl100k_base's own pre-tokenizer, and
// each piece is given a fractional estimate from its shape: a short word
// with its leading space is one token and longer words grow by a fraction
// of a token per letter (faster in capitals); digit groups are one token;
// up to three symbols are one token and longer mixed runs cost about two
// thirds of a token per change of symbol; characters outside ASCII weigh
// by their UTF-8 length (about half a token for Greek, Cyrillic, Hebrew or
// Arabic letters, one for CJK, two for emoji). The estimates are summed
// and rounded once, so errors on single pieces cancel out.
//
// On the English prose, Markdown and Rust source of the corpora in
// testdata/corpora, whole documents and windows of a few hundred tokens
// alike come within a few percent of cl100k_base; benchmarks/README.md
// gives the measured error of each (https://github.com/ragkit/ragkit/blob/main/benchmarks/README.md#token-counting).
// Text in other scripts has larger errors. Never rely on an estimate for
// a hard limit: use an exact [Encoding] whenever a limit must hold.
type Heuristic struct{}

// unit is the fixed-point scale of piece estimates: 64 = one token.
const unit = 64

// Count returns the estimated number of tokens in text: 0 for the empty
// string, at least 1 otherwise.
func (Heuristic) Count(text string) int {
	acc := 0
	for i := 0; i < len(text); {
		j := splitCl100k(text, i)
		acc += estimate(text[i:j])
		i = j
	}
	return rounded(acc, len(text))
}

// AppendTokenEnds appends Count(text) token ends: a token is taken to end
// at the end of the piece where the running estimate passes it.
func (Heuristic) AppendTokenEnds(dst []int, text string) []int {
	if text == "" {
		return dst
	}
	first := len(dst)
	acc, next := 0, unit/2 // the estimate at which the next token ends
	for i := 0; i < len(text); {
		j := splitCl100k(text, i)
		acc += estimate(text[i:j])
		for acc >= next {
			dst = append(dst, j)
			next += unit
		}
		i = j
	}
	if len(dst) == first {
		return append(dst, len(text))
	}
	dst[len(dst)-1] = len(text)
	return dst
}

func rounded(acc, size int) int {
	n := (acc + unit/2) / unit
	if n == 0 && size > 0 {
		return 1
	}
	return n
}

// estimate returns the fixed-point token estimate of one piece.
func estimate(p string) int {
	var letters, upper, digits, punct, runs, backticks, newlines, wide int
	var last byte
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c >= utf8.RuneSelf:
			// Weigh a multi-byte character once, at its lead byte.
			if c >= 0xC0 {
				wide += wideWeight(c)
			}
		case 'a' <= c && c <= 'z':
			letters++
		case 'A' <= c && c <= 'Z':
			letters++
			upper++
		case '0' <= c && c <= '9':
			digits++
		case c == '\n' || c == '\r':
			newlines++
		case c == ' ' || c == '\t':
		default:
			punct++
			if c == '`' {
				backticks++
			}
			if c != last {
				runs++
			}
			last = c
		}
	}
	switch {
	case wide > 0 && letters > 0:
		return wordEstimate(letters, upper, true) + wide
	case wide > 0:
		return unit/2 + wide
	case letters > 0:
		return wordEstimate(letters, upper, len(p) > letters)
	case digits > 0:
		return unit
	case punct > 0:
		// Pairs and triples of symbols ("();", "</", " ->") are single
		// tokens; beyond that mixed symbols cost most of a token each,
		// while a run of one symbol ("-----", "=====") stays cheap, but
		// for backticks, whose long runs split in pairs.
		est := unit + max(runs-3, 0)*unit*2/3 + (punct-runs)*unit/12
		if backticks > 3 {
			est += (backticks - 3) * unit / 2
		}
		return est
	case newlines > 2:
		return unit + (newlines-2)*unit/8
	default:
		return unit
	}
}

// grow is one token for up to free characters and step for each more.
func grow(n, free, step int) int {
	if n <= free {
		return unit
	}
	return unit + (n-free)*step
}

// wordEstimate is the estimate of a run of n ASCII letters, upper of them
// capitals; prefixed tells whether a space or symbol leads it, as most
// words in running text do. Words in capitals split into more tokens.
func wordEstimate(n, upper int, prefixed bool) int {
	if upper == n {
		return grow(n, 3, unit*9/20)
	}
	if prefixed {
		return grow(n, 4, unit*3/40)
	}
	return grow(n, 2, unit*3/20)
}

// wideWeight is the estimate of a non-ASCII character from its lead byte.
func wideWeight(lead byte) int {
	switch {
	case lead < 0xE0: // two bytes: Latin supplements, Greek, Cyrillic, Hebrew, Arabic
		return unit / 2
	case lead < 0xF0: // three bytes: CJK, Indic, most other scripts
		return unit
	default: // four bytes: emoji, rare CJK
		return 2 * unit
	}
}
