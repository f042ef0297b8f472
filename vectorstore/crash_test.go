package vectorstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func crashStore(t *testing.T, docs int, text string) *Memory {
	m, err := NewMemory(MemoryConfig{})
	if err != nil {
		t.Fatal(err)
	}
	for d := range docs {
		for i := range 50 {
			err := m.Upsert(context.Background(), Record{
				ID: fmt.Sprintf("%d-%d", d, i), DocID: fmt.Sprint(d), Index: i, Text: text,
				Vector: []float32{float32(d + 1), float32(i), 1},
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	return m
}

// TestSaveFileCrash kills a process in the middle of SaveFile, after the
// new data is written to the temporary file and before the rename, and
// checks that the previous file is intact and loads.
func TestSaveFileCrash(t *testing.T) {
	if path := os.Getenv("VECTORSTORE_CRASH_PATH"); path != "" {
		m := crashStore(t, 9, "new")
		saveFileHook = func(tmp string) {
			fi, err := os.Stat(tmp)
			if err != nil || fi.Size() == 0 {
				os.Exit(4)
			}
			os.Exit(3) // the crash
		}
		m.SaveFile(context.Background(), path)
		os.Exit(0)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "store.rkv")
	if err := crashStore(t, 2, "old").SaveFile(context.Background(), path); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	cmd := exec.Command(os.Args[0], "-test.run=^TestSaveFileCrash$")
	cmd.Env = append(os.Environ(), "VECTORSTORE_CRASH_PATH="+path)
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("child did not crash where planned: %v", err)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Fatal("the crash changed the previous file")
	}
	m, err := LoadFile(context.Background(), path, MemoryConfig{})
	if err != nil || m.Len() != 100 {
		t.Fatalf("previous file after crash: %v, Len %d", err, m.Len())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("expected the store and the crashed temporary file, found %d entries", len(entries))
	}
}

func crc32c(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }
