// Command segeval scores sentence segmenters on the test sets in
// ../shared/segment: ragkit's segment package, github.com/neurosnap/sentences
// (its English Punkt tokenizer) and github.com/rivo/uniseg (Unicode sentence
// boundaries), side by side.
//
// Each set is a JSON list of {"name", "text", "sentences"}; a case passes
// when the segmenter's sentences, each trimmed of surrounding white space,
// equal "sentences" exactly. The sets are golden_en.json,
// golden_en_pragmatic52.json and golden_other/golden_XX.json, where XX is
// the language code given to ragkit's segmenter.
//
// Usage, from the benchmarks directory:
//
//	go run ./cmd/segeval [-dir ../../shared/segment] [-v] [-only ragkit]
//
// It prints the pass count of every segmenter on every set, then the names
// of the cases each one fails (with what it returned under -v).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/neurosnap/sentences"
	"github.com/neurosnap/sentences/english"
	"github.com/rivo/uniseg"

	"github.com/ragkit/ragkit/segment"
)

type testCase struct {
	Name      string   `json:"name"`
	Text      string   `json:"text"`
	Sentences []string `json:"sentences"`
}

type testSet struct {
	name  string // file name without extension
	lang  string
	cases []testCase
}

// splitter segments the text of a case in the given language.
type splitter struct {
	name  string
	split func(lang, text string) ([]string, error)
}

func main() {
	dir := flag.String("dir", filepath.Join("..", "..", "shared", "segment"), "directory holding the test sets")
	verbose := flag.Bool("v", false, "print what a segmenter returned for each failed case")
	only := flag.String("only", "", "comma-separated segmenters to run (ragkit, neurosnap, uniseg); default all")
	flag.Parse()
	if err := run(*dir, *verbose, *only); err != nil {
		fmt.Fprintln(os.Stderr, "segeval:", err)
		os.Exit(1)
	}
}

func run(dir string, verbose bool, only string) error {
	sets, err := loadSets(dir)
	if err != nil {
		return err
	}
	splitters, err := newSplitters(only)
	if err != nil {
		return err
	}
	type failure struct{ set, name, detail string }
	fails := make([][]failure, len(splitters))
	totals := make([]int, len(splitters))
	cases := 0

	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "set\tcases\t")
	for _, s := range splitters {
		fmt.Fprintf(tw, "%s\t", s.name)
	}
	fmt.Fprintln(tw)
	for _, set := range sets {
		fmt.Fprintf(tw, "%s\t%d\t", set.name, len(set.cases))
		cases += len(set.cases)
		for si, s := range splitters {
			pass := 0
			for _, c := range set.cases {
				got, err := s.split(set.lang, c.Text)
				if err != nil {
					return fmt.Errorf("%s on %s: %w", s.name, set.name, err)
				}
				if slices.Equal(got, c.Sentences) {
					pass++
					continue
				}
				fails[si] = append(fails[si], failure{set.name, c.Name, fmt.Sprintf("got  %q\n      want %q", got, c.Sentences)})
			}
			totals[si] += pass
			fmt.Fprintf(tw, "%d\t", pass)
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprintf(tw, "all\t%d\t", cases)
	for si := range splitters {
		fmt.Fprintf(tw, "%d\t", totals[si])
	}
	fmt.Fprintln(tw)
	if err := tw.Flush(); err != nil {
		return err
	}
	for si, s := range splitters {
		fmt.Printf("\n%s fails %d:\n", s.name, len(fails[si]))
		for _, f := range fails[si] {
			fmt.Printf("  %s: %s\n", f.set, f.name)
			if verbose {
				fmt.Printf("      %s\n", f.detail)
			}
		}
	}
	return nil
}

// loadSets reads the English sets first, then the other languages in
// alphabetical order.
func loadSets(dir string) ([]testSet, error) {
	files := []string{filepath.Join(dir, "golden_en.json"), filepath.Join(dir, "golden_en_pragmatic52.json")}
	other, err := filepath.Glob(filepath.Join(dir, "golden_other", "golden_*.json"))
	if err != nil {
		return nil, err
	}
	slices.Sort(other)
	files = append(files, other...)
	var sets []testSet
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		set := testSet{name: strings.TrimSuffix(filepath.Base(f), ".json"), lang: "en"}
		if strings.Contains(f, "golden_other") {
			set.lang = strings.TrimPrefix(set.name, "golden_")
		}
		if err := json.Unmarshal(b, &set.cases); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		sets = append(sets, set)
	}
	return sets, nil
}

func newSplitters(only string) ([]splitter, error) {
	punkt, err := english.NewSentenceTokenizer(nil)
	if err != nil {
		return nil, err
	}
	segmenters := map[string]*segment.Segmenter{}
	all := []splitter{
		{"ragkit", func(lang, text string) ([]string, error) {
			s := segmenters[lang]
			if s == nil {
				var err error
				if s, err = segment.New(segment.Config{Language: lang}); err != nil {
					return nil, err
				}
				segmenters[lang] = s
			}
			var out []string
			for _, sp := range s.Sentences(text) {
				out = append(out, text[sp.Start:sp.End])
			}
			return out, nil
		}},
		{"neurosnap", func(_, text string) ([]string, error) {
			return trimmed(punkt.Tokenize(text), func(s *sentences.Sentence) string { return s.Text }), nil
		}},
		{"uniseg", func(_, text string) ([]string, error) {
			var parts []string
			state := -1
			for rest := text; rest != ""; {
				var s string
				s, rest, state = uniseg.FirstSentenceInString(rest, state)
				parts = append(parts, s)
			}
			return trimmed(parts, func(s string) string { return s }), nil
		}},
	}
	if only == "" {
		return all, nil
	}
	var out []splitter
	for _, name := range strings.Split(only, ",") {
		i := slices.IndexFunc(all, func(s splitter) bool { return s.name == strings.TrimSpace(name) })
		if i < 0 {
			return nil, fmt.Errorf("unknown segmenter %q", name)
		}
		out = append(out, all[i])
	}
	return out, nil
}

// trimmed returns the texts of parts trimmed of white space, without the
// empty ones.
func trimmed[T any](parts []T, text func(T) string) []string {
	var out []string
	for _, p := range parts {
		if t := strings.TrimSpace(text(p)); t != "" {
			out = append(out, t)
		}
	}
	return out
}
