package exactness

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/tokencount/hf"
)

// refIDs is what ids.js prints for one text.
type refIDs struct {
	Plain []int32 `json:"plain"`
	IDs   []int32 `json:"ids"`
	Pair  []int32 `json:"pair"`
	Types []int32 `json:"types"`
}

// TestIDs compares hf.Encoder's token ids (a text alone, with the
// post-processor's special tokens, and paired with the next text, with
// type ids) with the reference's on every text, for every WordPiece
// vocabulary.
func TestIDs(t *testing.T) {
	nodeModules, shared := setup(t)
	texts := allTexts(t, shared)
	strs := make([]string, len(texts))
	for k, x := range texts {
		strs[k] = x.Text
	}
	dir := t.TempDir()
	textsFile := filepath.Join(dir, "texts.json")
	b, err := json.Marshal(strs)
	if err == nil {
		err = os.WriteFile(textsFile, b, 0o600)
	}
	if err != nil {
		t.Fatal(err)
	}
	_, file, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(file), "ids.js")
	tested := 0
	for _, v := range Vocabs() {
		if !strings.HasPrefix(v.Family, "WordPiece") {
			continue
		}
		tested++
		t.Run(v.Name, func(t *testing.T) {
			path, err := TokenizerPath(nodeModules, dir, v)
			if err != nil {
				t.Fatalf("tokenizer.json: %v", err)
			}
			enc, err := hf.LoadEncoderFile(path, hf.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("node", script, path, textsFile)
			cmd.Env = append(os.Environ(), "NODE_PATH="+nodeModules)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("node ids.js: %v: %s", err, stderr.String())
			}
			var ref []refIDs
			if err := json.Unmarshal(stdout.Bytes(), &ref); err != nil {
				t.Fatal(err)
			}
			if len(ref) != len(texts) {
				t.Fatalf("the reference encoded %d texts, want %d", len(ref), len(texts))
			}
			bad := 0
			for k, x := range texts {
				next := strs[(k+1)%len(strs)]
				single := enc.Encode(x.Text)
				pair := enc.EncodePair(x.Text, next)
				ok := assertEqualIDs(t, x.Name+": ids alone", ref[k].Plain, enc.IDs(nil, x.Text)) &&
					assertEqualIDs(t, x.Name+": ids", ref[k].IDs, single.IDs) &&
					assertEqualIDs(t, x.Name+": pair ids", ref[k].Pair, pair.IDs) &&
					assertEqualIDs(t, x.Name+": pair type ids", ref[k].Types, pair.TypeIDs)
				if !ok {
					if bad++; bad == 5 {
						t.Fatal("stopping after 5 texts")
					}
				}
			}
		})
	}
	if tested == 0 {
		t.Fatal("no WordPiece vocabulary in the suite")
	}
}

// assertEqualIDs reports the first id that differs, not two long lists.
func assertEqualIDs(t *testing.T, what string, want, got []int32) bool {
	t.Helper()
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			t.Errorf("%s: id %d is %d, want %d (of %d, want %d)", what, i, got[i], want[i], len(got), len(want))
			return false
		}
	}
	if len(want) != len(got) {
		t.Errorf("%s: %d ids, want %d", what, len(got), len(want))
		return false
	}
	return true
}
