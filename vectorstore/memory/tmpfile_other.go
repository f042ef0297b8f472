//go:build !(linux || darwin || freebsd || openbsd || netbsd || dragonfly || windows)

package memory

import "os"

// claim does nothing where there is no flock.
func claim(*os.File) (bool, error) { return true, nil }

// removeIfOrphan removes nothing where a running SaveFile's temporary file
// cannot be told from an orphan.
func removeIfOrphan(string) {}
