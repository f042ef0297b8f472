package hf_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/tokencount/hf"
)

// FuzzLoad feeds the loader arbitrary bytes: it must return an error or a
// tokenizer whose counts keep the Offsetter contract, never panic.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(tiny("null", `{"type":"BertPreTokenizer"}`, "null", "")))
	f.Add([]byte(tiny(`{"type":"BertNormalizer","lowercase":true}`, `{"type":"Metaspace","replacement":"▁","prepend_scheme":"first","split":true}`,
		`{"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"[CLS]"}},{"Sequence":{"id":"A"}}],"special_tokens":{"[CLS]":{"ids":[5]}}}`, "")))
	f.Add([]byte(tiny(`{"type":"Sequence","normalizers":[{"type":"Prepend","prepend":"▁"},{"type":"Replace","pattern":{"String":" "},"content":"▁"}]}`,
		`{"type":"Sequence","pretokenizers":[{"type":"Split","pattern":{"String":" "},"behavior":"MergedWithPrevious","invert":true},{"type":"ByteLevel","add_prefix_space":true}]}`,
		"null", `{"type":"BPE","byte_fallback":true,"fuse_unk":true,"unk_token":"a","ignore_merges":true,"vocab":{"a":0,"b":1,"ab":2,"<0x61>":3},"merges":[["a","b"]]}`)))
	f.Add([]byte(tiny(`{"type":"NFKC"}`, `{"type":"Digits","individual_digits":true}`, "null", `{"type":"Unigram","unk_id":0,"byte_fallback":true,"vocab":[["<unk>",0],["a",-1.5],["ab",-2],["<0x62>",-3]]}`)))
	f.Add([]byte(`{"added_tokens":[{"id":9,"content":"[M]","lstrip":true,"rstrip":true,"single_word":true,"normalized":true,"special":false}],` +
		`"model":{"type":"BPE","vocab":{"\u0041\ud83d\ude00":0,"b":1},"merges":[]}}`))
	f.Add([]byte(tiny("null", `{"type":"ByteLevel","add_prefix_space":false}`, "null",
		`{"type":"BPE","vocab":{"a":0,"b":1,"ab":2,"Ġ":3,"Ġab":4,"<s>":5},"merges":["a b","Ġ ab"]}`)))
	f.Add([]byte(tiny("null", `{"type":"ByteLevel"}`, "null",
		`{"type":"BPE","vocab":{"a":0,"b":1,"ab":2},"merges":[["a","b"],["a","b"]],"ignore_merges":true}`)))
	// A Precompiled charsmap whose trie points outside itself: "CAAAAP////8AAAAA"
	// is a trie of two units, the root's offset far out of range.
	f.Add([]byte(tiny(`{"type":"Precompiled","precompiled_charsmap":"CAAAAP////8AAAAAYQA="}`, "null", "null", "")))
	f.Add([]byte(tiny(`{"type":"Sequence","normalizers":[{"type":"NFD"},{"type":"StripAccents"},{"type":"Lowercase"}]}`, `{"type":"Whitespace"}`, "null",
		`{"type":"WordLevel","unk_token":"[UNK]","vocab":{"[UNK]":0,"a":1,"b":2,"ab":3,"!":4}}`)))
	f.Add([]byte(`{"model":{"unk_token":"x","vocab":{"x":0,"a":1}},"pre_tokenizer":{"type":"WhitespaceSplit"}}`))
	f.Add(seedAhead())
	// Issue 37: a Split pattern for Go's regexp with \s, o200k's, a long
	// added token, NFC before Metaspace "first".
	f.Add([]byte(splitTokenizer(`[\sa]+|x{1,3}`)))
	f.Add([]byte(splitTokenizer(`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`)))
	f.Add([]byte(`{"added_tokens":[{"id":2,"content":"aaaaaaaab","lstrip":true,"rstrip":true},{"id":3,"content":"aa"}],` +
		`"normalizer":{"type":"NFC"},"pre_tokenizer":{"type":"Metaspace","replacement":"▁","prepend_scheme":"first","split":true},` +
		`"model":{"type":"BPE","vocab":{"a":0,"b":1,"aaaaaaaab":2,"aa":3,"▁":4},"merges":[]}}`))
	for _, name := range []string{"wordpiece", "unigram", "wordlevel"} {
		data, err := os.ReadFile(filepath.Join("testdata", name+".json"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:len(data)/3])
	}
	texts := []string{"", "a b ab", "A  b\n\nab!? 12 ab", "[M] x[M]y", "\xff a\u0301 中",
		" a" + strings.Repeat("\u0301", 33) + strings.Repeat("a", 40) + "b \U00010041\u0301 Ab'S \U0001e5f4"}
	f.Fuzz(func(t *testing.T, data []byte) {
		tok, err := hf.Load(bytes.NewReader(data), hf.Options{AddSpecialTokens: len(data)%2 == 0})
		if err != nil {
			return
		}
		// The loader reads the vocabulary and merges as valid JSON and
		// checks them when it parses them: what it accepts must be.
		if !json.Valid(data) {
			t.Fatalf("Load accepted invalid JSON %q", data)
		}
		for _, text := range texts {
			checkEnds(t, tok, text)
		}
		// The same file with its members in another order (the model's
		// merges before its vocabulary: read after it, not ahead or where
		// they are) loads and counts alike.
		other := alphabetical(data)
		if other == nil {
			return
		}
		tok2, err := hf.Load(bytes.NewReader(other), hf.Options{AddSpecialTokens: len(data)%2 == 0})
		if err != nil {
			t.Fatalf("loaded, but not with its members in alphabetical order: %v", err)
		}
		for _, text := range texts {
			if a, b := tok.Count(text), tok2.Count(text); a != b {
				t.Fatalf("Count(%q) = %d, %d with the members in alphabetical order", text, a, b)
			}
		}
	})
}

// seedAhead returns a byte-level BPE whose merges are read ahead on a
// second goroutine (the vocabulary before them): more than a chunk of
// them, escapes, one of tokens outside the byte-level alphabet, a pair.
func seedAhead() []byte {
	vocab := map[string]int{"\"": 0, "ŉ": 1, "ŉa": 2, "a\"": 3}
	var merges []string
	merge := func(a, b string) {
		if _, ok := vocab[a+b]; !ok {
			vocab[a+b] = len(vocab)
			merges = append(merges, fmt.Sprintf("%q", a+" "+b))
		}
	}
	for c := 'a'; c <= 'z'; c++ {
		vocab[string(c)] = len(vocab)
	}
	for c := 'a'; c <= 'z'; c++ {
		for d := 'a'; d <= 'z'; d++ {
			merge(string(c), string(d))
		}
	}
	for c := 'a'; c <= 'z'; c++ {
		for d := 'a'; d <= 's'; d++ {
			merge(string(c)+string(d), string(c))
		}
	}
	for k := 5; k < len(merges); k += 300 {
		merges[k] = `"\u00` + fmt.Sprintf("%x", merges[k][1]) + merges[k][2:] // an escape
	}
	merges = append(merges, `"ŉ a"`, `["a", "\""]`)
	v, _ := json.Marshal(vocab)
	return []byte(tiny("null", `{"type":"ByteLevel","add_prefix_space":false}`, "null",
		`{"type":"BPE","vocab":`+string(v)+`,"merges":[`+strings.Join(merges, ",\n")+`]}`))
}

// alphabetical returns the tokenizer.json data with the members of its
// object and of its model in alphabetical order, or nil when it has no
// model object or a member twice (which the order decides).
func alphabetical(data []byte) []byte {
	var file map[string]json.RawMessage
	if json.Unmarshal(data, &file) != nil || twice(data) {
		return nil
	}
	var model map[string]json.RawMessage
	if json.Unmarshal(file["model"], &model) != nil || model == nil || twice(file["model"]) {
		return nil
	}
	file["model"], _ = json.Marshal(model)
	out, _ := json.Marshal(file)
	return out
}

// twice reports whether the object in data has a member twice.
func twice(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	seen := map[string]bool{}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return false
		}
		k, _ := key.(string)
		if seen[k] {
			return true
		}
		seen[k] = true
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return false
		}
	}
	return false
}

// FuzzCount counts arbitrary text with every family's file.
func FuzzCount(f *testing.F) {
	toks := make([]*hf.Tokenizer, len(genFiles))
	for k, g := range genFiles {
		toks[k] = load(f, g.name, hf.Options{AddSpecialTokens: k%2 == 0})
	}
	for _, text := range loadExpected(f).Texts {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, tok := range toks {
			checkEnds(t, tok, text)
		}
	})
}
