package hf_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ragkit/ragkit/tokencount/hf"
	"github.com/ragkit/ragkit/tokencount/hf/internal/ends"
)

// TestNormalizeAsLibrary: NFC, NFD and NFKC as the library applies them
// (issue 37), through a tokenizer whose every character is a token:
// a supplementary character before a mark (x/text v0.28.0 truncated it
// to 16 bits in composition), runs of more than 30 marks (x/text inserts
// U+034F after 30, the library reorders and composes the whole run), and
// U+0899 and the like, marks to Go and unknown characters, so starters,
// to the library's tables. The counts and ends are the library's
// (tokenizers 0.23.2).
func TestNormalizeAsLibrary(t *testing.T) {
	texts := []string{
		"\U00010041\u0301",
		"a\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301",
		"e\u0899\u0301",
		"a\u0316\u0301\u0316\u0301\u0316\u0301\u0316\u0301\u0316\u0301\u0316\u0301\u0316\u0301\u0316\u0301\u0316\u0301\u0316\u0301\u0316\u0301\u0316\u0301\u0316\u0301\u0316\u0301\u0316\u0301\u0316\u0301\u0316\u0301\u0316\u0301\u0316\u0301\u0316\u0301x",
		"\u1100\u1161\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301",
		"\u00e9\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0323",
		"\ufb2c\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0\u05b0",
	}
	nfc := [][]int{
		{1, 2},
		{1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32},
		{1, 2, 3},
		{1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42},
		{1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37},
		{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33},
		{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 32, 32},
	}
	want := map[string][][]int{
		"NFC":  nfc,
		"NFKC": nfc, // the same: these texts have no compatibility characters
		"NFD": {
			[]int{1, 2},
			[]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32},
			[]int{1, 2, 3},
			[]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42},
			[]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37},
			[]int{1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33},
			[]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 32, 32},
		},
	}
	for form, all := range want {
		tok, err := hf.Load(strings.NewReader(tiny(`{"type":"`+form+`"}`,
			`{"type":"Split","pattern":{"Regex":"."},"behavior":"Isolated","invert":false}`, "null",
			`{"type":"WordLevel","vocab":{"[UNK]":0},"unk_token":"[UNK]"}`)), hf.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for k, text := range texts {
			if got := tok.Count(text); got != len(all[k]) {
				t.Errorf("%s: Count(%+q) = %d, want %d", form, text, got, len(all[k]))
			}
			got := ends.Chars(text, tok.AppendTokenEnds(nil, text))
			if i, ok := ends.FirstDiff(got, all[k], utf8.RuneCountInString(text)); !ok {
				t.Errorf("%s: %+q: token %d ends differently: %v, the library's %v", form, text, i, got, all[k])
			}
		}
	}
}
