package hf_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/tokencount/hf"
)

// tiny is a WordPiece tokenizer.json with the components in %s slots.
func tiny(normalizer, pre, post, model string) string {
	if model == "" {
		model = `{"type":"WordPiece","unk_token":"[UNK]","continuing_subword_prefix":"##","max_input_chars_per_word":100,` +
			`"vocab":{"[UNK]":0,"a":1,"##b":2,"1":3,"##1":4,"[CLS]":5,"[SEP]":6}}`
	}
	return `{"version":"1.0","added_tokens":[],"normalizer":` + normalizer + `,"pre_tokenizer":` + pre +
		`,"post_processor":` + post + `,"decoder":null,"model":` + model + `}`
}

func TestRefusals(t *testing.T) {
	bpe := func(extra string) string {
		return `{"type":"BPE",` + extra + `"vocab":{"a":0,"b":1,"ab":2},"merges":["a b"]}`
	}
	cases := []struct {
		json, names string
	}{
		{tiny(`{"type":"Mystery"}`, "null", "null", ""), "normalizer Mystery"},
		{tiny(`{"type":"Replace","pattern":{"Regex":"\\w+"},"content":"b"}`, "null", "null", ""), "normalizer Replace: hf: unsupported tokenizer component: regex"},
		{tiny(`{"type":"Sequence","normalizers":[{"type":"NFC"},{"type":"ByteLevel"}]}`, "null", "null", ""), "normalizer ByteLevel"},
		{tiny("null", `{"type":"Split","pattern":{"Regex":"\\w+(?=x)"},"behavior":"Isolated","invert":false}`, "null", ""), "pre-tokenizer Split: hf: unsupported tokenizer component: regex"},
		{tiny("null", `{"type":"Split","pattern":{"Regex":"[a-z]*"},"behavior":"Isolated","invert":false}`, "null", ""), "matches the empty string"},
		{tiny("null", `{"type":"Split","pattern":{"Regex":"a"},"behavior":"Sideways","invert":false}`, "null", ""), "behavior"},
		{tiny("null", `{"type":"UnicodeScripts"}`, "null", ""), "pre-tokenizer UnicodeScripts"},
		{tiny("null", `{"type":"Sequence","pretokenizers":[{"type":"ByteLevel"},{"type":"Digits"}]}`, "null", ""), "ByteLevel followed by"},
		{tiny("null", "null", `{"type":"Mystery"}`, ""), "post-processor Mystery"},
		{tiny("null", `{"type":"ByteLevel"}`, "null", `{"type":"WordLevel","vocab":{"a":0},"unk_token":"a"}`), "model WordLevel after a ByteLevel pre-tokenizer"},
		{tiny("null", "null", "null", bpe(`"dropout":0.1,`)), "dropout"},
		{tiny("null", "null", "null", bpe(`"continuing_subword_prefix":"##",`)), "continuing_subword_prefix"},
		{tiny("null", "null", "null", `{"type":"Unigram","vocab":[["a",-1.0]]}`), "Unigram without unk_id"},
	}
	for _, c := range cases {
		_, err := hf.Load(strings.NewReader(c.json), hf.Options{})
		if !errors.Is(err, hf.ErrUnsupported) {
			t.Errorf("%s: err = %v, want ErrUnsupported", c.names, err)
			continue
		}
		if !strings.Contains(err.Error(), c.names) {
			t.Errorf("error %q does not name %q", err, c.names)
		}
	}
}

func TestMalformed(t *testing.T) {
	real, err := os.ReadFile(filepath.Join("testdata", "bytelevel.json"))
	if err != nil {
		t.Fatal(err)
	}
	bpe := func(vocab, merges string) string {
		return tiny("null", "null", "null", `{"type":"BPE","vocab":`+vocab+`,"merges":`+merges+`}`)
	}
	cases := map[string]string{
		"empty":                  "",
		"not an object":          "[]",
		"unclosed":               "{",
		"truncated":              string(real[:len(real)/2]),
		"trailing data":          string(real) + "{}",
		"no model":               `{"model":null}`,
		"model without type":     `{"model":{"foo":1}}`,
		"merge of unknown":       bpe(`{"a":0,"b":1,"ab":2}`, `["a c"]`),
		"merged not in vocab":    bpe(`{"a":0,"b":1}`, `["a b"]`),
		"merge of three":         bpe(`{"a":0,"b":1,"ab":2}`, `["a b c"]`),
		"pair of one":            bpe(`{"a":0,"b":1,"ab":2}`, `[["a"]]`),
		"negative id":            bpe(`{"a":-1}`, `[]`),
		"id as string":           bpe(`{"a":"0"}`, `[]`),
		"vocab as number":        bpe(`7`, `[]`),
		"bad escape":             bpe(`{"a\q":0}`, `[]`),
		"vocab without comma":    bpe(`{"a":0 "b":1}`, `[]`),
		"number 1-2":             `{"truncation":1-2,"model":{"type":"BPE","vocab":{"a":0},"merges":[]}}`,
		"number 01":              `{"padding":01,"model":{"type":"BPE","vocab":{"a":0},"merges":[]}}`,
		"number 1.":              `{"model":{"type":"BPE","dropout":1.,"vocab":{"a":0},"merges":[]}}`,
		"vocab unbalanced":       bpe(`{"a":0]`, `[]`),
		"vocab control char":     bpe("{\"a\x01\":0}", `[]`),
		"merges without comma":   bpe(`{"a":0,"b":1,"ab":2}`, `["a b" "a b"]`),
		"merges unbalanced":      bpe(`{"a":0,"b":1,"ab":2}`, `["a b"}`),
		"merges without value":   `{"model":{"type":"BPE","vocab":{"a":0},"merges":}}`,
		"vocab without value":    `{"model":{"type":"BPE","vocab":,"merges":[]}}`,
		"unused merges no value": `{"model":{"type":"WordPiece","vocab":{"[UNK]":0},"merges": }}`,
		"unused merges invalid":  tiny("null", "null", "null", `{"type":"WordPiece","vocab":{"[UNK]":0},"merges":[1,,2]}`),
		"unigram vocab invalid":  tiny("null", "null", "null", `{"type":"Unigram","unk_id":0,"vocab":[["a",-1.0] ["b",-2.0]]}`),
		"unk not in vocab":       tiny("null", "null", "null", `{"type":"WordPiece","unk_token":"[UNK]","vocab":{"a":0}}`),
		"unigram unk range":      tiny("null", "null", "null", `{"type":"Unigram","unk_id":5,"vocab":[["a",-1.0]]}`),
		"unigram entry":          tiny("null", "null", "null", `{"type":"Unigram","unk_id":0,"vocab":[["a"]]}`),
		"normalizer not object":  tiny(`"NFC"`, "null", "null", ""),
		"wordlevel without unk":  tiny("null", "null", "null", `{"type":"WordLevel","vocab":{"a":0}}`),
		"wordlevel unk missing":  tiny("null", "null", "null", `{"type":"WordLevel","vocab":{"a":0},"unk_token":"[UNK]"}`),
		"wordlevel no vocab":     tiny("null", "null", "null", `{"type":"WordLevel","unk_token":"[UNK]"}`),
		"wordlevel vocab list":   tiny("null", "null", "null", `{"type":"WordLevel","vocab":[["[UNK]",0]],"unk_token":"[UNK]"}`),
		"wordlevel id range":     tiny("null", "null", "null", `{"type":"WordLevel","vocab":{"[UNK]":99999999999},"unk_token":"[UNK]"}`),
		"wordlevel unk type":     tiny("null", "null", "null", `{"type":"WordLevel","vocab":{"[UNK]":0},"unk_token":7}`),
		"template unknown":       tiny("null", "null", `{"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"[X]","type_id":0}}],"special_tokens":{}}`, ""),
		"charsmap too short":     tiny(`{"type":"Precompiled","precompiled_charsmap":"AAAA"}`, "null", "null", ""),
		"charsmap not base64":    tiny(`{"type":"Precompiled","precompiled_charsmap":"!!"}`, "null", "null", ""),
		"charsmap trie too long": tiny(`{"type":"Precompiled","precompiled_charsmap":"AAEAAAAAAAA="}`, "null", "null", ""),
		"charsmap missing":       tiny(`{"type":"Precompiled"}`, "null", "null", ""),
		"deep sequence":          tiny(strings.Repeat(`{"type":"Sequence","normalizers":[`, 40)+`{"type":"NFC"}`+strings.Repeat(`]}`, 40), "null", "null", ""),
	}
	for name, data := range cases {
		_, err := hf.Load(strings.NewReader(data), hf.Options{})
		if !errors.Is(err, hf.ErrFormat) {
			t.Errorf("%s: err = %v, want ErrFormat", name, err)
		}
	}
}

func TestOptions(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "wordpiece.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hf.Load(bytes.NewReader(data), hf.Options{MaxFileSize: -1}); !errors.Is(err, hf.ErrConfig) ||
		err.Error() != "hf: invalid configuration: MaxFileSize is -1: must not be negative" {
		t.Errorf("MaxFileSize -1: err = %v", err)
	}
	if _, err := hf.Load(bytes.NewReader(data), hf.Options{MaxFileSize: int64(len(data) - 1)}); !errors.Is(err, hf.ErrFormat) {
		t.Errorf("file over MaxFileSize: err = %v, want ErrFormat", err)
	}
	if _, err := hf.Load(bytes.NewReader(data), hf.Options{MaxFileSize: int64(len(data))}); err != nil {
		t.Errorf("file of exactly MaxFileSize: %v", err)
	}
	if _, err := hf.LoadFile(filepath.Join("testdata", "missing.json"), hf.Options{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: err = %v", err)
	}
}

// TestRegexFallback runs a Split pattern that has no hand-written
// matcher through Go's regexp: "a12a1" splits into a, 12, a, 1, and the
// vocabulary has no ##2, so 12 is one unknown token.
func TestRegexFallback(t *testing.T) {
	data := tiny("null", `{"type":"Split","pattern":{"Regex":"[0-9]+"},"behavior":"Isolated","invert":false}`, "null", "")
	tok, err := hf.Load(strings.NewReader(data), hf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := tok.Count("a12a1"); got != 4 {
		t.Errorf("Count(a12a1) = %d, want 4", got)
	}
	if got := tok.Count("ab11"); got != 4 {
		t.Errorf("Count(ab11) = %d, want 4 (a ##b, 1 ##1)", got)
	}
}

// TestEmptiedStretch: a stretch between two added tokens that the
// normalizer empties (the space between two "." of ALBERT's added tokens,
// stripped by T5's and XLM-R's Strip) gives no token, as in the library,
// which counts "a . . b" as ▁a . . ▁b with this file.
func TestEmptiedStretch(t *testing.T) {
	data := `{"added_tokens":[{"id":3,"content":".","normalized":false,"special":false}],` +
		`"normalizer":{"type":"Sequence","normalizers":[{"type":"Strip","strip_left":false,"strip_right":true},` +
		`{"type":"Replace","pattern":{"Regex":" {2,}"},"content":"▁"}]},` +
		`"pre_tokenizer":{"type":"Metaspace","replacement":"▁","prepend_scheme":"always","split":true},` +
		`"model":{"type":"Unigram","unk_id":0,"vocab":[["<unk>",0],["▁a",-1],["▁",-2],[".",-1],["▁b",-1]]}}`
	tok, err := hf.Load(strings.NewReader(data), hf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"a . . b", "a .  .b "} {
		if got := tok.Count(text); got != 4 {
			t.Errorf("Count(%q) = %d, want 4", text, got)
		}
		checkEnds(t, tok, text)
	}
}

// TestUntypedModel: a model without "type" (files of old versions of the
// library) is read as the library reads it, trying BPE, WordPiece,
// WordLevel and Unigram in turn: WordPiece needs unk_token,
// continuing_subword_prefix and max_input_chars_per_word, WordLevel
// unk_token. The library counts "ab b ab" as 3 tokens with the WordLevel
// file and 5 (a ##b, b, a ##b) with the WordPiece one.
func TestUntypedModel(t *testing.T) {
	for _, c := range []struct {
		model string
		want  int
	}{
		{`{"unk_token":"x","max_input_chars_per_word":100,"vocab":{"x":0,"a":1,"##b":2}}`, 3},
		{`{"unk_token":"x","continuing_subword_prefix":"##","max_input_chars_per_word":100,"vocab":{"x":0,"a":1,"##b":2,"b":3}}`, 5},
	} {
		tok, err := hf.Load(strings.NewReader(tiny("null", `{"type":"WhitespaceSplit"}`, "null", c.model)), hf.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := tok.Count("ab b ab"); got != c.want {
			t.Errorf("%s: Count = %d, want %d", c.model, got, c.want)
		}
	}
}

// TestByteLevelMerges loads one byte-level BPE with its merges written in
// each form a file may use (plain strings, escapes, pairs, characters
// outside the byte-level alphabet): all read alike. Merges that read
// wrong are refused in every form.
func TestByteLevelMerges(t *testing.T) {
	const vocab = `{"a":0,"b":1,"c":2,"Ġ":3,"ab":4,"Ġab":5,"abc":6,"\"":7,"\"a":8,"<s>":9,"<s>a":10}`
	file := func(merges string) string {
		return tiny("null", `{"type":"ByteLevel","add_prefix_space":false,"use_regex":false}`, "null",
			`{"type":"BPE","vocab":`+vocab+`,"merges":`+merges+`}`)
	}
	forms := map[string]string{
		"plain":   `["a b","Ġ ab","ab c","\" a","<s> a"]`,
		"escapes": `["a \u0062","\u0120 ab","ab c","\" a","<s> a"]`,
		"pairs":   "[[\"a\",\"b\"], [ \"Ġ\" ,\n\t\"ab\" ],[\"ab\",\"c\"],[\"\\\"\",\"a\"],[\"<s>\",\"a\"]]",
	}
	texts := []string{"ab abc abab", `"ab "a`, "cab  ab\n"}
	var want []int
	for _, name := range []string{"plain", "escapes", "pairs"} {
		tok, err := hf.Load(strings.NewReader(file(forms[name])), hf.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got []int
		for _, text := range texts {
			got = append(got, tok.Count(text))
		}
		if want == nil {
			want = got
		} else if !slices.Equal(got, want) {
			t.Errorf("%s: counts %v, want %v as plain", name, got, want)
		}
	}
	// a b Ġ a b c Ġ a b a b: (a,b) first, then (Ġ,ab); (ab,c) no longer
	// meets a pair: ab|Ġab|c|Ġab|ab.
	if want[0] != 5 {
		t.Errorf("Count(%q) = %d, want 5", texts[0], want[0])
	}
	for name, merges := range map[string]string{
		"three tokens":     `["a b c"]`,
		"no space":         `["ab"]`,
		"unknown token":    `["a x"]`,
		"merged not there": `["b a"]`,
		"control char":     "[\"a\tb\"]",
		"pair of three":    `[["a","b","c"]]`,
		"pair of one":      `[["a"]]`,
		"pair in braces":   `[{"a","b"}]`,
		"pair unclosed":    `[["a","b"`,
	} {
		if _, err := hf.Load(strings.NewReader(file(merges)), hf.Options{}); !errors.Is(err, hf.ErrFormat) {
			t.Errorf("%s: err = %v, want ErrFormat", name, err)
		}
		// The model before the pre-tokenizer: merges read after, not
		// where they are.
		modelFirst := `{"model":{"type":"BPE","vocab":` + vocab + `,"merges":` + merges + `},` +
			`"pre_tokenizer":{"type":"ByteLevel","add_prefix_space":false,"use_regex":false}}`
		if _, err := hf.Load(strings.NewReader(modelFirst), hf.Options{}); !errors.Is(err, hf.ErrFormat) {
			t.Errorf("%s, model first: err = %v, want ErrFormat", name, err)
		}
	}
}

// The order in which the library writes the members of a tokenizer.json
// and of its model.
var (
	libraryOrder = []string{"version", "truncation", "padding", "added_tokens", "normalizer", "pre_tokenizer",
		"post_processor", "decoder", "model"}
	libraryModelOrder = []string{"type", "dropout", "unk_token", "continuing_subword_prefix", "end_of_word_suffix",
		"fuse_unk", "byte_fallback", "ignore_merges", "vocab", "merges"}
)

// reordered returns the tokenizer.json data with the members of its
// top-level object in the order top and of its model in the order model
// (members not named there after them, in alphabetical order).
func reordered(t *testing.T, data []byte, top, model []string) []byte {
	t.Helper()
	var file, m map[string]json.RawMessage
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(file["model"], &m); err != nil {
		t.Fatal(err)
	}
	file["model"] = object(m, model)
	return object(file, top)
}

// object writes the members of obj, those named in order first.
func object(obj map[string]json.RawMessage, order []string) []byte {
	keys := slices.DeleteFunc(slices.Clone(order), func(k string) bool { _, ok := obj[k]; return !ok })
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if !slices.Contains(order, k) {
			keys = append(keys, k)
		}
	}
	out := []byte{'{'}
	for k, key := range keys {
		if k > 0 {
			out = append(out, ',')
		}
		q, _ := json.Marshal(key)
		out = append(append(append(out, q...), ':'), obj[key]...)
	}
	return append(out, '}')
}

// TestMemberOrder loads each family's file with its members in the
// library's order, with the model before the pre-tokenizer, with the
// merges before the vocabulary, and with the vocabulary given twice (the
// last counts, as in encoding/json): all count as the file in
// testdata/, whose members are in alphabetical order. The loader reads a
// BPE vocabulary and merges where they are when the pre-tokenizer and
// the model's type come before them, and otherwise passes over them and
// reads them after.
func TestMemberOrder(t *testing.T) {
	texts := loadExpected(t).Texts
	mergesFirst := slices.Clone(libraryModelOrder)
	mergesFirst[8], mergesFirst[9] = "merges", "vocab"
	for _, g := range genFiles {
		data, err := os.ReadFile(filepath.Join("testdata", g.name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		want := load(t, g.name, hf.Options{})
		library := reordered(t, data, libraryOrder, libraryModelOrder)
		variants := map[string][]byte{
			"library order": library,
			"model first":   reordered(t, data, []string{"model"}, libraryModelOrder),
			"merges first":  reordered(t, data, libraryOrder, mergesFirst),
			"vocab twice":   bytes.Replace(library, []byte(`"vocab":`), []byte(`"vocab":{"zz":0},"vocab":`), 1),
		}
		for variant, d := range variants {
			tok, err := hf.Load(bytes.NewReader(d), hf.Options{})
			if err != nil {
				t.Fatalf("%s %s: %v", g.name, variant, err)
			}
			for _, text := range texts {
				if got, w := tok.AppendTokenEnds(nil, text), want.AppendTokenEnds(nil, text); !slices.Equal(got, w) {
					t.Fatalf("%s %s: ends of %q = %v, want %v", g.name, variant, text, got, w)
				}
			}
		}
	}
}
