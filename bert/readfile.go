package bert

import (
	"fmt"
	"io"
	"os"
)

// readFile reads the size bytes of f, where a file cannot be mapped.
func readFile(f *os.File, size int) ([]byte, func() error, error) {
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, nil, fmt.Errorf("reading: %w", err)
	}
	return data, func() error { return nil }, nil
}
