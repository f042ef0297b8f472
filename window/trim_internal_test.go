package window

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/tokentest"
	"github.com/ragkit/ragkit/vectorstore"
)

// trimReference is Extractor.trim as it was before it bisected: it counts
// every cut in turn, which costs O(n²) for a run of n units. It is kept as
// the reference the bisection must agree with.
func trimReference(x *Extractor, c *candidates, a, b, limit int) (Window, bool) {
	v := 0.0
	for i := a; i <= b; i++ {
		v += c.values[i]
	}
	for a < b {
		if c.values[a] <= c.values[b] {
			v -= c.values[a]
			a++
		} else {
			v -= c.values[b]
			b--
		}
		if w := x.segment(c, a, b, v); w.Tokens <= limit {
			ok := v > 0 && v >= x.cfg.MinValue
			w.Trimmed = true
			return w, ok
		}
	}
	return Window{}, false
}

// TestTrimMatchesReference: on random runs, values and limits, the trim
// takes the cut that counting every cut in turn takes, for tokenizers
// whose count never rises as a text loses a unit at an end.
func TestTrimMatchesReference(t *testing.T) {
	cl100k, err := tokencount.Encoding("cl100k_base")
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"the", "budget", "is", "45", "euros", "a", "night,", "Zürich", "über", "—", "\n\n", "hotel", "x"}
	rng := rand.New(rand.NewPCG(37, 4))
	for _, tok := range []tokencount.Tokenizer{tokentest.Runes{}, tokentest.Words{}, cl100k} {
		for trial := range 3000 {
			n := 1 + rng.IntN(30)
			c := &candidates{}
			for i := range n {
				var b strings.Builder
				for range 1 + rng.IntN(8) {
					b.WriteString(words[rng.IntN(len(words))])
					b.WriteByte(' ')
				}
				c.units = append(c.units, vectorstore.Record{ID: strconv.Itoa(i), DocID: "d", Index: i, Text: b.String()})
				c.values = append(c.values, rng.Float64()*2-0.5)
				c.docStart = append(c.docStart, 0)
				c.hits = append(c.hits, nil)
				c.vanished = append(c.vanished, false)
			}
			sep := []string{"", " ", "\n"}[rng.IntN(3)]
			x := &Extractor{cfg: ExtractorConfig{Tokenizer: tok, Separator: sep, MinValue: rng.Float64() * 0.5}}
			a := rng.IntN(n)
			b := a + rng.IntN(n-a)
			limit := rng.IntN(1 + tok.Count(join(c.units, a, b, sep)))
			got, gotOK := x.trim(c, a, b, limit)
			want, wantOK := trimReference(x, c, a, b, limit)
			if gotOK != wantOK || got.First != want.First || got.Last != want.Last || got.Value != want.Value || got.Tokens != want.Tokens || got.Text != want.Text {
				t.Fatalf("%T, trial %d: run [%d, %d], limit %d: got [%d, %d] %v %v, want [%d, %d] %v %v",
					tok, trial, a, b, limit, got.First, got.Last, got.Value, gotOK, want.First, want.Last, want.Value, wantOK)
			}
		}
	}
}
