package hf_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/tokencount/hf"
)

// splitTokenizer is a WordLevel tokenizer.json whose every pre-token is
// one token, after a Split of pattern (Isolated).
func splitTokenizer(pattern string) string {
	p, _ := json.Marshal(pattern)
	return tiny("null", `{"type":"Split","pattern":{"Regex":`+string(p)+`},"behavior":"Isolated","invert":false}`, "null",
		`{"type":"WordLevel","vocab":{"[UNK]":0},"unk_token":"[UNK]"}`)
}

// TestRegexConstructs: a construct that Go's regexp reads otherwise than
// Oniguruma, or does not have, is refused by name (issue 37: \pL+ counted
// 3 where the library counts 1, and the others like it).
func TestRegexConstructs(t *testing.T) {
	for pat, name := range map[string]string{
		`\pL+`:          `\p without braces`,
		`\pN+`:          `\p without braces`,
		`\PL+`:          `\P without braces`,
		`\p{L}+`:        `\p{...}`,
		`\Qa.b\E`:       `\Q...\E`,
		`xa{,2}`:        `{,n}`,
		`(?m)a.b`:       `(?m)`,
		`(?s:a.b)`:      `(?s:`,
		`(?i)ab`:        `(?i)`,
		`a(?=b)`:        `(?=`,
		`(?<n>a)`:       `(?<n`,
		`[a[:digit:]]+`: `[:digit:]`,
		`[[:alpha:]]+`:  `[:alpha:]`,
		`[a-z&&[^b]]+`:  `&&`,
		`[a[bc]]+`:      `a class inside a class`,
		`\w+`:           `\w`,
		`\d+`:           `\d`,
		`\bab`:          `\b`,
		`(a)\1`:         `\1`,
		`[^\S]+`:        `\S inside a class`,
		`^a`:            `^`,
		`a$`:            `$`,
	} {
		_, err := hf.Load(strings.NewReader(splitTokenizer(pat)), hf.Options{})
		if !errors.Is(err, hf.ErrUnsupported) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: err = %v, want ErrUnsupported naming %s", pat, err, name)
		}
	}
}

// TestRegexSpace: \s is Oniguruma's (White_Space, where Go's regexp has
// ASCII only), so patterns with it load and split where the library does.
// The counts are the library's (tokenizers 0.23.2).
func TestRegexSpace(t *testing.T) {
	texts := []string{"a b\u3000c\u0085d\u200be\u00a0f\t\vg", "  x  \n\n y", `a\sb s`}
	for pat, want := range map[string][]int{
		`\s+`:    {11, 4, 3},
		`[^\s]+`: {11, 4, 3},
		`\S+`:    {11, 4, 3},
		`[\sa]+`: {10, 4, 4},
		`x\s`:    {1, 3, 1},
		`\\s`:    {1, 1, 3},
	} {
		tok, err := hf.Load(strings.NewReader(splitTokenizer(pat)), hf.Options{})
		if err != nil {
			t.Errorf("%s: %v", pat, err)
			continue
		}
		for k, text := range texts {
			if got := tok.Count(text); got != want[k] {
				t.Errorf("%s: Count(%q) = %d, want %d", pat, text, got, want[k])
			}
		}
	}
}

// TestRegexCased: the Split patterns of o200k_base (GPT-4o, gpt-oss) and
// Mistral's Tekken load (issue 37: \s was refused) and split where the
// library does: the counts are the library's (tokenizers 0.23.2), each
// pre-token one token.
func TestRegexCased(t *testing.T) {
	cases := []struct {
		text          string
		o200k, tekken int
	}{
		{"Hello world! It's a test.", 7, 8},
		{"HELLO World's CamelCaseWord  DON'T", 7, 9},
		{"  leading\n\n\ttabs/\r\n/path//x", 8, 8},
		{"数字12345 and 1234567", 8, 15},
		{"ǅungla ǈ Ǉ ʰʲ ªº", 5, 5},
		{"x\u0301\u0302 É\u0301Ab\u0301", 2, 2},
		{"😀👍🏽 ok", 2, 2},
		{"naïve café résumé", 3, 3},
		{"Ÿ'S ſ'S 'LL 'Ll", 6, 8},
		{"a/\n\n/b", 3, 3},
		{" \u00a0\u3000 x", 2, 2},
		{"'s's'S", 2, 3},
		{"ABCdef GHIjkl", 2, 2},
		{"\u0301\u0301abc", 1, 1},
		{"!\u0301", 1, 1},
		{"Ǆǅǆ", 1, 1},
		{"ʰABC", 2, 2},
		{"ABCʰdef", 1, 1},
		{"ABʰ", 1, 1},
	}
	o200k, err := hf.Load(strings.NewReader(splitTokenizer(`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`)), hf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tekken, err := hf.Load(strings.NewReader(splitTokenizer(`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`)), hf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if got := o200k.Count(c.text); got != c.o200k {
			t.Errorf("o200k: Count(%q) = %d, want %d", c.text, got, c.o200k)
		}
		if got := tekken.Count(c.text); got != c.tekken {
			t.Errorf("Tekken: Count(%q) = %d, want %d", c.text, got, c.tekken)
		}
	}
}

// TestRegexUnicode16: the classes of the hand-written patterns are the
// library's (Oniguruma's Unicode 16 tables, generated into
// unicode_tables.go), not Go's (Unicode 15.0): a digit or a letter that
// Go does not know yet splits where the library splits (issue 37:
// " \U0001e5f4" was one piece, the library makes two). The counts are
// the library's (tokenizers 0.23.2), each pre-token one token.
func TestRegexUnicode16(t *testing.T) {
	llama3 := `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	tok, err := hf.Load(strings.NewReader(splitTokenizer(llama3)), hf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]int{
		" \U0001e5f4":           2, // Ol Onal digit four (Unicode 16)
		"x\U000105c0y":          1, // Todhri letter (Unicode 16)
		" \U00011380\U00011381": 1, // Tulu-Tigalari letters
		"\u1c89a":               1, // Cyrillic capital TJE (Unicode 16)
		" \U00010d40\U00010d41\U00010d42\U00010d43": 3, // Garay digits: 1-3 a piece
	} {
		if got := tok.Count(text); got != want {
			t.Errorf("Count(%+q) = %d, want %d", text, got, want)
		}
	}
}
