//go:build unix

package loader_test

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/loader"
)

// A named pipe is skipped without being opened: opening it would wait for
// a writer forever. Through a link too.
func TestDirNamedPipe(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.md": "# A\n"})
	require.NoError(t, syscall.Mkfifo(filepath.Join(root, "pipe.md"), 0o644))
	symlink(t, "pipe.md", root, "pipe-link.txt")
	r, err := loader.Dir(context.Background(), root, loader.Config{})
	require.NoError(t, err)
	assert.Equal(t, []string{"a.md"}, ids(r.Documents))
	rNotRegular.check(t, reasons(r), "pipe.md")
	rNotRegular.check(t, reasons(r), "pipe-link.txt")
}
