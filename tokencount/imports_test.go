package tokencount_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestImports guards what a program that counts tokens links: package
// tokencount and the ragkit packages it imports use only the standard
// library (the vocabularies are its own generated files), never
// tiktoken-go (with its regular expression engine, UUID package and HTTP
// client) nor the loader's base64 rank files. The yardstick that wraps
// tiktoken-go is package tiktoken.
func TestImports(t *testing.T) {
	const module = "github.com/ragkit/ragkit/"
	seen := map[string]bool{}
	var visit func(dir string)
	visit = func(dir string) {
		if seen[dir] {
			return
		}
		seen[dir] = true
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
			require.NoError(t, err)
			for _, imp := range f.Imports {
				path, err := strconv.Unquote(imp.Path.Value)
				require.NoError(t, err)
				switch {
				case strings.HasPrefix(path, module+"tokencount/"):
					visit(filepath.Join(".", strings.TrimPrefix(path, module+"tokencount/")))
				case strings.Contains(strings.Split(path, "/")[0], "."):
					require.Fail(t, "import outside the standard library", "%s imports %s", file, path)
				}
			}
		}
	}
	wd, err := os.Getwd()
	require.NoError(t, err)
	visit(wd)
	require.True(t, seen[filepath.Join("internal", "invalidutf8")], "the walk did not follow ragkit's own imports")
}
