package pdf

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// word lays out s as glyphs of a 10 pt font on baseline y from x, 5 pt a
// glyph, with PDFium's space characters between words.
func word(s string, x, y float64) []glyph {
	var gs []glyph
	for _, r := range s {
		if r == ' ' {
			gs = append(gs, glyph{r: ' '})
			x += 2.5
			continue
		}
		gs = append(gs, glyph{r: r, left: x, right: x + 5, bottom: y, base: y, top: y + 9, size: 10})
		x += 5
	}
	return gs
}

func TestSegmentsNormalise(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"ligatures", "ﬁne ﬂow ﬀ ﬃ ﬄ ﬅ ﬆ", "fine flow ff ffi ffl st st"},
		{"presentation forms", "ﭐ ﹩", "ٱ $"},
		{"full-width", "ＡＢＣ", "ABC"},
		{"hyphen marks", "a\u00adb\ufffe", "a-b-"},
		{"left alone", "café ² ½", "café ² ½"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			segs := segments(word(tt.in, 72, 700))
			if assert.Len(t, segs, 1) {
				assert.Equal(t, tt.want, segs[0].String())
			}
		})
	}
}

func TestSegmentsCut(t *testing.T) {
	gs := append(word("left cell", 72, 700), word("right cell", 200, 700)...)
	gs = append(gs, word("next line", 72, 688)...)
	var got []string
	for _, s := range segments(gs) {
		got = append(got, s.String())
	}
	assert.Equal(t, []string{"left cell", "right cell", "next line"}, got)
}

func TestJoinHyphenated(t *testing.T) {
	tests := []struct {
		a, b, want string
	}{
		{"not unfa-", "miliar lines", "not unfamiliar lines"},
		{"good-look-", "ing men", "good-looking men"},
		{"the 1990-", "2000 era", "the 1990- 2000 era"},
		{"see Anglo-", "Saxon", "see Anglo- Saxon"},
		{"plain", "text", "plain text"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			k := &block{text: tt.a, starts: []pageStart{{0, 1}}}
			k.join(tt.b, 1)
			assert.Equal(t, tt.want, k.text)
		})
	}
}
