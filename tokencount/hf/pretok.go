package hf

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

var decodeRune = utf8.DecodeRuneInString

// A piece is a stretch of normalized text on its way to the model.
type piece struct {
	s   string
	off int // offset of s in the normalized text
	// al is set when a pre-tokenizer rewrote s: al[j] is the end, in the
	// normalized text, of the characters that produced byte j.
	al    []int32
	first bool // the piece starts at offset 0 of the original text
	want  bool // token ends are wanted: keep al up to date
}

// end maps end e of p.s to the normalized text.
func (p piece) end(e int) int {
	if p.al == nil {
		return p.off + e
	}
	if e == 0 {
		return p.off
	}
	return int(p.al[e-1])
}

// sub returns p.s[a:b] as a piece.
func (p piece) sub(a, b int) piece {
	q := piece{s: p.s[a:b], off: p.end(a), first: p.first && a == 0, want: p.want}
	if p.al != nil {
		q.al = p.al[a:b]
	}
	return q
}

// A preTokenizer splits a piece, passing the parts in order to emit.
type preTokenizer interface {
	split(p piece, emit func(piece))
}

// Split behaviors, as tokenizer.json spells them.
type behavior int

const (
	isolated behavior = iota
	removed
	mergedWithPrevious
	mergedWithNext
	contiguous
)

// patternSplit is the Split pre-tokenizer (and the pattern part of
// others): matches of m are split off as behavior says.
type patternSplit struct {
	m        matcher
	behavior behavior
	invert   bool
}

type span struct {
	a, b  int
	match bool
}

func (ps patternSplit) split(p piece, emit func(piece)) {
	if ps.behavior == isolated && !ps.invert {
		// The common case, without the list of spans.
		prev := 0
		for i := 0; i < len(p.s); {
			a, b := ps.m.find(p.s, i)
			if a < 0 {
				break
			}
			if a > prev {
				emit(p.sub(prev, a))
			}
			emit(p.sub(a, b))
			prev, i = b, b
		}
		if prev < len(p.s) {
			emit(p.sub(prev, len(p.s)))
		}
		return
	}
	var spans []span
	prev := 0
	for i := 0; i < len(p.s); {
		a, b := ps.m.find(p.s, i)
		if a < 0 {
			break
		}
		if a > prev {
			spans = append(spans, span{prev, a, false})
		}
		spans = append(spans, span{a, b, true})
		prev, i = b, b
	}
	if prev < len(p.s) {
		spans = append(spans, span{prev, len(p.s), false})
	}
	if ps.invert {
		for k := range spans {
			spans[k].match = !spans[k].match
		}
	}
	applyBehavior(p, spans, ps.behavior, emit)
}

// applyBehavior turns the matched and unmatched spans of p into pieces as
// the library's NormalizedString::split does.
func applyBehavior(p piece, spans []span, bh behavior, emit func(piece)) {
	var out []span
	switch bh {
	case isolated:
		out = spans
	case removed:
		for _, sp := range spans {
			if !sp.match {
				out = append(out, sp)
			}
		}
	case contiguous:
		prevMatch := false
		for _, sp := range spans {
			if len(out) > 0 && sp.match == prevMatch {
				out[len(out)-1].b = sp.b
			} else {
				out = append(out, sp)
			}
			prevMatch = sp.match
		}
	case mergedWithPrevious:
		prevMatch := false
		for _, sp := range spans {
			if sp.match && !prevMatch && len(out) > 0 {
				out[len(out)-1].b = sp.b
			} else {
				out = append(out, sp)
			}
			prevMatch = sp.match
		}
	case mergedWithNext:
		prevMatch := false
		for k := len(spans) - 1; k >= 0; k-- {
			sp := spans[k]
			if sp.match && !prevMatch && len(out) > 0 {
				out[len(out)-1].a = sp.a
			} else {
				out = append(out, sp)
			}
			prevMatch = sp.match
		}
		for x, y := 0, len(out)-1; x < y; x, y = x+1, y-1 {
			out[x], out[y] = out[y], out[x]
		}
	}
	for _, sp := range out {
		if sp.b > sp.a {
			emit(p.sub(sp.a, sp.b))
		}
	}
	return
}

// runeSplit splits at every rune for which is returns true.
type runeSplit struct {
	is       func(rune) bool
	behavior behavior
	invert   bool
}

func (rs runeSplit) split(p piece, emit func(piece)) {
	var spans []span
	last := 0
	for i, r := range p.s {
		if rs.is(r) != rs.invert {
			if last < i {
				spans = append(spans, span{last, i, false})
			}
			w := utf8.RuneLen(r)
			if r == utf8.RuneError {
				w = 1
				if strings.HasPrefix(p.s[i:], "\uFFFD") {
					w = 3
				}
			}
			spans = append(spans, span{i, i + w, true})
			last = i + w
		}
	}
	if last < len(p.s) {
		spans = append(spans, span{last, len(p.s), false})
	}
	applyBehavior(p, spans, rs.behavior, emit)
}

// byteLevel is the ByteLevel pre-tokenizer. Its mapping of bytes to
// printable characters is not applied: the model's vocabulary is mapped
// back to bytes instead when the tokenizer is loaded.
type byteLevel struct {
	addPrefixSpace bool
	useRegex       bool
}

func (bl byteLevel) split(p piece, emit func(piece)) {
	if bl.addPrefixSpace && !strings.HasPrefix(p.s, " ") {
		p = prepend(p, " ")
	}
	if !bl.useRegex {
		emit(p)
		return
	}
	patternSplit{m: partition(splitGPT2)}.split(p, emit)
}

// prepend returns p with text before it. Like the library, the inserted
// bytes are aligned with the first character of p.
func prepend(p piece, text string) piece {
	if !p.want {
		return piece{s: text + p.s, first: p.first}
	}
	al := make([]int32, 0, len(text)+len(p.s))
	_, w := utf8.DecodeRuneInString(p.s)
	for range len(text) {
		al = append(al, int32(p.end(w)))
	}
	for j := range len(p.s) {
		al = append(al, int32(p.end(j+1)))
	}
	return piece{s: text + p.s, off: p.end(0), al: al, first: p.first, want: true}
}

// bertPre is BertPreTokenizer: white space splits and is removed, each
// punctuation character is a piece of its own.
type bertPre struct{}

func (bertPre) split(p piece, emit func(piece)) {
	start := -1
	for i, r := range p.s {
		w := 1
		if r >= utf8.RuneSelf {
			w = runeWidth(p.s, i)
		}
		switch {
		case r == ' ' || r < utf8.RuneSelf && r > ' ' && r != 0x7f && !isBertPunct(r):
			if r == ' ' {
				if start >= 0 {
					emit(p.sub(start, i))
					start = -1
				}
			} else if start < 0 {
				start = i
			}
		case unicode.IsSpace(r):
			if start >= 0 {
				emit(p.sub(start, i))
				start = -1
			}
		case isBertPunct(r):
			if start >= 0 {
				emit(p.sub(start, i))
				start = -1
			}
			emit(p.sub(i, i+w))
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 {
		emit(p.sub(start, len(p.s)))
	}
	return
}

func runeWidth(s string, i int) int {
	_, w := utf8.DecodeRuneInString(s[i:])
	return w
}

func isBertPunct(r rune) bool {
	if r < utf8.RuneSelf {
		return r > ' ' && r < 0x7f && !('0' <= r && r <= '9' || 'a' <= r|0x20 && r|0x20 <= 'z')
	}
	return unicode.IsPunct(r) != inTable(refPunctFlip, r)
}

// whitespacePre is the Whitespace pre-tokenizer: \w+|[^\w\s]+.
type whitespacePre struct{}

// isWordRune is \w as the library's Whitespace pre-tokenizer knows it
// (its regular expression crate has other Unicode tables than Go).
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
	}
	return isWordRuneGo(r) != inTable(refWordFlip, r)
}

func isWordRuneGo(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '_' ||
		unicode.Is(unicode.Pc, r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_Alphabetic, r) ||
		unicode.Is(unicode.Join_Control, r)
}

func (whitespacePre) split(p piece, emit func(piece)) {
	kind, start := 0, 0 // 0 none, 1 word, 2 other
	for i, r := range p.s {
		k := 2
		if unicode.IsSpace(r) {
			k = 0
		} else if isWordRune(r) {
			k = 1
		}
		if k != kind {
			if kind != 0 {
				emit(p.sub(start, i))
			}
			kind, start = k, i
		}
	}
	if kind != 0 {
		emit(p.sub(start, len(p.s)))
	}
	return
}

// whitespaceSplit is WhitespaceSplit: white space splits and is removed.
type whitespaceSplit struct{}

func (whitespaceSplit) split(p piece, emit func(piece)) {
	runeSplit{is: unicode.IsSpace, behavior: removed}.split(p, emit)
}

// Metaspace prepend schemes.
const (
	prependAlways = iota
	prependFirst
	prependNever
)

// metaspace is the Metaspace pre-tokenizer: spaces become the
// replacement character, which is prepended too, and optionally starts
// each piece.
type metaspace struct {
	repl    string
	prepend int
	splitOn bool
}

func (m metaspace) split(p piece, emit func(piece)) {
	if strings.Contains(p.s, " ") {
		p = replaceAll(p, " ", m.repl)
	}
	if m.prepend == prependAlways || m.prepend == prependFirst && p.first {
		if !strings.HasPrefix(p.s, m.repl) {
			p = prepend(p, m.repl)
		}
	}
	if !m.splitOn {
		emit(p)
		return
	}
	// Split on the replacement, MergedWithNext: a piece starts at each
	// replacement character.
	start := 0
	for i := 1; i < len(p.s); {
		k := strings.Index(p.s[i:], m.repl)
		if k < 0 {
			break
		}
		emit(p.sub(start, i+k))
		start = i + k
		i = start + len(m.repl)
	}
	emit(p.sub(start, len(p.s)))
}

// replaceAll returns p with every old replaced by new; the bytes of new
// are aligned to the end of the old they replace.
func replaceAll(p piece, old, new string) piece {
	if !p.want {
		return piece{s: strings.ReplaceAll(p.s, old, new), first: p.first}
	}
	var b strings.Builder
	al := make([]int32, 0, len(p.s)+8)
	i := 0
	for {
		k := strings.Index(p.s[i:], old)
		if k < 0 {
			break
		}
		b.WriteString(p.s[i : i+k])
		for j := i; j < i+k; j++ {
			al = append(al, int32(p.end(j+1)))
		}
		b.WriteString(new)
		for range len(new) {
			al = append(al, int32(p.end(i+k+len(old))))
		}
		i += k + len(old)
	}
	b.WriteString(p.s[i:])
	for j := i; j < len(p.s); j++ {
		al = append(al, int32(p.end(j+1)))
	}
	return piece{s: b.String(), off: p.end(0), al: al, first: p.first, want: true}
}

// digitsPre is the Digits pre-tokenizer.
func digitsPre(individual bool) preTokenizer {
	bh := contiguous
	if individual {
		bh = isolated
	}
	return runeSplit{is: isNumber, behavior: bh}
}

// isNumber is Rust's char::is_numeric, which Digits splits on: categories
// Nd, Nl and No of the library's Unicode version.
func isNumber(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= '0' && r <= '9'
	}
	return unicode.IsNumber(r) != inTable(refNumberFlip, r)
}
