package memory

import (
	"context"
	"fmt"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/stretchr/testify/require"
)

func crashStore(t *testing.T, docs int, text string) *Store {
	m, err := New(Config{})
	require.NoError(t, err)
	for d := range docs {
		for i := range 50 {
			require.NoError(t, m.Upsert(context.Background(), vectorstore.Record{
				ID: fmt.Sprintf("%d-%d", d, i), DocID: fmt.Sprint(d), Index: i, Text: text,
				Vector: []float32{float32(d + 1), float32(i), 1},
			}))
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
	require.NoError(t, crashStore(t, 2, "old").SaveFile(context.Background(), path))
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	cmd := exec.Command(os.Args[0], "-test.run=^TestSaveFileCrash$")
	cmd.Env = append(os.Environ(), "VECTORSTORE_CRASH_PATH="+path)
	var exit *exec.ExitError
	require.ErrorAs(t, cmd.Run(), &exit, "child did not crash where planned")
	require.Equal(t, 3, exit.ExitCode(), "child did not crash where planned")
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, before, after, "the crash changed the previous file")
	m, err := LoadFile(context.Background(), path, Config{})
	require.NoError(t, err, "previous file after crash")
	require.Equal(t, 100, m.Len())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 2, "expected the store and the crashed temporary file")

	// The next SaveFile of the path removes the orphan.
	require.NoError(t, m.SaveFile(context.Background(), path))
	entries, err = os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "the orphaned temporary file outlived the next SaveFile")
	require.Equal(t, "store.rkv", entries[0].Name())
}

// TestSaveFileOrphansSafe: a SaveFile does not remove the temporary file
// of another SaveFile of the same path that is still running, nor files
// that only look like its temporary files.
func TestSaveFileOrphansSafe(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "store.rkv")
	others := []string{".store.rkv.tmp-", ".store.rkv.tmp-12x", "store.rkv.tmp-12", ".other.tmp-12"}
	for _, name := range others {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), nil, 0o600))
	}
	m := crashStore(t, 1, "first")
	inner := crashStore(t, 1, "second")
	nested := false
	saveFileHook = func(string) {
		if nested {
			return
		}
		nested = true
		require.NoError(t, inner.SaveFile(context.Background(), path), "SaveFile during another")
	}
	defer func() { saveFileHook = nil }()
	require.NoError(t, m.SaveFile(context.Background(), path), "the outer SaveFile lost its temporary file")
	require.True(t, nested)
	got, err := LoadFile(context.Background(), path, Config{})
	require.NoError(t, err)
	r, err := got.Get(context.Background(), "0-0")
	require.NoError(t, err)
	require.Equal(t, "first", r.Text, "the outer SaveFile renamed last")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.ElementsMatch(t, append(others, "store.rkv"), names)
}

func crc32c(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }
