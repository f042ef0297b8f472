package eval

import (
	"embed"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ragkit/ragkit/benchmarks/internal/corpus"
	"github.com/ragkit/ragkit/document"
)

//go:embed testdata/reports testdata/room/questions.json
var builtin embed.FS

// Corpora lists the names of the built-in corpora, in the order the
// command runs them: "reports", documents written for this evaluation in
// which many passages do not name what they are about, and "room", E. M.
// Forster's A Room with a View (public domain, from the repository's
// testdata/corpora) as one document.
func Corpora() []string { return []string{"reports", "room"} }

// Load returns the built-in corpus with the given name or, if name is
// not one, the corpus in the directory at that path (see [LoadDir]).
func Load(name string) (*Corpus, error) {
	switch name {
	case "reports":
		return LoadDir(builtin, "testdata/reports")
	case "room":
		return loadRoom()
	}
	if fi, err := os.Stat(name); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%w: %q is neither a built-in corpus %v nor a directory", ErrCorpus, name, Corpora())
	}
	c, err := LoadDir(os.DirFS(name), ".")
	if err != nil {
		return nil, err
	}
	c.Name = filepath.Base(filepath.Clean(name))
	return c, nil
}

const roomFile = "room_with_a_view.txt"

func loadRoom() (*Corpus, error) {
	text, err := corpus.Load(roomFile)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorpus, err)
	}
	qs, err := readQuestions(builtin, "testdata/room/questions.json")
	if err != nil {
		return nil, err
	}
	doc := NewDocument("room_with_a_view", text, document.Text)
	doc.Title = "A Room with a View, by E. M. Forster"
	return NewCorpus("room", []Document{doc}, qs)
}
