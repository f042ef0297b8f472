package segment

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/neurosnap/sentences/data"
	"github.com/stretchr/testify/require"
)

// TestPunktDataMatchesModel checks the generated tables (punktdata.go,
// see internal/punktgen) against github.com/neurosnap/sentences' English
// model, decoded from its JSON: every word's flags, the starters and the
// abbreviations, and nothing else. Run go generate after updating the
// module if this fails.
func TestPunktDataMatchesModel(t *testing.T) {
	st := decodePunkt(t)
	m := englishPunkt()
	words := map[string]bool{}
	for w, f := range st.OrthoContext {
		require.Equal(t, f, m.ortho([]byte(w)), "ortho(%q)", w)
		words[w] = true
	}
	for w := range st.SentStarters {
		require.True(t, m.starter([]byte(w)), "starter(%q)", w)
		words[w] = true
	}
	require.Len(t, punktEnds, len(words))
	var abbrevs []string
	for a := range st.AbbrevTypes {
		if strings.TrimSpace(a) != "" && !strings.ContainsRune(a, ' ') && st.OrthoContext[a]&orthoMidLc == 0 {
			abbrevs = append(abbrevs, a)
		}
	}
	slices.Sort(abbrevs)
	require.Equal(t, abbrevs, m.abbrevs())
	require.NotEmpty(t, abbrevs)
	for _, w := range []string{"", "zzzzzz", "\xff", "aa&ma-%a-1"} {
		require.Zero(t, m.ortho([]byte(w)), "ortho(%q)", w)
		require.False(t, m.starter([]byte(w)), "starter(%q)", w)
	}
}

// punktJSON holds the fields of sentences.Storage that package segment uses.
type punktJSON struct {
	OrthoContext map[string]uint8
	SentStarters map[string]int
	AbbrevTypes  map[string]int
}

// decodePunkt decodes the English model as the package did before its
// tables were generated.
func decodePunkt(t *testing.T) punktJSON {
	var st punktJSON
	b, err := data.Asset("data/english.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &st))
	return st
}
