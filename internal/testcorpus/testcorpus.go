// Package testcorpus loads the test corpora of testdata/corpora for the
// tests and benchmarks of the repository, and builds the corpora derived
// from them, which are not committed.
package testcorpus

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// Derived corpora: built from a committed one (or from nothing) on load.
const (
	// RomeoNoBlankLines is romeo_and_juliet.txt with its blank lines
	// removed, then a last paragraph "THE END." after two blank lines: a
	// long text with no paragraph break until its very end.
	RomeoNoBlankLines = "derived_romeo_no_blank_lines.txt"
	// DistantParagraph is 2,000 identical lines and then, after a blank
	// line, "THE END.": one paragraph break far from the start, a worst
	// case for splitters that search ahead for the next boundary.
	DistantParagraph = "derived_distant_paragraph.txt"
)

var derived = map[string]func() (string, error){
	RomeoNoBlankLines: func() (string, error) {
		t, err := read("romeo_and_juliet.txt")
		if err != nil {
			return "", err
		}
		var kept []string
		for l := range strings.SplitSeq(t, "\n") {
			if strings.TrimSpace(l) != "" {
				kept = append(kept, l)
			}
		}
		return strings.Join(kept, "\n") + "\n\n\nTHE END.", nil
	},
	DistantParagraph: func() (string, error) {
		return strings.Repeat("alpha beta gamma delta epsilon zeta eta theta\n", 2000) + "\nTHE END.", nil
	},
}

// Dir returns the directory of the committed corpora.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "corpora")
}

var cache sync.Map // name -> string

// Load returns the named corpus, committed or derived.
func Load(name string) (string, error) {
	if t, ok := cache.Load(name); ok {
		return t.(string), nil
	}
	build, ok := derived[name]
	if !ok {
		build = func() (string, error) { return read(name) }
	}
	t, err := build()
	if err != nil {
		return "", err
	}
	cache.Store(name, t)
	return t, nil
}

// TB is the part of testing.TB that Must uses.
type TB interface {
	Helper()
	Fatal(args ...any)
}

// Must returns the named corpus, or stops the test or benchmark.
func Must(tb TB, name string) string {
	tb.Helper()
	t, err := Load(name)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// Paragraphs returns the paragraphs of the named corpus with at least
// minWords words, white space collapsed, or stops the test or benchmark.
func Paragraphs(tb TB, name string, minWords int) []string {
	tb.Helper()
	var out []string
	for _, p := range paragraphBreak.Split(Must(tb, name), -1) {
		if words := strings.Fields(p); len(words) >= minWords {
			out = append(out, strings.Join(words, " "))
		}
	}
	return out
}

var paragraphBreak = regexp.MustCompile(`\r?\n\s*\n`)

// Names returns the names of every corpus, committed and derived, sorted.
func Names() ([]string, error) {
	entries, err := os.ReadDir(Dir())
	if err != nil {
		return nil, fmt.Errorf("testcorpus: %w", err)
	}
	var names []string
	for _, e := range entries {
		if n := e.Name(); !e.IsDir() && n != "SOURCES.md" {
			names = append(names, n)
		}
	}
	for n := range derived {
		names = append(names, n)
	}
	slices.Sort(names)
	return names, nil
}

func read(name string) (string, error) {
	b, err := os.ReadFile(filepath.Join(Dir(), name))
	if err != nil {
		return "", fmt.Errorf("testcorpus: %w", err)
	}
	return string(b), nil
}
