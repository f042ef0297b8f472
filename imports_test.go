package ragkit_test

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

// mayImport is the design's package table: each package of the library
// and the packages of ragkit it may import (internal packages aside). A
// package imports only packages listed before it, so there are no cycles.
var mayImport = map[string][]string{
	"tokencount":            nil,
	"segment":               nil,
	"document":              nil,
	"chunker":               {"tokencount", "segment", "document"},
	"contextheader":         {"tokencount", "segment", "document", "chunker"},
	"vectorstore":           {"tokencount", "segment", "document"},
	"vectorstore/memory":    {"tokencount", "segment", "document", "vectorstore"},
	"vectorstore/lexical":   {"tokencount", "segment", "document", "vectorstore"},
	"vectorstore/storetest": {"tokencount", "segment", "document", "vectorstore"},
	"window":                {"tokencount", "segment", "document", "chunker", "vectorstore"},
	"budget":                {"tokencount", "segment"},
	"loader":                {"document"},
	"ingest":                {"tokencount", "segment", "document", "chunker", "contextheader", "vectorstore", "window", "budget", "loader"},
	"retrieve":              {"tokencount", "segment", "document", "chunker", "contextheader", "vectorstore", "window", "budget"},
	"evaluate":              {"tokencount", "segment", "document", "chunker", "contextheader", "vectorstore", "window", "budget", "loader", "ingest", "retrieve"},
	"llm/openai":            {"tokencount"},
}

// TestImportOrder checks the non-test files of every package against
// mayImport, and that every package of the module is in it.
func TestImportOrder(t *testing.T) {
	const module = "github.com/ragkit/ragkit/"
	seen := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || fileExists(filepath.Join(path, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || dir == "." ||
			strings.HasPrefix(dir, "internal/") || strings.Contains(dir, "/internal/") ||
			strings.HasPrefix(dir, "examples/") || strings.HasPrefix(dir, "tokencount/") {
			return nil
		}
		allowed, ok := mayImport[dir]
		require.True(t, ok, "package %s is not in the design's table (mayImport)", dir)
		seen[dir] = true
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		require.NoError(t, err)
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			rel, ours := strings.CutPrefix(p, module)
			if !ours || strings.HasPrefix(rel, "internal/") || strings.Contains(rel, "/internal/") || strings.HasPrefix(rel, "tokencount/") && rel != "tokencount" {
				continue
			}
			require.Contains(t, allowed, rel, "%s imports %s, which the design's table does not allow", path, p)
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, seen)
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestInternalLeaves checks that the module's top-level internal packages
// are leaves: they import no package of ragkit but other internal ones, so
// that any package may use them without an import running up the table
// (internal/chunks once imported chunker, above two of its users' peers).
func TestInternalLeaves(t *testing.T) {
	const module = "github.com/ragkit/ragkit/"
	dirs, err := filepath.Glob("internal/*")
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			require.NoError(t, err)
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				if rel, ours := strings.CutPrefix(p, module); ours {
					require.True(t, strings.HasPrefix(rel, "internal/"), "%s imports %s: an internal leaf imports only internal packages", path, p)
				}
			}
		}
	}
}
