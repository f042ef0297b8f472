package hf_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/tokencount/hf"
)

// bpeWith returns a BPE tokenizer.json over vocab (each token its own id,
// in order) with the given merges and added tokens.
func bpeWith(t testing.TB, vocab []string, merges []string, added []map[string]any, pre string) *hf.Tokenizer {
	t.Helper()
	v := map[string]int{}
	for _, s := range vocab {
		if _, ok := v[s]; !ok {
			v[s] = len(v)
		}
	}
	for _, a := range added {
		if _, ok := v[a["content"].(string)]; !ok {
			v[a["content"].(string)] = len(v)
		}
		a["id"] = v[a["content"].(string)]
	}
	if added == nil {
		added = []map[string]any{}
	}
	vj, _ := json.Marshal(v)
	mj, _ := json.Marshal(merges)
	aj, _ := json.Marshal(added)
	if pre == "" {
		pre = "null"
	}
	js := `{"version":"1.0","added_tokens":` + string(aj) + `,"normalizer":null,"pre_tokenizer":` + pre +
		`,"post_processor":null,"decoder":null,"model":{"type":"BPE","vocab":` + string(vj) + `,"merges":` + string(mj) + `}}`
	tok, err := hf.Load(strings.NewReader(js), hf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func addedTok(content string, lstrip, rstrip bool) map[string]any {
	return map[string]any{"content": content, "single_word": false, "lstrip": lstrip, "rstrip": rstrip,
		"normalized": false, "special": true}
}

// TestAddedStripEmpty: a match whose text an earlier match's rstrip took
// is empty, and the library drops it (issue 37). The counts are the
// library's (tokenizers 0.23.2).
func TestAddedStripEmpty(t *testing.T) {
	tok := bpeWith(t, []string{"a", "b", "ab"}, []string{"a b"}, []map[string]any{addedTok("\n", true, true)}, "")
	for _, c := range []struct {
		text string
		want int
	}{
		{strings.Repeat("\n", 10), 1},
		{"a\n\n\n\nb", 3},
		{"ab\n \n ab", 3},
	} {
		if got := tok.Count(c.text); got != c.want {
			t.Errorf("Count(%q) = %d, want %d", c.text, got, c.want)
		}
		if ends := tok.AppendTokenEnds(nil, c.text); len(ends) != c.want {
			t.Errorf("AppendTokenEnds(%q) = %v, want %d ends", c.text, ends, c.want)
		}
	}
}

// TestAddedLeftmostLongest compares the matches of added tokens with a
// brute-force leftmost-longest search, on texts long enough that the
// trie walks give way to the automaton (issue 37: they made matching the
// square of the text), across its blocks. Every byte outside a match is
// a token of its own (a BPE without merges), so the count is the number
// of matches plus the bytes between them.
func TestAddedLeftmostLongest(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 1))
	for round := range 12 {
		alphabet := "ab"[:1+round%2] + "c"
		var contents []string
		var added []map[string]any
		for range 1 + rng.IntN(6) {
			n := 1 + rng.IntN(3)
			if rng.IntN(2) == 0 {
				n = 20 + rng.IntN(300)
			}
			s := mostlyA(rng, n, alphabet, 8)
			contents = append(contents, s)
			added = append(added, addedTok(s, false, false))
		}
		tok := bpeWith(t, []string{"a", "b", "c"}, nil, added, "")
		size := []int{100, 5000, 150000}[round%3]
		text := mostlyA(rng, size, alphabet, 50)
		if got, want := tok.Count(text), bruteCount(text, contents); got != want {
			t.Errorf("round %d (tokens of %v bytes, text of %d): Count = %d, want %d", round, lens(contents), size, got, want)
		}
	}
}

// mostlyA returns n bytes of "a", one in every of them (on average) a
// byte of alphabet.
func mostlyA(rng *rand.Rand, n int, alphabet string, every int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a'
		if rng.IntN(every) == 0 {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
	}
	return string(b)
}

func lens(ss []string) []int {
	var out []int
	for _, s := range ss {
		out = append(out, len(s))
	}
	return out
}

// bruteCount counts text as matches of the longest token at the leftmost
// position where one begins, and one token for each byte between.
func bruteCount(text string, tokens []string) int {
	n := 0
	for i := 0; i < len(text); {
		best := 0
		for _, tok := range tokens {
			if len(tok) > best && strings.HasPrefix(text[i:], tok) {
				best = len(tok)
			}
		}
		if best == 0 {
			best = 1
		}
		n++
		i += best
	}
	return n
}

// TestEmptyToken: "" is in the vocabulary only when the file puts it
// there (issue 37: a merge naming it and an unk_token "" were taken).
func TestEmptyToken(t *testing.T) {
	bpe := func(model string) string {
		return `{"added_tokens":[],"normalizer":null,"pre_tokenizer":null,"post_processor":null,"decoder":null,"model":` + model + `}`
	}
	for name, js := range map[string]string{
		"merge":     bpe(`{"type":"BPE","vocab":{"a":0,"aa":1,"aaaa":2},"merges":["a a"," aa","aa aa"]}`),
		"pair":      bpe(`{"type":"BPE","vocab":{"a":0,"aa":1},"merges":[["a","a"],["","aa"]]}`),
		"unk_token": bpe(`{"type":"BPE","unk_token":"","vocab":{"a":0,"aa":1},"merges":["a a"]}`),
	} {
		if _, err := hf.Load(strings.NewReader(js), hf.Options{}); !errors.Is(err, hf.ErrFormat) {
			t.Errorf("%s: err = %v, want ErrFormat", name, err)
		}
	}
	// With "" in the vocabulary, the library reads both.
	for _, js := range []string{
		bpe(`{"type":"BPE","vocab":{"a":0,"aa":1,"aaaa":2,"":3},"merges":["a a"," aa","aa aa"]}`),
		bpe(`{"type":"BPE","unk_token":"","vocab":{"a":0,"aa":1,"":2},"merges":["a a"]}`),
	} {
		tok, err := hf.Load(strings.NewReader(js), hf.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := tok.Count("aaaa"); got < 1 || got > 2 {
			t.Errorf("Count(aaaa) = %d", got)
		}
	}
}

// TestDuplicateMerges: the library keeps the last rank of a merge listed
// twice (issue 37: the first was kept). With "a b" last, "b c" comes
// first and "ab c" never applies: "abc" is a, bc.
func TestDuplicateMerges(t *testing.T) {
	vocab := []string{"a", "b", "c", "ab", "bc", "abc"}
	merges := []string{"a b", "b c", "ab c", "a b"}
	for _, pre := range []string{"", `{"type":"ByteLevel","add_prefix_space":false,"trim_offsets":true,"use_regex":true}`} {
		tok := bpeWith(t, vocab, merges, nil, pre)
		if got := tok.Count("abc"); got != 2 {
			t.Errorf("pre-tokenizer %s: Count(abc) = %d, want 2 (the library's)", pre, got)
		}
	}
	// Once a is merged with b, ab c comes first: the same pairs with "a b"
	// listed twice before "b c" give one token.
	tok := bpeWith(t, vocab, []string{"a b", "a b", "ab c", "b c"}, nil, "")
	if got := tok.Count("abc"); got != 1 {
		t.Errorf("Count(abc) = %d, want 1", got)
	}
}

// TestMixedMerges: the library reads merges as all "a b" strings or all
// pairs and refuses a list that mixes them (issue 37), also past what the
// goroutine reading ahead decodes.
func TestMixedMerges(t *testing.T) {
	var vocab strings.Builder
	vocab.WriteString(`"a":0,"b":1,"ab":2`)
	var strs, pairs []string
	for i := range 5000 {
		fmt.Fprintf(&vocab, `,"x%d":%d,"y%d":%d,"x%dy%d":%d`, i, 3+3*i, i, 4+3*i, i, i, 5+3*i)
		strs = append(strs, fmt.Sprintf(`"x%d y%d"`, i, i))
		pairs = append(pairs, fmt.Sprintf(`["x%d","y%d"]`, i, i))
	}
	for name, merges := range map[string]string{
		"string then pair":      `["a b",["x1","y1"]]`,
		"pair then string":      `[["a","b"],"x1 y1"]`,
		"late pair":             "[" + strings.Join(strs, ",") + `,["a","b"]]`,
		"late string":           "[" + strings.Join(pairs, ",") + `,"a b"]`,
		"late pair, byte-level": "[" + strings.Join(strs, ",") + `,["a","b"]]`,
	} {
		pre := "null"
		if strings.Contains(name, "byte-level") {
			pre = `{"type":"ByteLevel","add_prefix_space":false,"trim_offsets":true,"use_regex":true}`
		}
		js := `{"added_tokens":[],"normalizer":null,"pre_tokenizer":` + pre + `,"post_processor":null,"decoder":null,` +
			`"model":{"type":"BPE","vocab":{` + vocab.String() + `},"merges":` + merges + `}}`
		_, err := hf.Load(strings.NewReader(js), hf.Options{})
		if !errors.Is(err, hf.ErrFormat) || !strings.Contains(err.Error(), "mixing") {
			t.Errorf("%s: err = %v, want ErrFormat naming the mix", name, err)
		}
	}
}
