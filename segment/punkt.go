package segment

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/neurosnap/sentences/data"
)

// The English model of github.com/neurosnap/sentences (Punkt, Kiss and
// Strunk 2006, trained on Wall Street Journal text) holds three things this
// package uses: a list of abbreviations, a list of frequent sentence starters
// and, for about 20,000 words, the orthographic contexts the word was seen in
// (capitalised or not, at the start of a sentence or inside one). Decoding it
// costs a few milliseconds, so it is done once, on first use.

// Orthographic context flags, as in Punkt.
const (
	orthoBegUc = 1 << 1 // upper case at the start of a sentence
	orthoMidUc = 1 << 2 // upper case inside a sentence
	orthoUnkUc = 1 << 3 // upper case, position unknown
	orthoBegLc = 1 << 4 // lower case at the start of a sentence
	orthoMidLc = 1 << 5 // lower case inside a sentence
	orthoUnkLc = 1 << 6 // lower case, position unknown

	orthoLc = orthoBegLc | orthoMidLc | orthoUnkLc
)

type punktModel struct {
	ortho    map[string]uint8
	starters map[string]bool
	abbrevs  []string
}

var (
	punktOnce sync.Once
	punktData *punktModel
)

// englishPunkt returns the decoded English model. If the embedded data
// cannot be read (it always can: it is compiled into the neurosnap module),
// the model is empty and the rules that use it fall back to word lists.
func englishPunkt() *punktModel {
	punktOnce.Do(func() {
		m := &punktModel{ortho: map[string]uint8{}, starters: map[string]bool{}}
		punktData = m
		b, err := data.Asset("data/english.json")
		if err != nil {
			return
		}
		// The fields of sentences.Storage this package uses, decoded
		// straight into compact types.
		var st struct {
			OrthoContext map[string]uint8
			SentStarters map[string]int
			AbbrevTypes  map[string]int
		}
		if json.Unmarshal(b, &st) != nil {
			return
		}
		m.ortho = st.OrthoContext
		for w := range st.SentStarters {
			m.starters[w] = true
		}
		for a := range st.AbbrevTypes {
			// Skip the abbreviations that are also everyday words ("ill",
			// "wed", "ore"): the model saw them in lower case inside
			// sentences, and a period after them usually ends one.
			if strings.TrimSpace(a) == "" || strings.ContainsRune(a, ' ') || m.ortho[a]&orthoMidLc != 0 {
				continue
			}
			m.abbrevs = append(m.abbrevs, a)
		}
	})
	return punktData
}
