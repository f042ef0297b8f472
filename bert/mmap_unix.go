//go:build unix

package bert

import (
	"os"
	"syscall"
)

// mapFile maps the size bytes of f read-only; release unmaps them.
func mapFile(f *os.File, size int) (data []byte, release func() error, err error) {
	data, err = syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return readFile(f, size)
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}
