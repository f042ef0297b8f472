//go:build !unix

package bert

import "os"

// mapFile reads the size bytes of f: there is no mapping here.
func mapFile(f *os.File, size int) (data []byte, release func() error, err error) {
	return readFile(f, size)
}
