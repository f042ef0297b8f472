// Package corpus loads the benchmark corpora. The public-domain and
// permissively licensed texts are kept in the library's testdata/corpora
// (see SOURCES.md there), so benchmarks run on a clean clone.
package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// Dir returns the directory that holds the corpora.
func Dir() string {
	if d := os.Getenv("RAGKIT_CORPORA"); d != "" {
		return d
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "corpora")
}

// Load returns the named corpus, such as "room_with_a_view.txt".
func Load(name string) (string, error) {
	b, err := os.ReadFile(filepath.Join(Dir(), name))
	if err != nil {
		return "", fmt.Errorf("corpus: %w", err)
	}
	return string(b), nil
}

// MustLoad is Load for benchmarks: it panics if the corpus is missing.
func MustLoad(name string) string {
	s, err := Load(name)
	if err != nil {
		panic(err)
	}
	return s
}

// Prose lists the English prose corpora.
var Prose = []string{"room_with_a_view.txt", "romeo_and_juliet.txt", "sherlock_1661.txt"}

// All lists every corpus.
var All = []string{
	"room_with_a_view.txt", "romeo_and_juliet.txt", "sherlock_1661.txt",
	"commonmark_spec.md", "github_flavored.md", "hashbrown_set_rs.txt",
	"derived_romeo_no_blank_lines.txt", "derived_distant_paragraph.txt",
}
