package hf_test

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ragkit/ragkit/tokencount/hf"
)

func loadEncoder(t testing.TB, name string) *hf.Encoder {
	t.Helper()
	enc, err := hf.LoadEncoderFile(filepath.Join("testdata", name+".json"), hf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

// TestEncoderIDs checks ids against the reference's for testdata's
// WordPiece file (a bert-base-uncased subset). The expected ids were
// printed by the reference: with .ci/run's npm packages in NODE_PATH,
//
//	node exactness/ids.js testdata/wordpiece.json TEXTS.json
//
// for the two texts below.
func TestEncoderIDs(t *testing.T) {
	enc := loadEncoder(t, "wordpiece")
	a := "Hello, world! The [SEP] tokenizer's ids: naïve café 東京 x"
	b := "a second text, paired"
	plainA := []int32{2002, 2140, 2140, 2080, 1010, 2088, 999, 1996, 102, 2000, 2243, 2368, 2072, 2480, 2121, 1005, 1055, 1045, 2094, 2015, 1024, 1050, 2050, 2072, 2615, 2063, 1039, 2050, 2546, 2063, 1879, 1755, 1060}
	plainB := []int32{1037, 2117, 1056, 2063, 2595, 2102, 1010, 1052, 2050, 2072, 2890, 2094}
	tests := []struct {
		name      string
		got, want []int32
	}{
		{"alone", enc.IDs(nil, a), plainA},
		{"appended", enc.IDs([]int32{7}, b), append([]int32{7}, plainB...)},
		{"single", enc.Encode(b).IDs, slices.Concat([]int32{101}, plainB, []int32{102})},
		{"single types", enc.Encode(b).TypeIDs, make([]int32, len(plainB)+2)},
		{"pair", enc.EncodePair(a, b).IDs, slices.Concat([]int32{101}, plainA, []int32{102}, plainB, []int32{102})},
		{"pair types", enc.EncodePair(a, b).TypeIDs, slices.Concat(make([]int32, len(plainA)+2), slices.Repeat([]int32{1}, len(plainB)+1))},
		{"wrap", enc.Wrap(plainB[:2]).IDs, []int32{101, 1037, 2117, 102}},
		{"wrap pair empty", enc.WrapPair(nil, nil).IDs, []int32{101, 102, 102}},
		{"empty", enc.IDs(nil, ""), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !slices.Equal(tt.got, tt.want) {
				t.Errorf("got %v, want %v", tt.got, tt.want)
			}
		})
	}
	if n := enc.Special(false); n != 2 {
		t.Errorf("Special(false) = %d, want 2", n)
	}
	if n := enc.Special(true); n != 3 {
		t.Errorf("Special(true) = %d, want 3", n)
	}
}

// TestEncoderRefuses checks that a file whose ids are not given here is
// refused by name rather than encoded approximately.
func TestEncoderRefuses(t *testing.T) {
	for _, name := range []string{"bytelevel", "unigram", "wordlevel"} {
		t.Run(name, func(t *testing.T) {
			_, err := hf.LoadEncoderFile(filepath.Join("testdata", name+".json"), hf.Options{})
			if !errors.Is(err, hf.ErrUnsupported) {
				t.Fatalf("err = %v, want ErrUnsupported", err)
			}
		})
	}
	if _, err := hf.LoadEncoderFile(filepath.Join("testdata", "wordpiece.json"), hf.Options{MaxFileSize: -1}); !errors.Is(err, hf.ErrConfig) {
		t.Fatalf("err = %v, want ErrConfig", err)
	}
}

// FuzzEncoderIDs checks that there is one id per token Count counts, each
// in the vocabulary, and that Encode adds the special tokens.
func FuzzEncoderIDs(f *testing.F) {
	enc := loadEncoder(f, "wordpiece")
	for _, s := range []string{"", "Hello, world!", "[CLS][SEP] x\xff\xfey", "東京 naïve", "a\u0301\u200b b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ids := enc.IDs(nil, text)
		if n := enc.Tokenizer().Count(text); len(ids) != n {
			t.Fatalf("%d ids, Count %d", len(ids), n)
		}
		for _, id := range ids {
			if id < 0 || id >= 30522 {
				t.Fatalf("id %d out of the vocabulary", id)
			}
		}
		e := enc.Encode(text)
		if len(e.IDs) != len(ids)+2 || len(e.TypeIDs) != len(e.IDs) {
			t.Fatalf("Encode: %d ids, %d type ids, want %d", len(e.IDs), len(e.TypeIDs), len(ids)+2)
		}
	})
}
