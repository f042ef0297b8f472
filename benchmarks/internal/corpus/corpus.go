// Package corpus loads the benchmark corpora. The public-domain and
// permissively licensed texts are kept in the library's testdata/corpora
// (see SOURCES.md there), so benchmarks run on a clean clone; the derived
// corpora are built from them by the library's internal/testcorpus.
package corpus

import "github.com/ragkit/ragkit/internal/testcorpus"

// Load returns the named corpus, such as "room_with_a_view.txt".
func Load(name string) (string, error) { return testcorpus.Load(name) }

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
	testcorpus.RomeoNoBlankLines, testcorpus.DistantParagraph,
}
