package hf

import (
	"slices"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Go's normalization is stream-safe (Unicode's UAX #15 section 13): after
// 30 non-starters in a row it inserts U+034F, so that what it buffers is
// bounded. The library's is not: it reorders and composes a run of any
// length. A stretch that may hold such a run is normalized here instead,
// by the definition (decomposition, canonical ordering, composition), a
// character at a time through Go's tables; it is rare, and then linear
// but for the sort of each run.

// maxNonStarters is x/text's limit: past it, it inserts U+034F.
const maxNonStarters = 30

// longRun reports whether s may have more than maxNonStarters
// non-starters in a row once decomposed: an upper bound, counting every
// character of a decomposition that does not begin with a starter, and
// those after the first of one that does.
func (u unicodeForm) longRun(s string) bool {
	d := u.decomposer()
	n := 0
	for i := 0; i < len(s); {
		if s[i] < 0xA0 {
			n = 0
			i++
			continue
		}
		p := d.PropertiesString(s[i:])
		w := p.Size()
		if w == 0 {
			w = 1
		}
		parts := 1
		if dec := p.Decomposition(); dec != nil {
			parts = utf8.RuneCount(dec)
		}
		switch {
		case p.LeadCCC() != 0 || p.CCC() != 0:
			n += parts
		case p.TrailCCC() != 0:
			n = parts - 1
		default:
			n = 0
		}
		if n >= maxNonStarters {
			return true
		}
		i += w
	}
	return false
}

// decomposer is the decomposition of u's form: NFD for NFC and NFD,
// NFKD for NFKC and NFKD.
func (u unicodeForm) decomposer() norm.Form {
	if u.f == norm.NFKC || u.f == norm.NFKD {
		return norm.NFKD
	}
	return norm.NFD
}

// ccc returns the canonical combining class of r.
func ccc(r rune) uint8 {
	var buf [utf8.UTFMax]byte
	return norm.NFD.Properties(utf8.AppendRune(buf[:0], r)).CCC()
}

// canonical normalizes s by the definition, without the stream-safe
// insertion.
func (u unicodeForm) canonical(s string, want bool) (string, []int32) {
	d := u.decomposer()
	var us []unit
	var ends []int32 // the end of each input character
	var buf [utf8.UTFMax]byte
	for i, r := range s {
		w := utf8.RuneLen(r)
		if w < 0 {
			w = 1
		}
		ends = append(ends, int32(i+w))
		for k, q := range []rune(d.String(string(utf8.AppendRune(buf[:0], r)))) {
			us = append(us, unit{r: q, cc: ccc(q), change: min(k, 1)})
		}
	}
	// Canonical ordering: each run of non-starters sorted by class,
	// stably.
	for i := 0; i < len(us); {
		if us[i].cc == 0 {
			i++
			continue
		}
		j := i
		for j < len(us) && us[j].cc != 0 {
			j++
		}
		slices.SortStableFunc(us[i:j], func(a, b unit) int { return int(a.cc) - int(b.cc) })
		i = j
	}
	if u.f == norm.NFC || u.f == norm.NFKC {
		us = composeUnits(us)
	}
	out := make([]byte, 0, len(s)+8)
	var al []int32
	// The library aligns its output with the input position by position,
	// through the change each character reports: 0 for one that replaces
	// an input character, +1 for one a decomposition inserted (it takes
	// the alignment of the input character before), -N for one that
	// replaces one and is followed by N removed (a composition).
	at := 0
	for _, un := range us {
		n := len(out)
		out = utf8.AppendRune(out, un.r)
		if !want {
			continue
		}
		var end int32
		switch {
		case un.change > 0 && at > 0:
			end = ends[min(at, len(ends))-1]
		case un.change <= 0:
			end = ends[min(at, len(ends)-1)]
			at += 1 - un.change
		}
		for range len(out) - n {
			al = append(al, end)
		}
	}
	return string(out), al
}

// unit is a character of a decomposition in canonical: its class and the
// change it reports, as the library's normalization does: 0 for the first
// character of an input character's decomposition, +1 for the others,
// and for a composition the first's change plus, for each character it
// took in, that one's change less one.
type unit struct {
	r      rune
	cc     uint8
	change int
}

// composeUnits is canonical composition: each character that is not
// blocked from the last starter (nothing between them, or only characters
// of a lower class) and composes with it replaces it.
func composeUnits(us []unit) []unit {
	out := us[:0:0]
	starter := -1
	var last uint8
	for _, un := range us {
		if starter >= 0 {
			adjacent := starter == len(out)-1
			if adjacent || last != 0 && last < un.cc {
				if p, ok := composePair(out[starter].r, un.r); ok {
					out[starter].r = p
					out[starter].change += un.change - 1
					continue
				}
			}
		}
		if un.cc == 0 {
			starter = len(out)
		}
		last = un.cc
		out = append(out, un)
	}
	return out
}

// composePair returns the primary composite of a and b, if they have one:
// what NFC makes of the two when it makes one character.
func composePair(a, b rune) (rune, bool) {
	var pair [2 * utf8.UTFMax]byte
	c := norm.NFC.String(string(utf8.AppendRune(utf8.AppendRune(pair[:0], a), b)))
	if r, w := utf8.DecodeRuneInString(c); w == len(c) && r != utf8.RuneError {
		return r, true
	}
	return 0, false
}
