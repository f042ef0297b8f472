package hf

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// precompiled is the Precompiled normalizer of files converted from
// SentencePiece models (T5, XLM-R, mBART): the model's normalization rules
// compiled into the file as a double-array trie (darts-clone's format)
// from UTF-8 strings to offsets in a table of replacements. The trie is
// read as the library's spm_precompiled crate reads it, and applied as
// its Precompiled normalizer applies it: grapheme cluster by cluster
// (uniseg's), a cluster shorter than 6 bytes replaced whole by the first
// (shortest) entry the trie finds at its start, else each character
// replaced by its own.
type precompiled struct {
	units      []uint32
	normalized string
	// ascii[c] is the replacement of the one-byte string c, if any.
	ascii   [128]string
	asciiOK [128]bool
}

func newPrecompiled(b64 string) (*precompiled, error) {
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, fmt.Errorf("precompiled_charsmap: %v", err)
	}
	if len(data) < 4 {
		return nil, fmt.Errorf("precompiled_charsmap of %d bytes", len(data))
	}
	size := binary.LittleEndian.Uint32(data)
	if size%4 != 0 || uint64(size) > uint64(len(data)-4) || size == 0 {
		return nil, fmt.Errorf("precompiled_charsmap: trie of %d bytes in %d", size, len(data))
	}
	p := &precompiled{units: make([]uint32, size/4), normalized: string(data[4+size:])}
	for k := range p.units {
		p.units[k] = binary.LittleEndian.Uint32(data[4+4*k:])
	}
	for c := 1; c < 128; c++ {
		p.ascii[c], p.asciiOK[c] = p.transform(string(rune(c)))
	}
	return p, nil
}

func unitOffset(u uint32) uint32 { return (u >> 10) << ((u & (1 << 9)) >> 6) }
func unitLabel(u uint32) uint32  { return u & (1<<31 | 0xFF) }
func unitHasLeaf(u uint32) bool  { return (u>>8)&1 == 1 }
func unitValue(u uint32) uint32  { return u & (1<<31 - 1) }

// transform returns the replacement of the shortest entry that s starts
// with, as spm_precompiled's transform does.
func (p *precompiled) transform(s string) (string, bool) {
	pos := unitOffset(p.units[0])
	for i := 0; i < len(s); i++ {
		c := uint32(s[i])
		if c == 0 {
			break
		}
		pos ^= c
		if int(pos) >= len(p.units) {
			return "", false
		}
		u := p.units[pos]
		if unitLabel(u) != c {
			return "", false
		}
		pos ^= unitOffset(u)
		if unitHasLeaf(u) {
			if int(pos) >= len(p.units) {
				return "", false
			}
			v := int(unitValue(p.units[pos]))
			if v >= len(p.normalized) {
				return "", false
			}
			end := strings.IndexByte(p.normalized[v:], 0)
			if end < 0 {
				end = len(p.normalized) - v
			}
			return p.normalized[v : v+end], true
		}
	}
	return "", false
}

func (p *precompiled) normalize(s string, want bool) (string, []int32) {
	var b strings.Builder
	var al *aligner
	if want {
		al = &aligner{s: s, al: make([]int32, 0, len(s)+8)}
	}
	changed := false
	// rewrite appends what replaces old, and with want aligns it.
	rewrite := func(old, text string) {
		b.WriteString(text)
		if al != nil {
			al.replace(old, text)
		}
	}
	for i := 0; i < len(s); {
		// Between two ASCII bytes other than CR LF there is always a
		// cluster boundary: such a byte is a cluster of its own, and
		// uniseg runs only on the stretches between.
		if c := s[i]; c < 0x80 && (i+1 == len(s) || s[i+1] < 0x80 && !(c == '\r' && s[i+1] == '\n')) {
			if p.asciiOK[c] {
				rewrite(s[i:i+1], p.ascii[c])
				changed = true
			} else {
				b.WriteByte(c)
				if al != nil {
					al.push(1, 0)
				}
			}
			i++
			continue
		}
		j := i + 1
		for j < len(s) && !(s[j-1] < 0x80 && s[j] < 0x80 && !(s[j-1] == '\r' && s[j] == '\n')) {
			j++
		}
		g := uniseg.NewGraphemes(s[i:j])
		pa, pe := -1, -1 // the cluster before, held back: a newer mark may extend it
		for g.Next() {
			a, e := g.Positions()
			if pa >= 0 && pe == a && extendsNewer(s[i+a:i+e], s[i+pa:i+pe]) {
				pe = e
				continue
			}
			if pa >= 0 && p.cluster(s[i+pa:i+pe], rewrite) {
				changed = true
			}
			pa, pe = a, e
		}
		if pa >= 0 && p.cluster(s[i+pa:i+pe], rewrite) {
			changed = true
		}
		i = j
	}
	if !changed {
		return s, nil
	}
	if al == nil {
		return b.String(), nil
	}
	return b.String(), al.done()
}

// cluster passes each part of the grapheme cluster cl and its replacement
// to rewrite, and reports whether any differs.
func (p *precompiled) cluster(cl string, rewrite func(old, text string)) bool {
	if len(cl) < 6 {
		if r, ok := p.transform(cl); ok {
			rewrite(cl, r)
			return true
		}
	}
	changed := false
	for i, r := range cl {
		w := len(string(r))
		if r == 0xFFFD && !strings.HasPrefix(cl[i:], "\uFFFD") {
			w = 1
		}
		part := cl[i : i+w]
		if rep, ok := p.transform(part); ok {
			rewrite(part, rep)
			changed = true
		} else {
			rewrite(part, part)
		}
	}
	return changed
}

// aligner maps each byte of the Precompiled normalizer's output to the end
// of the input character it came from, as the library's
// NormalizedString.transform aligns the changes its Precompiled records:
// each output character has a change, 1 for one inserted (aligned with
// the input before it), 0 for one that replaces the next input character,
// -n for one that replaces it and removes n more. A replacement by fewer
// characters is charged to the last change recorded, which may belong to
// an earlier cluster, or to none at the start of the text: then the rest
// of the output is aligned one character early, as the library's is. Only
// the last change can still be charged, so the others are aligned at once.
type aligner struct {
	s    string // the input
	idx  int    // input consumed
	al   []int32
	last struct{ size, change int }
	has  bool // whether last holds a change not yet aligned
}

// push records an output character of size bytes and its change.
func (a *aligner) push(size, change int) {
	a.flush()
	a.last.size, a.last.change, a.has = size, change, true
}

// replace records the characters of text replacing those of old: one for
// one, the extra ones inserted, or fewer charged to the last change.
func (a *aligner) replace(old, text string) {
	nOld := utf8.RuneCountInString(old)
	k := 0
	for _, r := range text {
		change := 0
		if k >= nOld {
			change = 1
		}
		a.push(utf8.RuneLen(r), change)
		k++
	}
	if k < nOld && a.has {
		a.last.change -= nOld - k
	}
}

func (a *aligner) flush() {
	if !a.has {
		return
	}
	a.has = false
	e := a.idx
	if a.last.change <= 0 {
		e = a.next()
		for range -a.last.change {
			a.next()
		}
	}
	for range a.last.size {
		a.al = append(a.al, int32(e))
	}
}

// next consumes one input character and returns the end of it.
func (a *aligner) next() int {
	if a.idx < len(a.s) {
		_, w := utf8.DecodeRuneInString(a.s[a.idx:])
		a.idx += w
	}
	return a.idx
}

func (a *aligner) done() []int32 {
	a.flush()
	return a.al
}

// extendsNewer reports whether the cluster cl, which uniseg (Unicode 15.0)
// began after prev, begins with a mark that Unicode 16 added: the
// library's segmentation (Unicode 16) takes it for Extend or SpacingMark,
// which no boundary precedes (GB9, GB9a) unless prev ends with a control
// character, CR or LF.
func extendsNewer(cl, prev string) bool {
	r, _ := utf8.DecodeRuneInString(cl)
	if r < utf8.RuneSelf || runeClass(r)&cM == 0 || runeClassGo(r)&cM != 0 {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(prev)
	return !unicode.IsControl(last) && !unicode.Is(unicode.Zl, last) && !unicode.Is(unicode.Zp, last)
}
