package tokencount_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ragkit/ragkit/tokencount"
)

// TestPrintTokenizer: printing a tokenizer, with any verb, gives its name,
// not its vocabulary. Before: fmt.Print of one printed 458,849 bytes.
func TestPrintTokenizer(t *testing.T) {
	for _, name := range tokencount.Encodings() {
		tok, err := tokencount.Encoding(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%d", "%x", "%q"} {
			got := fmt.Sprintf(verb, tok)
			if want := "tokencount.BPE(" + name + ")"; got != want {
				t.Errorf("%s of %s = %.80q (%d bytes), want %q", verb, name, got, len(got), want)
			}
		}
		if got := fmt.Sprint(tok); len(got) > 64 {
			t.Errorf("fmt.Sprint of %s: %d bytes", name, len(got))
		}
	}
}

// TestForModelPointsToHF: an unknown model's error says it is unknown and
// where to count for it.
func TestForModelPointsToHF(t *testing.T) {
	_, err := tokencount.ForModel("llama3.2")
	if !errors.Is(err, tokencount.ErrUnknownModel) {
		t.Fatalf("err = %v; want ErrUnknownModel", err)
	}
	for _, s := range []string{`"llama3.2"`, "github.com/ragkit/ragkit/tokencount/hf", "tokenizer.json"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("err = %v; want it to name %s", err, s)
		}
	}
}
