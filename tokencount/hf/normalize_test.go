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

// TestMetaspaceFirst: Metaspace's prepend_scheme "first" prepends to the
// split whose original offset is 0, so not when the normalizer removed
// the text's first character (issue 37: " ab" after a Strip counted 3,
// the library 2). A BPE without merges: "▁a" is two tokens. The counts
// are the library's (tokenizers 0.23.2).
func TestMetaspaceFirst(t *testing.T) {
	texts := []string{" a", "a ", "xa", "xxa a", "\u0301a", "\u0001a a", "\u4e2da", "A", "<m>a", " <m>a", "x<m>a", "\u0301", "e\u0301a"}
	cases := []struct {
		normalizer string
		want       []int
	}{
		{`{"type": "Strip", "strip_left": false, "strip_right": true}`, []int{2, 2, 3, 6, 3, 5, 3, 2, 2, 2, 4, 2, 4}},
		{`{"type": "Replace", "pattern": {"String": "x"}, "content": ""}`, []int{2, 3, 1, 3, 3, 5, 3, 2, 2, 3, 2, 2, 4}},
		{`{"type": "Replace", "pattern": {"Regex": "x+"}, "content": ""}`, []int{2, 3, 1, 3, 3, 5, 3, 2, 2, 3, 2, 2, 4}},
		{`{"type": "Sequence", "normalizers": [{"type": "NFD"}, {"type": "StripAccents"}]}`, []int{2, 3, 3, 6, 1, 5, 3, 2, 2, 3, 4, 0, 3}},
		{`{"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true, "strip_accents": false, "lowercase": false}`, []int{2, 3, 3, 6, 3, 3, 4, 2, 2, 3, 4, 2, 4}},
		{`{"type": "NFC"}`, []int{2, 3, 3, 6, 3, 5, 3, 2, 2, 3, 4, 2, 3}},
		{`{"type": "Sequence", "normalizers": [{"type": "Lowercase"}, {"type": "Strip", "strip_left": true, "strip_right": true}]}`, []int{1, 2, 3, 6, 3, 5, 3, 2, 2, 2, 4, 2, 4}},
		{`{"type": "Prepend", "prepend": "▁"}`, []int{3, 3, 3, 6, 3, 5, 3, 2, 3, 5, 5, 2, 4}},
	}
	for _, c := range cases {
		js := `{"added_tokens":[{"id":5,"content":"<m>","single_word":false,"lstrip":false,"rstrip":false,"normalized":false,"special":true}],` +
			`"normalizer":` + c.normalizer + `,"pre_tokenizer":{"type":"Metaspace","replacement":"▁","prepend_scheme":"first","split":true},` +
			`"post_processor":null,"decoder":null,"model":{"type":"BPE","unk_token":"[UNK]","vocab":{"[UNK]":0,"▁":1,"a":2,"x":3,"A":4,"<m>":5},"merges":[]}}`
		tok, err := hf.Load(strings.NewReader(js), hf.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.normalizer, err)
		}
		for k, text := range texts {
			if got := tok.Count(text); got != c.want[k] {
				t.Errorf("%s: Count(%+q) = %d, want %d", c.normalizer, text, got, c.want[k])
			}
		}
	}
}

// TestPrecompiledNewerMarks: the Precompiled normalizer works a grapheme
// cluster at a time, and a mark Unicode 16 added (U+10D69, Garay) extends
// the cluster before it in the library's segmentation, where uniseg
// (Unicode 15.0) began a cluster with it (issue 37's held-out texts: the
// counts differed). The counts are the library's (tokenizers 0.23.2).
func TestPrecompiledNewerMarks(t *testing.T) {
	tok := load(t, "precompiled", hf.Options{})
	for text, want := range map[string]int{
		"e\u0301\U00010d69\U00010d69\U00010d69 word": 15,
		"x\U00010d69 e\u0301\U00010d6a":              11,
		"e\u0301 e\u0301\U00010d69":                  7,
	} {
		if got := tok.Count(text); got != want {
			t.Errorf("Count(%+q) = %d, want %d", text, got, want)
		}
	}
}
