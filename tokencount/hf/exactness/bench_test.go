package exactness

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/ragkit/ragkit/tokencount/hf"
)

// benchSetup returns the real tokenizer.json files and the English prose
// that cmd/hfmeasure times, for profiling one part of it with go test.
func benchSetup(b *testing.B) (paths map[string]string, prose string) {
	b.Helper()
	nm := os.Getenv(EnvNodeModules)
	if nm == "" {
		b.Skipf("%s not set", EnvNodeModules)
	}
	dir := b.TempDir()
	paths = map[string]string{}
	for _, v := range Vocabs() {
		p, err := TokenizerPath(nm, dir, v)
		if err != nil {
			b.Fatal(err)
		}
		paths[v.Name] = p
	}
	shared := filepath.Join("..", "..", "..", "..", "shared")
	for _, name := range []string{"sherlock_1661.txt", "room_with_a_view.txt"} {
		t, err := os.ReadFile(filepath.Join(shared, "corpora", name))
		if err != nil {
			b.Fatal(err)
		}
		prose += string(t)
	}
	return paths, prose
}

// BenchmarkLoad loads each real tokenizer.json from memory.
func BenchmarkLoad(b *testing.B) {
	paths, _ := benchSetup(b)
	for _, v := range Vocabs() {
		data, err := os.ReadFile(paths[v.Name])
		if err != nil {
			b.Fatal(err)
		}
		b.Run(v.Name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := hf.Load(bytes.NewReader(data), hf.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCountFirst counts the prose with a tokenizer loaded for each
// iteration (the load is not timed): its word cache starts empty.
func BenchmarkCountFirst(b *testing.B) {
	paths, prose := benchSetup(b)
	for _, v := range Vocabs() {
		b.Run(v.Name, func(b *testing.B) {
			b.SetBytes(int64(len(prose)))
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				tok, err := hf.LoadFile(paths[v.Name], hf.Options{})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				tok.Count(prose)
			}
		})
	}
}

// BenchmarkCountSecond counts the prose again and again with one
// tokenizer: its word cache is warm.
func BenchmarkCountSecond(b *testing.B) {
	paths, prose := benchSetup(b)
	for _, v := range Vocabs() {
		tok, err := hf.LoadFile(paths[v.Name], hf.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(v.Name, func(b *testing.B) {
			tok.Count(prose)
			b.SetBytes(int64(len(prose)))
			b.ReportAllocs()
			for b.Loop() {
				tok.Count(prose)
			}
		})
	}
}
