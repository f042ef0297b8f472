package hf

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// A normalizer rewrites a segment of text before it is pre-tokenized.
// normalize returns the new text and, when want is set and the text
// changed, its alignment: al[j] is the end, in s, of the characters that
// produced byte j of the result. A nil alignment means the identity.
type normalizer interface {
	normalize(s string, want bool) (string, []int32)
}

// compose maps the alignment of a second step (to the first step's
// output) through the first step's alignment.
func compose(first, second []int32) []int32 {
	if first == nil {
		return second
	}
	if second == nil {
		return first
	}
	out := make([]int32, len(second))
	for j, e := range second {
		out[j] = int32(mapEnd(first, int(e)))
	}
	return out
}

type sequence []normalizer

func (q sequence) normalize(s string, want bool) (string, []int32) {
	var al []int32
	for _, n := range q {
		var a2 []int32
		s, a2 = n.normalize(s, want)
		if want {
			al = compose(al, a2)
		}
	}
	return s, al
}

// mapRunes rewrites s rune by rune: f appends the replacement of r to b.
// The alignment maps each output byte to the end of its input rune.
func mapRunes(s string, want bool, f func(b []byte, r rune) []byte) (string, []int32) {
	b := make([]byte, 0, len(s)+8)
	var al []int32
	if want {
		al = make([]int32, 0, len(s)+8)
	}
	for i := 0; i < len(s); {
		r, w := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRuneInString(s[i:])
		}
		n := len(b)
		b = f(b, r)
		if want {
			for range len(b) - n {
				al = append(al, int32(i+w))
			}
		}
		i += w
	}
	return string(b), al
}

// unicodeForm is NFC, NFD, NFKC or NFKD.
type unicodeForm struct{ f norm.Form }

func (u unicodeForm) normalize(s string, want bool) (string, []int32) {
	if u.f.IsNormalString(s) {
		return s, nil
	}
	k := indexAlone(s)
	if k < 0 {
		return u.notNormal(s, want)
	}
	// The library does not know the characters of refNewer and refStarter:
	// it leaves each alone, and it stops normalization on either side.
	// The stretches between them are normalized one by one.
	var b strings.Builder
	var full []int32
	b.Grow(len(s))
	if want {
		full = make([]int32, 0, len(s)+8)
	}
	add := func(out string, al []int32, base int) {
		b.WriteString(out)
		if want {
			for j := range len(out) {
				full = append(full, int32(base+mapEnd(al, j+1)))
			}
		}
	}
	from := 0
	for k >= 0 {
		k += from
		_, w := utf8.DecodeRuneInString(s[k:])
		out, al := u.stretch(s[from:k], want)
		add(out, al, from)
		add(s[k:k+w], nil, k)
		from = k + w
		k = indexAlone(s[from:])
	}
	out, al := u.stretch(s[from:], want)
	add(out, al, from)
	if !want {
		return b.String(), nil
	}
	return b.String(), full
}

// stretch normalizes s, which has no character the library leaves alone.
func (u unicodeForm) stretch(s string, want bool) (string, []int32) {
	if u.f.IsNormalString(s) {
		return s, nil
	}
	return u.notNormal(s, want)
}

// notNormal is stretch for an s that is not in normal form.
func (u unicodeForm) notNormal(s string, want bool) (string, []int32) {
	if u.longRun(s) {
		return u.canonical(s, want)
	}
	if !want {
		return u.f.String(s), nil
	}
	var it norm.Iter
	it.InitString(u.f, s)
	var b []byte
	var al []int32
	start, from := 0, 0 // input and output offsets of the current segment
	for !it.Done() {
		b = append(b, it.Next()...)
		end := it.Pos()
		if end == start {
			continue // a long decomposition comes in parts; the input follows
		}
		al = u.alignSegment(al, b[from:], s, start, end)
		start, from = end, len(b)
	}
	for range len(b) - from {
		al = append(al, int32(len(s)))
	}
	return string(b), al
}

// alignSegment appends the alignment of seg, the normalization of
// s[start:end].
func (u unicodeForm) alignSegment(al []int32, seg []byte, s string, start, end int) []int32 {
	if utf8.RuneCount(seg) != utf8.RuneCountInString(s[start:end]) {
		// Composed or decomposed: the library's alignment follows the
		// change each character reports, which canonical works out.
		if out, cal := u.canonical(s[start:end], true); out == string(seg) {
			for _, e := range cal {
				al = append(al, int32(start)+e)
			}
			return al
		}
		for range seg {
			al = append(al, int32(end))
		}
		return al
	}
	// Reordered or replaced one for one: rune k of the output ends where
	// rune k of the input does.
	i := start
	for j := 0; j < len(seg); {
		_, w := utf8.DecodeRune(seg[j:])
		_, wi := utf8.DecodeRuneInString(s[i:])
		i += wi
		for range w {
			al = append(al, int32(i))
		}
		j += w
	}
	return al
}

// indexAlone returns the offset of the first character of s that Go's
// normalization tables know and the library's do not (refNewer, and
// refStarter: non-starters for Go, starters for the library), or -1.
func indexAlone(s string) int {
	for i, r := range s {
		if r >= 0x80 && (inTable(refNewer, r) || inTable(refStarter, r)) {
			return i
		}
	}
	return -1
}

// inTable reports whether r is in the sorted table.
func inTable(table []rune, r rune) bool {
	_, ok := slices.BinarySearch(table, r)
	return ok
}

// lowercase lowers each character as Rust's char::to_lowercase does:
// Go's simple mapping, except U+0130 (capital I with dot above), whose
// full lowercase is "i" and a combining dot.
type lowercase struct{}

func (lowercase) normalize(s string, want bool) (string, []int32) {
	return mapRunes(s, want, appendLower)
}

func appendLower(b []byte, r rune) []byte {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return append(b, byte(r))
	}
	if l, ok := refLower[r]; ok {
		return append(b, l...)
	}
	return appendLowerGo(b, r)
}

// appendLowerGo is appendLower by Go's tables alone.
func appendLowerGo(b []byte, r rune) []byte {
	if r == 0x130 {
		return append(b, "i\u0307"...)
	}
	return utf8.AppendRune(b, unicode.ToLower(r))
}

// replace is Replace with a String pattern.
type replace struct{ old, new string }

func (rp replace) normalize(s string, want bool) (string, []int32) {
	if !strings.Contains(s, rp.old) {
		return s, nil
	}
	if !want {
		return strings.ReplaceAll(s, rp.old, rp.new), nil
	}
	p := replaceAll(piece{s: s, want: true}, rp.old, rp.new)
	return p.s, p.al
}

// regexReplace is Replace with a Regex pattern: each match, left to
// right, becomes content, whose bytes end where the match ends.
type regexReplace struct {
	m       matcher
	content string
}

func (rr regexReplace) normalize(s string, want bool) (string, []int32) {
	a, _ := rr.m.find(s, 0)
	if a < 0 {
		return s, nil
	}
	var b strings.Builder
	var al []int32
	prev := 0
	for i := 0; i < len(s); {
		a, e := rr.m.find(s, i)
		if a < 0 {
			break
		}
		b.WriteString(s[prev:a])
		b.WriteString(rr.content)
		if want {
			for j := prev; j < a; j++ {
				al = append(al, int32(j+1))
			}
			for range len(rr.content) {
				al = append(al, int32(e))
			}
		}
		prev, i = e, e
	}
	b.WriteString(s[prev:])
	if want {
		for j := prev; j < len(s); j++ {
			al = append(al, int32(j+1))
		}
	}
	return b.String(), al
}

// prependNorm is Prepend: text before a non-empty segment.
type prependNorm struct{ text string }

func (pn prependNorm) normalize(s string, want bool) (string, []int32) {
	if s == "" {
		return s, nil
	}
	if !want {
		return pn.text + s, nil
	}
	// The library aligns the prepended text with the first character.
	_, w := utf8.DecodeRuneInString(s)
	al := make([]int32, 0, len(pn.text)+len(s))
	for range len(pn.text) {
		al = append(al, int32(w))
	}
	for j := range len(s) {
		al = append(al, int32(j+1))
	}
	return pn.text + s, al
}

// strip is Strip: white space removed from either end.
type strip struct{ left, right bool }

func (st strip) normalize(s string, want bool) (string, []int32) {
	a, b := 0, len(s)
	if st.left {
		a = len(s) - len(strings.TrimLeftFunc(s, unicode.IsSpace))
	}
	if st.right {
		b = a + len(strings.TrimRightFunc(s[a:], unicode.IsSpace))
	}
	if a == 0 && b == len(s) {
		return s, nil
	}
	if !want {
		return s[a:b], nil
	}
	al := make([]int32, b-a)
	for j := range al {
		al[j] = int32(a + j + 1)
	}
	return s[a:b], al
}

// nmt is Nmt, SentencePiece's cleaning before NFKC: ASCII and C1 control
// characters removed, other line breaks, tabs, zero-width characters, the
// byte order mark, "▁" and U+FFFD made spaces.
type nmt struct{}

func (nmt) normalize(s string, want bool) (string, []int32) {
	return mapRunes(s, want, func(b []byte, r rune) []byte {
		switch {
		case r >= 0x01 && r <= 0x08 || r == 0x0B || r >= 0x0E && r <= 0x1F || r == 0x7F || r == 0x8F || r == 0x9F:
			return b
		case r == '\t' || r == '\n' || r == 0x0C || r == '\r' || r == 0x1680 || r >= 0x200B && r <= 0x200F ||
			r == 0x2028 || r == 0x2029 || r == 0x2581 || r == 0xFEFF || r == 0xFFFD:
			return append(b, ' ')
		}
		return utf8.AppendRune(b, r)
	})
}

// stripAccents is StripAccents: marks removed, as the library's
// (older) Unicode tables know them.
type stripAccents struct{}

func (stripAccents) normalize(s string, want bool) (string, []int32) {
	return mapRunes(s, want, func(b []byte, r rune) []byte {
		if r >= 0x300 && (unicode.IsMark(r) && !inTable(refNotMark, r) || inTable(refMoreMark, r)) {
			return b
		}
		return utf8.AppendRune(b, r)
	})
}

// bertNorm is BertNormalizer.
type bertNorm struct {
	clean, chinese, stripAccents, lower bool
}

func isChinese(r rune) bool {
	return r >= 0x4E00 && r <= 0x9FFF || r >= 0x3400 && r <= 0x4DBF ||
		r >= 0x20000 && r <= 0x2A6DF || r >= 0x2A700 && r <= 0x2B73F ||
		r >= 0x2B740 && r <= 0x2B81F || r >= 0x2B920 && r <= 0x2CEAF ||
		r >= 0xF900 && r <= 0xFAFF || r >= 0x2F800 && r <= 0x2FA1F
}

// isOther is what the library's BertNormalizer removes as control
// characters: categories Cc, Cf, Co and Cs (unassigned code points stay).
func isOther(r rune) bool {
	return isOtherGo(r) && !inTable(refNotOther, r)
}

func isOtherGo(r rune) bool {
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs)
}

// isNonspacing is category Mn as the library's BertNormalizer knows it.
func isNonspacing(r rune) bool {
	return r >= 0x300 && unicode.Is(unicode.Mn, r) && !inTable(refNotMn, r)
}

func (bn bertNorm) normalize(s string, want bool) (string, []int32) {
	var al []int32
	if bn.clean || bn.chinese {
		s, al = mapRunes(s, want, func(b []byte, r rune) []byte {
			if r < utf8.RuneSelf && r >= ' ' && r != 0x7f {
				return append(b, byte(r))
			}
			if bn.clean {
				switch {
				case r == '\t' || r == '\n' || r == '\r':
					return append(b, ' ')
				case r == 0 || r == 0xFFFD || isOther(r):
					return b
				case unicode.IsSpace(r):
					return append(b, ' ')
				}
			}
			if bn.chinese && isChinese(r) {
				b = append(b, ' ')
				b = utf8.AppendRune(b, r)
				return append(b, ' ')
			}
			return utf8.AppendRune(b, r)
		})
	}
	if bn.stripAccents {
		s2, a2 := unicodeForm{norm.NFD}.normalize(s, want)
		al = compose(al, a2)
		s2, a2 = mapRunes(s2, want, func(b []byte, r rune) []byte {
			if isNonspacing(r) {
				return b
			}
			return utf8.AppendRune(b, r)
		})
		s, al = s2, compose(al, a2)
	}
	if bn.lower {
		s2, a2 := lowercase{}.normalize(s, want)
		s, al = s2, compose(al, a2)
	}
	return s, al
}

// dropsLead reports whether normalizing s removes its first character:
// the library then aligns the normalized text with an original offset
// past 0, and Metaspace's prepend_scheme "first" does not prepend (it
// prepends to the split whose original offset is 0). Strip and Replace
// drop by their own rules; the other normalizers work a character (or a
// cluster) at a time, and drop the first when it normalizes to nothing.
func dropsLead(n normalizer, s string) bool {
	if s == "" {
		return false
	}
	switch n := n.(type) {
	case sequence:
		for _, step := range n {
			if dropsLead(step, s) {
				return true
			}
			if s, _ = step.normalize(s, false); s == "" {
				return false
			}
		}
		return false
	case strip:
		r, _ := utf8.DecodeRuneInString(s)
		return n.left && unicode.IsSpace(r)
	case replace:
		return n.new == "" && strings.HasPrefix(s, n.old)
	case regexReplace:
		a, _ := n.m.find(s, 0)
		return n.content == "" && a == 0
	case prependNorm:
		return false
	}
	_, w := utf8.DecodeRuneInString(s)
	out, _ := n.normalize(s[:w], false)
	return out == ""
}
