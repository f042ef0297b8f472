package segment

// The English model of github.com/neurosnap/sentences (Punkt, Kiss and
// Strunk 2006, trained on Wall Street Journal text) holds three things this
// package uses: a list of abbreviations, a list of frequent sentence starters
// and, for about 20,000 words, the orthographic contexts the word was seen in
// (capitalised or not, at the start of a sentence or inside one). They are
// generated into punktdata.go as constants (a sorted string of the words,
// their end offsets and flags), so that nothing is decoded at run time:
// decoding the model's gzipped JSON took about 20 ms on a first call.

//go:generate go run ./internal/punktgen

// Orthographic context flags, as in Punkt.
const (
	orthoBegUc = 1 << 1 // upper case at the start of a sentence
	orthoMidUc = 1 << 2 // upper case inside a sentence
	orthoUnkUc = 1 << 3 // upper case, position unknown
	orthoBegLc = 1 << 4 // lower case at the start of a sentence
	orthoMidLc = 1 << 5 // lower case inside a sentence
	orthoUnkLc = 1 << 6 // lower case, position unknown

	orthoLc = orthoBegLc | orthoMidLc | orthoUnkLc

	// punktStarter marks, in punktFlags, a frequent sentence starter.
	punktStarter = 1 << 0
)

// punktModel is the English model, read from the generated tables.
type punktModel struct{}

// englishPunkt returns the English model.
func englishPunkt() *punktModel { return &punktModel{} }

// abbrevs returns the model's abbreviations that are not also everyday
// words ("ill", "wed", "ore"): the model saw those in lower case inside
// sentences, and a period after them usually ends one.
func (*punktModel) abbrevs() []string { return punktAbbrevs[:] }

// ortho returns the orthographic flags of the lower case word w, or 0.
func (*punktModel) ortho(w []byte) uint8 {
	return punktFlagsOf(w) &^ punktStarter
}

// starter reports whether the lower case word w often opens a sentence.
func (*punktModel) starter(w []byte) bool {
	return punktFlagsOf(w)&punktStarter != 0
}

// punktFlagsOf returns the flags of w, found by binary search among the
// sorted words, or 0 if the model does not know it.
func punktFlagsOf(w []byte) uint8 {
	lo, hi := 0, len(punktEnds)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if punktWord(m) < string(w) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(punktEnds) && punktWord(lo) == string(w) {
		return punktFlags[lo]
	}
	return 0
}

func punktWord(i int) string {
	start := uint32(0)
	if i > 0 {
		start = punktEnds[i-1]
	}
	return punktWords[start:punktEnds[i]]
}
