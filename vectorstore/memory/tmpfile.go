package memory

import (
	"os"
	"path/filepath"
	"strings"
)

// tmpPrefix is the start of the name of SaveFile's temporary files for a
// file named base; os.CreateTemp puts decimal digits after it.
func tmpPrefix(base string) string { return "." + base + ".tmp-" }

// createTemp makes SaveFile's temporary file for dir/base and claims it
// (see claim), so that removeOrphans leaves it alone while it is open.
func createTemp(dir, base string) (*os.File, error) {
	for {
		f, err := os.CreateTemp(dir, tmpPrefix(base)+"*")
		if err != nil {
			return nil, err
		}
		ok, err := claim(f)
		if ok && err == nil {
			return f, nil
		}
		f.Close()
		if err != nil {
			os.Remove(f.Name())
			return nil, err
		}
		// another SaveFile took the file for an orphan and removed it
		// before this one claimed it: make another
	}
}

// removeOrphans removes the temporary files that a SaveFile of dir/base
// killed before its rename left behind. A temporary file that another
// SaveFile still has open is never removed: on systems with flock it
// holds a lock on its file, and on Windows an open file cannot be
// removed. Where neither holds, nothing is removed. Errors are ignored:
// an orphan that cannot be removed now is tried again by the next save.
func removeOrphans(dir, base string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := tmpPrefix(base)
	for _, e := range entries {
		name := e.Name()
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok || rest == "" || strings.Trim(rest, "0123456789") != "" || !e.Type().IsRegular() {
			continue
		}
		removeIfOrphan(filepath.Join(dir, name))
	}
}
