package hf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// aheadFile returns the byte-level BPE of testdata/bytelevel.json with its
// merges changed by edit, written with its members in the library's order
// (the merges read ahead while the vocabulary is read) when ordered, and
// with the merges before the vocabulary (read after it, in order)
// otherwise. extra, when not empty, is a member put between the
// vocabulary and the merges.
func aheadFile(t *testing.T, edit func(vocab map[string]int32, merges []json.RawMessage) []json.RawMessage, extra string, ordered bool) []byte {
	t.Helper()
	return aheadFileOf(t, "bytelevel", edit, extra, ordered)
}

// aheadFileOf is aheadFile for testdata/name.json, a BPE.
func aheadFileOf(t *testing.T, name string, edit func(vocab map[string]int32, merges []json.RawMessage) []json.RawMessage, extra string, ordered bool) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var file map[string]json.RawMessage
	var model struct {
		Vocab  map[string]int32  `json:"vocab"`
		Merges []json.RawMessage `json:"merges"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(file["model"], &model); err != nil {
		t.Fatal(err)
	}
	merges := edit(model.Vocab, model.Merges)
	vocab, _ := json.MarshalIndent(model.Vocab, "    ", "  ")
	var list bytes.Buffer
	list.WriteString("[\n")
	for k, m := range merges {
		if k > 0 {
			list.WriteString(",\n")
		}
		list.WriteString("      ")
		list.Write(m)
	}
	list.WriteString("\n    ]")
	members := []string{`"vocab": ` + string(vocab), `"merges": ` + list.String()}
	if !ordered {
		members[0], members[1] = members[1], members[0]
	}
	if extra != "" {
		members = slices.Insert(members, 1, extra)
	}
	// The model's other members as they are, before the vocabulary.
	var others map[string]json.RawMessage
	json.Unmarshal(file["model"], &others)
	delete(others, "vocab")
	delete(others, "merges")
	first, _ := json.Marshal(others)
	m := string(first[:len(first)-1]) + ", " + strings.Join(members, ", ") + "}"
	var out bytes.Buffer
	out.WriteString("{")
	for _, key := range []string{"added_tokens", "normalizer", "pre_tokenizer", "post_processor", "decoder"} {
		fmt.Fprintf(&out, "%q: %s, ", key, file[key])
	}
	out.WriteString(`"model": ` + m + "}")
	return out.Bytes()
}

// TestReadAhead loads byte-level BPEs whose merges are read ahead, on a
// second goroutine, in forms that make that reading go to its end, stop
// on a merge it cannot read (the reader in order going on from there), or
// find another array than the merges: each gives the merge table, the
// byte pairs and the counts of the same file read in order.
func TestReadAhead(t *testing.T) {
	same := func(_ map[string]int32, m []json.RawMessage) []json.RawMessage { return m }
	cases := []struct {
		name  string
		edit  func(map[string]int32, []json.RawMessage) []json.RawMessage
		extra string
		ahead int32 // merges read ahead and used
	}{
		{"plain", same, "", 3000},
		{"escapes", func(_ map[string]int32, m []json.RawMessage) []json.RawMessage {
			// Every seventh merge with its first character escaped.
			for k := 0; k < len(m); k += 7 {
				var s string
				json.Unmarshal(m[k], &s)
				r := []rune(s)
				rest, _ := json.Marshal(string(r[1:]))
				m[k] = json.RawMessage(fmt.Sprintf(`"\u%04x%s`, r[0], rest[1:]))
			}
			return m
		}, "", 3000},
		{"outside the alphabet", func(v map[string]int32, m []json.RawMessage) []json.RawMessage {
			// Tokens byte-level input cannot have: left out of the
			// vocabulary, their merge left out but counted in the ranks.
			v["ŉ"], v["ŉŉ"] = int32(len(v)), int32(len(v)+1)
			return slices.Insert(m, 1500, json.RawMessage(`"ŉ ŉ"`))
		}, "", 1500},
		{"pairs", func(_ map[string]int32, m []json.RawMessage) []json.RawMessage {
			// Every merge as a pair (the library reads a list of one
			// form only): the room for the lookups is guessed for pairs.
			for k := range m {
				var s string
				json.Unmarshal(m[k], &s)
				a, b, _ := strings.Cut(s, " ")
				m[k], _ = json.Marshal([]string{a, b})
			}
			return m
		}, "", 3000},
		{"another merges array", same, `"extra": {"merges": ["Ġ Ġ"]}`, 0},
		{"sentencepiece", same, "", 3000}, // not byte-level: tokens as they are
	}
	texts := []string{"The quick brown fox, isn't it?", "  indented\n\tcode(x) { return x*2 }", "naïve café 日本語 🙂"}
	for _, c := range cases {
		ahead := c.edit
		var want, got *Tokenizer
		var info int32
		name := "bytelevel"
		if c.name == "sentencepiece" {
			name = c.name
		}
		for _, ordered := range []bool{false, true} {
			data := aheadFileOf(t, name, ahead, c.extra, ordered)
			if ordered {
				f, err := readFile(data)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				if f.model.read != nil {
					info = f.model.read.aheadN
				}
			}
			tok, err := build(data)
			if err != nil {
				t.Fatalf("%s, ordered %v: %v", c.name, ordered, err)
			}
			if ordered {
				got = tok
			} else {
				want = tok
			}
		}
		if info != c.ahead {
			t.Errorf("%s: %d merges read ahead, want %d", c.name, info, c.ahead)
		}
		sameModel(t, c.name, got.model.(*bpe), want.model.(*bpe))
		for _, text := range texts {
			if g, w := got.AppendTokenEnds(nil, text), want.AppendTokenEnds(nil, text); !slices.Equal(g, w) {
				t.Errorf("%s: ends of %q = %v, want %v", c.name, text, g, w)
			}
		}
	}
}

// sameModel fails unless got and want have the same merges (by pair, rank
// and merged token) and byte pairs.
func sameModel(t *testing.T, name string, got, want *bpe) {
	t.Helper()
	g, w := got.merges, want.merges
	if g.n != w.n || !slices.Equal(g.ids, w.ids) || !slices.Equal(got.bytePairs, want.bytePairs) {
		t.Fatalf("%s: %d merges, %d ranks; want %d, %d; byte pairs equal: %v", name, g.n, len(g.ids), w.n, len(w.ids),
			slices.Equal(got.bytePairs, want.bytePairs))
	}
	for _, s := range w.slots {
		if s == 0 {
			continue
		}
		a := int32(s>>w.aShift) - 1
		b := int32(s >> w.bShift & w.bMask)
		if r, ok := g.rank(a, b); !ok || r != int32(s&w.rMask) {
			t.Fatalf("%s: merge of %d %d: rank %d, %v; want %d", name, a, b, r, ok, s&w.rMask)
		}
	}
}

// TestReadAheadStops loads files whose vocabulary or merges fail while the
// merges are read ahead: each is refused as when read in order, and the
// goroutine reading ahead has ended when Load returns.
func TestReadAheadStops(t *testing.T) {
	base := runtime.NumGoroutine()
	cases := map[string]func(map[string]int32, []json.RawMessage) []json.RawMessage{
		"id out of range": func(v map[string]int32, m []json.RawMessage) []json.RawMessage {
			v["Ġx"] = -1
			return m
		},
		"unknown token": func(_ map[string]int32, m []json.RawMessage) []json.RawMessage {
			return append(m, json.RawMessage(`"Ġ zzzzzz"`))
		},
		"no comma": func(_ map[string]int32, m []json.RawMessage) []json.RawMessage {
			m[2000] = append(json.RawMessage(`"i n" `), m[2000]...)
			return m
		},
	}
	for name, edit := range cases {
		for _, ordered := range []bool{false, true} {
			_, err := build(aheadFile(t, edit, "", ordered))
			if !errors.Is(err, ErrFormat) {
				t.Errorf("%s, ordered %v: err = %v, want ErrFormat", name, ordered, err)
			}
		}
	}
	// Goroutines of the test framework may still be ending.
	for range 100 {
		if runtime.NumGoroutine() <= base {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("%d goroutines after loading, %d before", runtime.NumGoroutine(), base)
}

// TestReadAheadPanic makes the goroutine reading ahead panic after two
// chunks: the merges are read again in order, as if none had been read
// ahead, and Load returns the same tokenizer.
func TestReadAheadPanic(t *testing.T) {
	same := func(_ map[string]int32, m []json.RawMessage) []json.RawMessage { return m }
	want, err := build(aheadFile(t, same, "", false))
	if err != nil {
		t.Fatal(err)
	}
	testHookChunk = func(decoded int) {
		if decoded == 2 {
			panic("a bug")
		}
	}
	defer func() { testHookChunk = nil }()
	data := aheadFile(t, same, "", true)
	f, err := readFile(data)
	if err != nil {
		t.Fatal(err)
	}
	if n := f.model.read.aheadN; n != 0 {
		t.Errorf("%d merges read ahead used, want 0", n)
	}
	got, err := build(data)
	if err != nil {
		t.Fatal(err)
	}
	sameModel(t, "panic", got.model.(*bpe), want.model.(*bpe))
}
