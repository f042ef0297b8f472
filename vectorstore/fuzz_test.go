package vectorstore_test

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"math/rand/v2"

	"github.com/ragkit/ragkit/vectorstore"
)

// FuzzLoad feeds Load arbitrary bytes. It must never panic; whatever it
// accepts must save and load again to the same bytes.
func FuzzLoad(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 1))
	recs := makeRecords(r, 2, 3, 5)
	recs[0].Metadata = map[string]string{"k": "v", "x": "y"}
	for _, compact := range []bool{false, true} {
		m, _ := vectorstore.NewMemory(vectorstore.MemoryConfig{Compact: compact})
		m.Upsert(bg, recs...)
		var buf bytes.Buffer
		m.Save(bg, &buf)
		f.Add(buf.Bytes())
	}
	empty, _ := vectorstore.NewMemory(vectorstore.MemoryConfig{})
	var buf bytes.Buffer
	empty.Save(bg, &buf)
	f.Add(buf.Bytes())
	f.Add([]byte("RAGKITVS"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := vectorstore.Load(bg, bytes.NewReader(data), vectorstore.MemoryConfig{})
		if err != nil {
			if m != nil {
				t.Fatal("store returned with an error")
			}
			if !errors.Is(err, vectorstore.ErrCorrupt) && !errors.Is(err, vectorstore.ErrVersion) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		var out bytes.Buffer
		if err := m.Save(bg, &out); err != nil {
			t.Fatal(err)
		}
		again, err := vectorstore.Load(bg, bytes.NewReader(out.Bytes()), vectorstore.MemoryConfig{})
		if err != nil {
			t.Fatalf("reloading a saved store: %v", err)
		}
		var out2 bytes.Buffer
		again.Save(bg, &out2)
		if !bytes.Equal(out.Bytes(), out2.Bytes()) {
			t.Fatal("save, load, save is not stable")
		}
	})
}

// FuzzLexical checks the embedder on arbitrary text: a unit vector for any
// valid text with something besides white space, the documented errors
// otherwise, and the same vector every time.
func FuzzLexical(f *testing.F) {
	for _, s := range []string{"", " ", "Hello, world!", "don't stop", "* * *", "日本語のテキスト", "a\xffb", "’’'", "x'"} {
		f.Add(s)
	}
	l, _ := vectorstore.NewLexical(vectorstore.LexicalConfig{Dimension: 64})
	f.Fuzz(func(t *testing.T, text string) {
		v, err := l.Embed(bg, []string{text})
		switch {
		case !utf8.ValidString(text):
			if !errors.Is(err, vectorstore.ErrInvalidUTF8) {
				t.Fatalf("invalid UTF-8: %v", err)
			}
			return
		case strings.TrimFunc(text, unicode.IsSpace) == "":
			if !errors.Is(err, vectorstore.ErrEmptyText) {
				t.Fatalf("blank text: %v", err)
			}
			return
		case err != nil:
			t.Fatal(err)
		}
		var ss float64
		for _, x := range v[0] {
			ss += float64(x) * float64(x)
		}
		if math.Abs(ss-1) > 1e-5 {
			t.Fatalf("squared norm %v", ss)
		}
		w, _ := l.Embed(bg, []string{text})
		if !slicesEqual(v[0], w[0]) {
			t.Fatal("not deterministic")
		}
	})
}

func slicesEqual(a, b []float32) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}
