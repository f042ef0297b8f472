//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package memory

import (
	"os"
	"syscall"
)

// claim takes an exclusive lock on SaveFile's temporary file f, held
// until f is closed, and reports whether f is still the file at its name
// (an orphan removal may have removed it before the lock was taken). On a
// file system without locks it claims nothing: removeIfOrphan cannot lock
// there either, so it removes nothing.
func claim(f *os.File) (bool, error) {
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX) != nil {
		return true, nil
	}
	have, err := f.Stat()
	if err != nil {
		return false, err
	}
	now, err := os.Stat(f.Name())
	if err != nil {
		return false, nil
	}
	return os.SameFile(have, now), nil
}

// removeIfOrphan removes the temporary file at name if no SaveFile holds
// its lock: removed while this holds the lock, so that a SaveFile that
// created it and has not locked it yet finds it gone and makes another.
func removeIfOrphan(name string) {
	f, err := os.Open(name)
	if err != nil {
		return
	}
	defer f.Close()
	if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return // held by a running SaveFile (or locks do not work here)
	}
	os.Remove(name)
}
