package hf_test

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/hf"
	"github.com/ragkit/ragkit/tokencount/hf/internal/ends"
)

func loadExpected(t testing.TB) expected {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exp expected
	if err := json.Unmarshal(b, &exp); err != nil {
		t.Fatal(err)
	}
	return exp
}

func load(t testing.TB, name string, opts hf.Options) *hf.Tokenizer {
	t.Helper()
	tok, err := hf.LoadFile(filepath.Join("testdata", name+".json"), opts)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestFamilies compares counts, counts with the post-processor's tokens
// and token ends with the reference library's, recorded in
// testdata/expected.json, for a file of each family.
func TestFamilies(t *testing.T) {
	exp := loadExpected(t)
	for _, g := range genFiles {
		t.Run(g.name, func(t *testing.T) {
			plain := load(t, g.name, hf.Options{})
			special := load(t, g.name, hf.Options{AddSpecialTokens: true})
			want := exp.Files[g.name]
			if len(want) != len(exp.Texts) {
				t.Fatalf("expected.json has %d results for %d texts", len(want), len(exp.Texts))
			}
			for k, text := range exp.Texts {
				if got := plain.Count(text); got != want[k].N {
					t.Errorf("Count(%q) = %d, reference %d", text, got, want[k].N)
				}
				if got := special.Count(text); got != want[k].S {
					t.Errorf("Count(%q) with special tokens = %d, reference %d", text, got, want[k].S)
				}
				te := plain.AppendTokenEnds(nil, text)
				if i, ok := ends.FirstDiff(ends.Chars(text, te), want[k].Ends, utf8.RuneCountInString(text)); !ok {
					t.Errorf("AppendTokenEnds(%q): token %d ends at %v, reference %v", text, i, ends.Chars(text, te), want[k].Ends)
				}
				checkEnds(t, special, text)
			}
		})
	}
}

// checkEnds checks the Offsetter contract on text.
func checkEnds(t *testing.T, tok *hf.Tokenizer, text string) {
	t.Helper()
	prefix := []int{-7}
	te := tok.AppendTokenEnds(prefix, text)
	if te[0] != -7 {
		t.Fatalf("AppendTokenEnds overwrote dst")
	}
	te = te[1:]
	if n := tok.Count(text); len(te) != n {
		t.Fatalf("AppendTokenEnds(%q) gave %d ends, Count %d", text, len(te), n)
	}
	for k, e := range te {
		if e < 0 || e > len(text) || k > 0 && e < te[k-1] {
			t.Fatalf("AppendTokenEnds(%q) = %v: not non-decreasing within the text", text, te)
		}
	}
	if len(te) > 0 && te[len(te)-1] != len(text) {
		t.Fatalf("AppendTokenEnds(%q) = %v: last end is not len(text)", text, te)
	}
}

// TestInvalidUTF8 checks that each invalid byte counts as U+FFFD.
func TestInvalidUTF8(t *testing.T) {
	for _, g := range genFiles {
		tok := load(t, g.name, hf.Options{})
		for _, text := range []string{"a\xffb", "\xe2\x82 x", "\xc3", "ok \xf0\x9f\x98 broken emoji \xff\xfe"} {
			var fixed strings.Builder
			for i := 0; i < len(text); {
				r, w := utf8.DecodeRuneInString(text[i:])
				fixed.WriteRune(r)
				i += w
			}
			if got, want := tok.Count(text), tok.Count(fixed.String()); got != want {
				t.Errorf("%s: Count(%q) = %d, Count of it with U+FFFD = %d", g.name, text, got, want)
			}
			checkEnds(t, tok, text)
		}
	}
}

func TestImplementsOffsetter(t *testing.T) {
	var tok tokencount.Tokenizer = load(t, "bytelevel", hf.Options{})
	if _, ok := tok.(tokencount.Offsetter); !ok {
		t.Fatal("*hf.Tokenizer is not a tokencount.Offsetter")
	}
	text := "Hello, world! Counting with a tokenizer.json."
	if got := len(tokencount.AppendTokenEnds(tok, nil, text)); got != tok.Count(text) {
		t.Fatalf("tokencount.AppendTokenEnds gave %d ends, Count %d", got, tok.Count(text))
	}
}

// TestConcurrent counts from several goroutines at once (run with -race).
func TestConcurrent(t *testing.T) {
	exp := loadExpected(t)
	for _, g := range genFiles {
		tok := load(t, g.name, hf.Options{})
		countConcurrently(t, g.name, tok, 4, exp.Texts, func(k int) int { return exp.Files[g.name][k].N }, nil)
	}
}

// countConcurrently counts texts from workers goroutines, each from
// another place in the list, and checks the counts (and ends, unless
// wantEnds is nil).
func countConcurrently(t *testing.T, name string, tok *hf.Tokenizer, workers int, texts []string, wantN func(k int) int, wantEnds func(k int) []int) {
	t.Helper()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range texts {
				k = (k + w*len(texts)/workers) % len(texts)
				if got, want := tok.Count(texts[k]), wantN(k); got != want {
					t.Errorf("%s: Count(%q) = %d, want %d", name, texts[k], got, want)
					return
				}
				ends := tok.AppendTokenEnds(nil, texts[k])
				if wantEnds != nil && !slices.Equal(ends, wantEnds(k)) {
					t.Errorf("%s: AppendTokenEnds(%q) = %v, want %v", name, texts[k], ends, wantEnds(k))
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestLongRun counts a run of one character far longer than any cached
// piece, on every family.
func TestLongRun(t *testing.T) {
	for _, g := range genFiles {
		tok := load(t, g.name, hf.Options{})
		for _, r := range []string{"a", " ", "ab"} {
			short, long := strings.Repeat(r, 1000), strings.Repeat(r, 2000)
			if tok.Count(long) < tok.Count(short) {
				t.Errorf("%s: %q x2000 counts fewer tokens than x1000", g.name, r)
			}
			checkEnds(t, tok, long)
		}
	}
}

// TestConcurrentEvictions counts more distinct short words than the
// caches hold, from several goroutines, so that cache slots are
// overwritten while others read them: every count must be the one
// another tokenizer gives for the word met for the first time (so not
// from its cache).
func TestConcurrentEvictions(t *testing.T) {
	n := 100_000 // more than the caches hold
	if testing.Short() || raceDetector {
		n = 20_000 // still more than some sets of 4 slots hold
	}
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{}
	var words []string
	for len(words) < n {
		b := make([]byte, 1+rng.IntN(16))
		for i := range b {
			b[i] = "abcdefghij kl"[rng.IntN(13)]
		}
		if w := string(b); !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	for _, g := range genFiles {
		ref := load(t, g.name, hf.Options{})
		want := make([][]int, n)
		for k, w := range words {
			want[k] = ref.AppendTokenEnds(nil, w)
		}
		tok := load(t, g.name, hf.Options{})
		countConcurrently(t, g.name, tok, 3, words, func(k int) int { return len(want[k]) }, func(k int) []int { return want[k] })
	}
}
