package hf

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"

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
	var al []int32
	changed := false
	add := func(text string, end int) {
		b.WriteString(text)
		if want {
			for range len(text) {
				al = append(al, int32(end))
			}
		}
	}
	for i := 0; i < len(s); {
		// Between two ASCII bytes other than CR LF there is always a
		// cluster boundary: such a byte is a cluster of its own, and
		// uniseg runs only on the stretches between.
		if c := s[i]; c < 0x80 && (i+1 == len(s) || s[i+1] < 0x80 && !(c == '\r' && s[i+1] == '\n')) {
			if p.asciiOK[c] {
				add(p.ascii[c], i+1)
				changed = true
			} else {
				add(s[i:i+1], i+1)
			}
			i++
			continue
		}
		j := i + 1
		for j < len(s) && !(s[j-1] < 0x80 && s[j] < 0x80 && !(s[j-1] == '\r' && s[j] == '\n')) {
			j++
		}
		g := uniseg.NewGraphemes(s[i:j])
		for g.Next() {
			a, e := g.Positions()
			if p.cluster(s[i+a:i+e], i+a, add) {
				changed = true
			}
		}
		i = j
	}
	if !changed {
		return s, nil
	}
	return b.String(), al
}

// cluster passes the replacement of the grapheme cluster cl, which starts
// at start, to add, and reports whether it differs from cl.
func (p *precompiled) cluster(cl string, start int, add func(string, int)) bool {
	end := start + len(cl)
	if len(cl) < 6 {
		if r, ok := p.transform(cl); ok {
			add(r, end)
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
			add(rep, start+i+w)
			changed = true
		} else {
			add(part, start+i+w)
		}
	}
	return changed
}
