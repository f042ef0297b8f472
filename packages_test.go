package ragkit_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPackageListsAgree keeps the three package lists in step: the README's
// table, the root doc.go's overview and CONTRIBUTING.md's table of jobs and
// import rules name the same packages, in the same order, and every public
// package of the module is named in the README and in doc.go.
func TestPackageListsAgree(t *testing.T) {
	readme := section(t, "README.md", "## Packages")
	contributing := section(t, "CONTRIBUTING.md", "## Packages")
	overview, err := os.ReadFile("doc.go")
	require.NoError(t, err)

	readmeRows := firstColumn(readme)
	contributingRows := firstColumn(contributing)
	var docBullets []string
	for _, m := range regexp.MustCompile(`(?m)^//   - \[?github\.com/ragkit/ragkit/([a-z/]+)`).FindAllStringSubmatch(string(overview), -1) {
		docBullets = append(docBullets, m[1])
	}
	require.NotEmpty(t, readmeRows)
	assert.Equal(t, readmeRows, docBullets, "README's Packages table and doc.go's list")
	// CONTRIBUTING's table is of the core module; nested modules follow it.
	core := slices.DeleteFunc(slices.Clone(readmeRows), func(p string) bool { return nestedModule(p) })
	assert.Equal(t, core, contributingRows, "README's Packages table and CONTRIBUTING.md's")

	for _, pkg := range publicPackages(t) {
		assert.True(t, strings.Contains(readme, "`"+pkg+"`"), "README's Packages section does not name %s", pkg)
		assert.True(t, strings.Contains(string(overview), "github.com/ragkit/ragkit/"+pkg), "doc.go does not name %s", pkg)
	}
}

// section returns the text of a Markdown file from heading to the next
// heading of the same level.
func section(t *testing.T, file, heading string) string {
	t.Helper()
	text, err := os.ReadFile(file)
	require.NoError(t, err)
	_, after, found := strings.Cut(string(text), "\n"+heading+"\n")
	require.True(t, found, "%s has no %q", file, heading)
	body, _, _ := strings.Cut(after, "\n## ")
	return body
}

// firstColumn returns the package named in code in the first cell of each
// row of the Markdown tables of text.
func firstColumn(text string) []string {
	var names []string
	for _, m := range regexp.MustCompile("(?m)^\\| \\[?`([a-z/]+)`").FindAllStringSubmatch(text, -1) {
		names = append(names, m[1])
	}
	return names
}

// nestedModule reports whether dir holds a go.mod of its own.
func nestedModule(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "go.mod"))
	return err == nil
}

// publicPackages returns the directories of the core module that hold a
// package a user may import: not internal, not a program, not test data.
func publicPackages(t *testing.T) []string {
	t.Helper()
	var pkgs []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || path == "." {
			return err
		}
		name := d.Name()
		if name == "internal" || name == "testdata" || name == "examples" || strings.HasPrefix(name, ".") || nestedModule(path) {
			return filepath.SkipDir
		}
		files, err := filepath.Glob(filepath.Join(path, "*.go"))
		if err != nil {
			return err
		}
		if slices.ContainsFunc(files, func(f string) bool { return !strings.HasSuffix(f, "_test.go") }) {
			pkgs = append(pkgs, filepath.ToSlash(path))
		}
		return nil
	})
	require.NoError(t, err)
	return pkgs
}
