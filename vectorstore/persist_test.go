package vectorstore_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ragkit/ragkit/vectorstore"
)

func saved(t *testing.T, m *vectorstore.Memory) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := m.Save(bg, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// sameContents checks that two stores hold the same records.
func sameContents(t *testing.T, a, b *vectorstore.Memory, docs []string) {
	t.Helper()
	if a.Len() != b.Len() || a.Dimension() != b.Dimension() || a.Compact() != b.Compact() {
		t.Fatalf("Len %d/%d, Dimension %d/%d, Compact %v/%v", a.Len(), b.Len(), a.Dimension(), b.Dimension(), a.Compact(), b.Compact())
	}
	for _, d := range docs {
		ra, errA := a.Range(bg, d, 0, 1<<30)
		rb, errB := b.Range(bg, d, 0, 1<<30)
		if (errA == nil) != (errB == nil) || len(ra) != len(rb) {
			t.Fatalf("document %s: %d records (%v) vs %d (%v)", d, len(ra), errA, len(rb), errB)
		}
		for i := range ra {
			x, y := ra[i], rb[i]
			if x.ID != y.ID || x.DocID != y.DocID || x.Index != y.Index || x.Text != y.Text ||
				!slices.Equal(x.Vector, y.Vector) || fmt.Sprint(x.Metadata) != fmt.Sprint(y.Metadata) {
				t.Fatalf("record %d of %s differs:\n%+v\n%+v", i, d, x, y)
			}
		}
	}
}

func docNames(n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf("d%d", i))
	}
	return out
}

func TestSaveLoadRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 10))
	recs := makeRecords(r, 6, 25, 19)
	recs[3].Metadata = map[string]string{"a": "1", "b": "", "ü": "x\ny"}
	recs[4].Metadata = nil
	recs[5].Text = ""
	for _, compact := range []bool{false, true} {
		t.Run(fmt.Sprintf("compact=%v", compact), func(t *testing.T) {
			m := newMemory(t, vectorstore.MemoryConfig{Compact: compact}, recs...)
			data := saved(t, m)
			got, err := vectorstore.Load(bg, bytes.NewReader(data), vectorstore.MemoryConfig{})
			if err != nil {
				t.Fatal(err)
			}
			sameContents(t, m, got, docNames(6))
			if again := saved(t, got); !bytes.Equal(again, data) {
				t.Error("saving a loaded store gives different bytes")
			}
			q := randVec(r, 19)
			h1, _ := m.Query(bg, q, 10, vectorstore.Filter{})
			h2, _ := got.Query(bg, q, 10, vectorstore.Filter{})
			if !slices.Equal(hitIDs(h1), hitIDs(h2)) {
				t.Error("loaded store answers differently")
			}
			// The loaded store takes writes.
			if err := got.Upsert(bg, vectorstore.Record{ID: "new", DocID: "d0", Index: 99, Vector: randVec(r, 19)}); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Run("float file into compact store", func(t *testing.T) {
		m := newMemory(t, vectorstore.MemoryConfig{}, recs...)
		c, err := vectorstore.Load(bg, bytes.NewReader(saved(t, m)), vectorstore.MemoryConfig{Compact: true})
		if err != nil {
			t.Fatal(err)
		}
		direct := newMemory(t, vectorstore.MemoryConfig{Compact: true}, recs...)
		sameContents(t, direct, c, docNames(6))
	})
	t.Run("empty store", func(t *testing.T) {
		m := newMemory(t, vectorstore.MemoryConfig{})
		got, err := vectorstore.Load(bg, bytes.NewReader(saved(t, m)), vectorstore.MemoryConfig{Dimension: 8})
		if err != nil || got.Len() != 0 || got.Dimension() != 8 {
			t.Fatalf("Load = %v, Len %d, Dimension %d", err, got.Len(), got.Dimension())
		}
	})
}

func TestSaveIsDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	recs := makeRecords(r, 5, 10, 4)
	a := newMemory(t, vectorstore.MemoryConfig{}, recs...)
	shuffled := slices.Clone(recs)
	r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	b := newMemory(t, vectorstore.MemoryConfig{Workers: 1})
	for _, rec := range shuffled {
		if err := b.Upsert(bg, rec); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(saved(t, a), saved(t, b)) {
		t.Error("equal stores built in different orders save different bytes")
	}
}

func TestLoadReadsNoFurther(t *testing.T) {
	m := newMemory(t, vectorstore.MemoryConfig{}, makeRecords(rand.New(rand.NewPCG(1, 2)), 2, 3, 5)...)
	data := saved(t, m)
	rd := bytes.NewReader(append(slices.Clone(data), "after"...))
	// A reader without buffering of its own, so that Load's buffer is the
	// only one: Load must stop at the end of the store.
	if _, err := vectorstore.Load(bg, io.LimitReader(rd, int64(len(data))), vectorstore.MemoryConfig{}); err != nil {
		t.Fatal(err)
	}
	if _, err := vectorstore.Load(bg, bytes.NewReader(append(slices.Clone(data), data...)), vectorstore.MemoryConfig{}); err != nil {
		t.Errorf("trailing data: %v", err)
	}
}

func TestLoadRefusesDamage(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	recs := makeRecords(r, 3, 4, 6)
	recs[0].Metadata = map[string]string{"k": "v"}
	for _, compact := range []bool{false, true} {
		data := saved(t, newMemory(t, vectorstore.MemoryConfig{Compact: compact}, recs...))
		t.Run(fmt.Sprintf("compact=%v/truncated", compact), func(t *testing.T) {
			for n := range len(data) {
				m, err := vectorstore.Load(bg, bytes.NewReader(data[:n]), vectorstore.MemoryConfig{})
				if !errors.Is(err, vectorstore.ErrCorrupt) || m != nil {
					t.Fatalf("cut at %d of %d: store %v, err %v", n, len(data), m, err)
				}
			}
		})
		t.Run(fmt.Sprintf("compact=%v/flipped", compact), func(t *testing.T) {
			for i := range data {
				for _, bit := range []byte{1, 0x80} {
					bad := slices.Clone(data)
					bad[i] ^= bit
					m, err := vectorstore.Load(bg, bytes.NewReader(bad), vectorstore.MemoryConfig{})
					if err == nil || m != nil {
						t.Fatalf("byte %d ^ %#x: loaded", i, bit)
					}
					if !errors.Is(err, vectorstore.ErrCorrupt) && !errors.Is(err, vectorstore.ErrVersion) {
						t.Fatalf("byte %d: err %v", i, err)
					}
				}
			}
		})
	}
	t.Run("version", func(t *testing.T) {
		data := saved(t, newMemory(t, vectorstore.MemoryConfig{}, recs...))
		binary.LittleEndian.PutUint32(data[8:], 2)
		binary.LittleEndian.PutUint32(data[32:], vectorstore.Crc32c(data[:32]))
		_, err := vectorstore.Load(bg, bytes.NewReader(data), vectorstore.MemoryConfig{})
		if !errors.Is(err, vectorstore.ErrVersion) {
			t.Errorf("err = %v, want ErrVersion", err)
		}
	})
	t.Run("not a store", func(t *testing.T) {
		_, err := vectorstore.Load(bg, bytes.NewReader([]byte("hello, this is not a vector store at all")), vectorstore.MemoryConfig{})
		if !errors.Is(err, vectorstore.ErrCorrupt) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("dimension", func(t *testing.T) {
		data := saved(t, newMemory(t, vectorstore.MemoryConfig{}, recs...))
		_, err := vectorstore.Load(bg, bytes.NewReader(data), vectorstore.MemoryConfig{Dimension: 7})
		if !errors.Is(err, vectorstore.ErrDimensionMismatch) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("read error", func(t *testing.T) {
		data := saved(t, newMemory(t, vectorstore.MemoryConfig{}, recs...))
		boom := errors.New("disk on fire")
		_, err := vectorstore.Load(bg, io.MultiReader(bytes.NewReader(data[:50]), errReader{boom}), vectorstore.MemoryConfig{})
		if !errors.Is(err, boom) {
			t.Errorf("err = %v", err)
		}
	})
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func TestSaveFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "store.rkv")
	r := rand.New(rand.NewPCG(13, 13))
	old := newMemory(t, vectorstore.MemoryConfig{}, makeRecords(r, 2, 5, 8)...)
	if err := old.SaveFile(bg, path); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("new file: %v, mode %v", err, fi.Mode())
	}
	loaded, err := vectorstore.LoadFile(bg, path, vectorstore.MemoryConfig{})
	if err != nil {
		t.Fatal(err)
	}
	sameContents(t, old, loaded, docNames(2))

	// A save that fails midway leaves the old file as it was, and no
	// temporary file behind.
	before, _ := os.ReadFile(path)
	bigger := newMemory(t, vectorstore.MemoryConfig{}, makeRecords(r, 4, 600, 8)...)
	if err := bigger.SaveFile(newLateCancel(), path); err == nil {
		t.Fatal("cancelled SaveFile succeeded")
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Error("a failed save changed the file")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %d entries after a failed save", len(entries))
	}
	// A successful save replaces it and keeps its mode.
	os.Chmod(path, 0o640)
	if err := bigger.SaveFile(bg, path); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", fi.Mode().Perm())
	}
	loaded, err = vectorstore.LoadFile(bg, path, vectorstore.MemoryConfig{})
	if err != nil || loaded.Len() != bigger.Len() {
		t.Fatalf("LoadFile = %v, Len %d", err, loaded.Len())
	}
	if _, err := vectorstore.LoadFile(bg, filepath.Join(dir, "missing"), vectorstore.MemoryConfig{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if err := bigger.SaveFile(bg, filepath.Join(dir, "no", "such", "dir", "x")); err == nil {
		t.Error("SaveFile into a missing directory succeeded")
	}
}
