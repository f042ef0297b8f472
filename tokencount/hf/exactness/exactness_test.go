package exactness

import (
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/ragkit/ragkit/tokencount/hf"
	"github.com/ragkit/ragkit/tokencount/hf/internal/ends"
)

// setup returns the node_modules directory and the shared data directory,
// skipping the test when they are absent outside CI and failing under CI.
func setup(t *testing.T) (nodeModules, shared string) {
	t.Helper()
	ci := os.Getenv("CI") == "true"
	nodeModules = os.Getenv(EnvNodeModules)
	if nodeModules == "" {
		if ci {
			t.Fatalf("CI is set but %s is not: .ci/run installs the reference and sets it", EnvNodeModules)
		}
		t.Skipf("%s not set: the exactness suite needs the reference from npm (see .ci/run)", EnvNodeModules)
	}
	shared = os.Getenv("RAGKIT_SHARED")
	if shared == "" {
		shared = filepath.Join("..", "..", "..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(shared, "corpora")); err != nil {
		t.Fatalf("shared data: %v", err)
	}
	return nodeModules, shared
}

func allTexts(t *testing.T, shared string) []Text {
	t.Helper()
	corpora, err := Corpora(shared)
	if err != nil {
		t.Fatal(err)
	}
	sets, err := SegmentSets(shared)
	if err != nil {
		t.Fatal(err)
	}
	return append(append(corpora, sets...), Synthetic()...)
}

// TestExactness compares counts, counts with special tokens and token
// ends with the reference on every text, for every vocabulary.
func TestExactness(t *testing.T) {
	nodeModules, shared := setup(t)
	texts := allTexts(t, shared)
	strs := make([]string, len(texts))
	for k, x := range texts {
		strs[k] = x.Text
	}
	dir := t.TempDir()
	for _, v := range Vocabs() {
		t.Run(v.Name, func(t *testing.T) {
			path, err := TokenizerPath(nodeModules, dir, v)
			if err != nil {
				t.Fatalf("tokenizer.json: %v", err)
			}
			plain, err := hf.LoadFile(path, hf.Options{})
			if err != nil {
				t.Fatal(err)
			}
			special, err := hf.LoadFile(path, hf.Options{AddSpecialTokens: true})
			if err != nil {
				t.Fatal(err)
			}
			ref, err := Reference(nodeModules, path, strs)
			if err != nil {
				t.Fatal(err)
			}
			bad := 0
			for k, x := range texts {
				got := plain.Count(x.Text)
				te := plain.AppendTokenEnds(nil, x.Text)
				gotS := special.Count(x.Text)
				switch {
				case got != ref[k].N:
					t.Errorf("%s: Count %d, reference %d", x.Name, got, ref[k].N)
				case gotS != ref[k].S:
					t.Errorf("%s: Count with special tokens %d, reference %d", x.Name, gotS, ref[k].S)
				case len(te) != got:
					t.Errorf("%s: %d ends for %d tokens", x.Name, len(te), got)
				default:
					ce := ends.Chars(x.Text, te)
					if i, ok := ends.FirstDiff(ce, ref[k].Ends, utf8.RuneCountInString(x.Text)); !ok {
						lo, hi := max(0, i-3), min(len(ce), i+3)
						t.Errorf("%s: token %d ends differently: %v, reference %v", x.Name, i, ce[lo:hi], ref[k].Ends[lo:hi])
					} else {
						continue
					}
				}
				bad++
				if bad > 10 {
					t.Fatal("more than 10 mismatches")
				}
			}
			t.Logf("%s: %d texts", v.Name, len(texts))
		})
	}
}
