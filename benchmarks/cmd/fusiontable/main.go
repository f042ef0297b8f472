// Command fusiontable sets the results of cmd/eval -retriever -format json
// for several embedders side by side: for each corpus, unit kind
// (chunks, windows, segments), size and search, hit@1 and hit@k of each
// embedder, and for each hybrid setting whether it is at least as good as
// its better input (vector or keywords search, on hit@1 and on hit@k
// alike) with that embedder; then, per search, its mean hit@1 and hit@k
// over the cells and, for a hybrid setting, in how many cells it is at
// least as good as its better input. It is how issue 41's fusion defaults were measured with a real
// model:
//
//	cd benchmarks
//	S='-retriever -sizes 64,256 -search vector,keywords,hybrid -weights 1:20,1:5,1:1,5:1 -fusion-k 4,60 -format json'
//	go run ./cmd/eval $S -corpus reports,room,eval/testdata/neardup >/tmp/lexical.json
//	go run ./cmd/eval $S -corpus reports,room,eval/testdata/neardup \
//	    -embed-model-dir DIR -embed-max-tokens 256 -embed-normalize >/tmp/minilm.json
//	go run ./cmd/fusiontable Lexical=/tmp/lexical.json MiniLM=/tmp/minilm.json
//
// Each argument is label=file; files with the same label are read as one
// (so that corpora run apart can be joined). It exits with status 2 on a
// bad argument, 1 on a file it cannot read.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// result is what the table reads of one of cmd/eval's JSON results.
type result struct {
	Corpus string  `json:"corpus"`
	Method string  `json:"method"`
	K      int     `json:"k"`
	Hit1   float64 `json:"hit_at_1"`
	HitK   float64 `json:"hit_at_k"`
	Error  string  `json:"error"`
}

// cell is a corpus, unit kind and size: the table's unit of comparison.
type cell struct {
	corpus, unit string
	size         int
}

// row is a cell's search ("vector", "keywords", "hybrid(w1:20,k4)").
type row struct {
	cell
	search string
}

type score struct{ hit1, hitK float64 }

// table holds, per label, the scores of each row.
type table struct {
	labels []string
	scores map[string]map[row]score
	k      int
}

// parseMethod splits a -retriever method name,
// "retriever-<unit>-<size>+<search>", into its unit, size and search.
func parseMethod(name string) (unit string, size int, search string, err error) {
	rest, ok := strings.CutPrefix(name, "retriever-")
	head, search, ok2 := strings.Cut(rest, "+")
	unit, n, ok3 := strings.Cut(head, "-")
	if !ok || !ok2 || !ok3 || unit == "" || search == "" {
		return "", 0, "", fmt.Errorf("method %q is not retriever-<unit>-<size>+<search>", name)
	}
	size, err = strconv.Atoi(n)
	if err != nil || size <= 0 {
		return "", 0, "", fmt.Errorf("method %q: size %q is not a positive number", name, n)
	}
	return unit, size, search, nil
}

// add reads the results of r under label.
func (t *table) add(label string, r io.Reader) error {
	var rs []result
	dec := json.NewDecoder(r)
	if err := dec.Decode(&rs); err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	if t.scores == nil {
		t.scores = make(map[string]map[row]score)
	}
	if t.scores[label] == nil {
		t.scores[label] = make(map[row]score)
		t.labels = append(t.labels, label)
	}
	for _, x := range rs {
		if x.Error != "" {
			return fmt.Errorf("%s: %s / %s failed: %s", label, x.Corpus, x.Method, x.Error)
		}
		unit, size, search, err := parseMethod(x.Method)
		if err != nil {
			return fmt.Errorf("%s: %w", label, err)
		}
		if t.k != 0 && x.K != t.k {
			return fmt.Errorf("%s: %s / %s has k = %d, others %d", label, x.Corpus, x.Method, x.K, t.k)
		}
		t.k = x.K
		t.scores[label][row{cell{x.Corpus, unit, size}, search}] = score{x.Hit1, x.HitK}
	}
	return nil
}

// rows returns the rows of every label, sorted by corpus (in order of
// first appearance), unit, size, then vector, keywords and the hybrid
// settings in the order they sort.
func (t *table) rows() []row {
	var corpora []string
	seen := map[row]bool{}
	var out []row
	for _, l := range t.labels {
		for r := range t.scores[l] {
			if !seen[r] {
				seen[r] = true
				out = append(out, r)
			}
			if !slices.Contains(corpora, r.corpus) {
				corpora = append(corpora, r.corpus)
			}
		}
	}
	slices.Sort(corpora)
	rank := func(s string) int {
		switch {
		case s == "vector":
			return 0
		case s == "keywords":
			return 1
		}
		return 2
	}
	slices.SortFunc(out, func(a, b row) int {
		if c := strings.Compare(a.corpus, b.corpus); c != 0 {
			return c
		}
		if c := strings.Compare(a.unit, b.unit); c != 0 {
			return c
		}
		if a.size != b.size {
			return a.size - b.size
		}
		if c := rank(a.search) - rank(b.search); c != 0 {
			return c
		}
		return strings.Compare(a.search, b.search)
	})
	return out
}

// holds reports whether the hybrid row r is, for label, at least as good
// as its better input on hit@1 and on hit@k alike, and whether the
// figures to say so are there.
func (t *table) holds(label string, r row) (ok, known bool) {
	s := t.scores[label]
	h, ok1 := s[r]
	v, ok2 := s[row{r.cell, "vector"}]
	kw, ok3 := s[row{r.cell, "keywords"}]
	if !ok1 || !ok2 || !ok3 {
		return false, false
	}
	return h.hit1 >= max(v.hit1, kw.hit1) && h.hitK >= max(v.hitK, kw.hitK), true
}

func (t *table) write(w io.Writer) {
	rows := t.rows()
	fmt.Fprint(w, "| corpus | unit | size | search |")
	for _, l := range t.labels {
		fmt.Fprintf(w, " %s hit@1 | %s hit@%d | %s ≥ best |", l, l, t.k, l)
	}
	fmt.Fprint(w, "\n|---|---|---:|---|")
	for range t.labels {
		fmt.Fprint(w, "---:|---:|:---:|")
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %d | %s |", r.corpus, r.unit, r.size, r.search)
		for _, l := range t.labels {
			s, ok := t.scores[l][r]
			if !ok {
				fmt.Fprint(w, " – | – | |")
				continue
			}
			mark := ""
			if strings.HasPrefix(r.search, "hybrid") {
				if ok, known := t.holds(l, r); known && ok {
					mark = "yes"
				} else if known {
					mark = "no"
				}
			}
			fmt.Fprintf(w, " %.3f | %.3f | %s |", s.hit1, s.hitK, mark)
		}
		fmt.Fprintln(w)
	}
	// Per search: the mean hit@1 and hit@k over the cells, and for each
	// hybrid setting the cells where it holds, per label.
	var searches []string
	for _, r := range rows {
		if !slices.Contains(searches, r.search) {
			searches = append(searches, r.search)
		}
	}
	fmt.Fprint(w, "\n| search |")
	for _, l := range t.labels {
		fmt.Fprintf(w, " %s mean hit@1 | %s mean hit@%d | %s cells ≥ best input |", l, l, t.k, l)
	}
	fmt.Fprint(w, "\n|---|")
	for range t.labels {
		fmt.Fprint(w, "---:|---:|---:|")
	}
	fmt.Fprintln(w)
	for _, s := range searches {
		fmt.Fprintf(w, "| %s |", s)
		for _, l := range t.labels {
			var sum score
			cells, n, of := 0, 0, 0
			for _, r := range rows {
				x, ok := t.scores[l][r]
				if r.search != s || !ok {
					continue
				}
				cells++
				sum.hit1 += x.hit1
				sum.hitK += x.hitK
				if ok, known := t.holds(l, r); known && strings.HasPrefix(s, "hybrid") {
					of++
					if ok {
						n++
					}
				}
			}
			held := ""
			if strings.HasPrefix(s, "hybrid") {
				held = fmt.Sprintf("%d of %d", n, of)
			}
			if cells == 0 {
				fmt.Fprint(w, " – | – | |")
				continue
			}
			fmt.Fprintf(w, " %.3f | %.3f | %s |", sum.hit1/float64(cells), sum.hitK/float64(cells), held)
		}
		fmt.Fprintln(w)
	}
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: fusiontable label=file.json ...")
		return 2
	}
	var t table
	for _, a := range args {
		label, path, ok := strings.Cut(a, "=")
		if !ok || label == "" || path == "" {
			fmt.Fprintf(stderr, "fusiontable: %q is not label=file\n", a)
			return 2
		}
		f, err := os.Open(path)
		if err != nil {
			fmt.Fprintln(stderr, "fusiontable:", err)
			return 1
		}
		err = t.add(label, f)
		f.Close()
		if err != nil {
			fmt.Fprintln(stderr, "fusiontable:", err)
			return 1
		}
	}
	t.write(stdout)
	return 0
}
