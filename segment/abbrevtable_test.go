package segment

import (
	"strings"
	"testing"

	"github.com/ragkit/ragkit/internal/testcorpus"
)

// TestAbbrevTableMatchesMap checks the table against the map it is built
// from, for every language: every key in upper, lower and title case, and
// every token before a period in the corpora.
func TestAbbrevTableMatchesMap(t *testing.T) {
	var tokens []string
	for _, name := range []string{"room_with_a_view.txt", "sherlock_1661.txt", "commonmark_spec.md"} {
		for _, f := range strings.Fields(testcorpus.Must(t, name)) {
			if i := strings.LastIndexByte(f, '.'); i > 0 {
				tokens = append(tokens, f[:i], strings.Trim(f[:i], `"'“(`))
			}
		}
	}
	tokens = append(tokens, "", "ÉTC", "İ", strings.Repeat("x", 30), strings.Repeat("é", 13), "N°", "Ph.D", "U.S.A")
	langs := []*language{english(), generic()}
	for _, l := range tailored() {
		langs = append(langs, l)
	}
	for _, l := range langs {
		m, table := languageAbbrevs(l), l.abbrevTable()
		check := func(tok string) {
			t.Helper()
			var buf [24]byte
			want := abbrNone
			if key := lower(buf[:], tok); key != nil {
				want = m[string(key)]
			}
			if got, _ := table.lookup(tok); got != want {
				t.Fatalf("%s: lookup(%q) = %d, want %d", l.code, tok, got, want)
			}
		}
		for k := range m {
			check(k)
			check(strings.ToUpper(k))
			check(strings.ToUpper(k[:1]) + k[1:])
		}
		for _, tok := range tokens {
			check(tok)
		}
	}
}
