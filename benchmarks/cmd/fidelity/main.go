// Command fidelity measures how faithfully the loader's built-in parsers
// read files that nobody here wrote, and how fast:
//
//   - man pages from /usr/share/man/man1 (gzipped roff, through the
//     loader's gzip path) against the text that man(1) renders of them
//     (man --nh --nj -P cat -l FILE, col -b), as words in order: the
//     similarity is 2·LCS/(a+b) over the two lists of lower-cased words,
//     without the rendered page's header and footer lines and the parsed
//     page's title line; and the share of the rendered page's section
//     headings (lines at the margin) that are headings of the parsed one;
//   - Go source files of the toolchain (GOROOT/src/strings) against the
//     file's own words: what of the code and its comments the text keeps
//     (the similarity counts the headings the text adds against it);
//   - the speed of each parser in MB/s on a real file of its format at 1x
//     and 4x its size (the file repeated), to show the cost is linear.
//
// Run from the benchmarks module: go run ./cmd/fidelity [-n 60]. It needs
// man, col and the Debian man pages (Linux: speeds are CPU time, from
// getrusage, which other programs distort less than wall time, though
// the garbage collector's threads count in it).
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing/fstest"
	"time"
	"unicode"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/loader"
)

func main() {
	n := flag.Int("n", 60, "how many man pages of /usr/share/man/man1 to measure (every k-th, by name)")
	flag.Parse()
	if err := manPages(*n); err != nil {
		fmt.Fprintln(os.Stderr, "fidelity:", err)
		os.Exit(1)
	}
	goSource()
	survey("/usr/share/doc")
	survey(filepath.Join(runtime.GOROOT(), "doc"))
	speeds()
}

// survey loads a folder with the default configuration and prints what
// it read and what not, by reason.
func survey(dir string) {
	start := time.Now()
	r, err := loader.Dir(context.Background(), dir, loader.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	elapsed := time.Since(start)
	reasons := map[string]int{}
	for _, s := range r.Skipped {
		for _, e := range []error{loader.ErrUnsupported, loader.ErrLeftOut, loader.ErrTooLarge, loader.ErrEmpty, loader.ErrFormat, loader.ErrNoText, loader.ErrUnreadable, loader.ErrInvalidUTF8} {
			if errors.Is(s.Reason, e) {
				reasons[e.Error()]++
				break
			}
		}
	}
	formats := map[string]int{}
	for _, d := range r.Documents {
		formats[d.Format.String()]++
	}
	fmt.Printf("## Survey of %s with loader.Config{} (%.1f s)\n\n", dir, elapsed.Seconds())
	fmt.Printf("- documents read: %d (%v)\n", len(r.Documents), formats)
	fmt.Printf("- repaired: %d\n", len(r.Repaired))
	fmt.Printf("- skipped: %d, by reason: %v\n", len(r.Skipped), reasons)
	fmt.Printf("- files not read: %v\n", r.NotRead)
	for _, d := range r.Documents {
		if strings.HasSuffix(d.ID, ".md") && !strings.Contains(d.ID, "/") {
			fmt.Printf("- %s: title %q\n", d.ID, d.Title)
		}
	}
	fmt.Println()
}

// load parses one file through the loader's default parsers.
func load(name string, data []byte) (document.Document, error) {
	r, err := loader.FS(context.Background(), fstest.MapFS{name: {Data: data}}, loader.Config{MaxBytes: 64 << 20})
	if err != nil {
		return document.Document{}, err
	}
	if len(r.Skipped) > 0 {
		return document.Document{}, r.Skipped[0].Reason
	}
	return r.Documents[0], nil
}

// words returns the lower-cased runs of letters and digits of s.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// similarity returns 2·LCS/(len(a)+len(b)) and LCS/len(a), what of
// reference a the text b keeps in order; the LCS is found by Myers'
// O(ND) diff, a difference of more than 20,000 edits counting as 20,000.
func similarity(a, b []string) (sim, kept float64) {
	if len(a)+len(b) == 0 {
		return 1, 1
	}
	d := editDistance(a, b, 20000)
	lcs := (len(a) + len(b) - d) / 2
	return 2 * float64(lcs) / float64(len(a)+len(b)), float64(lcs) / float64(max(len(a), 1))
}

// editDistance returns the number of insertions and deletions that turn a
// into b (Myers), at most maxD.
func editDistance(a, b []string, maxD int) int {
	n, m := len(a), len(b)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	for d := 0; d <= maxD; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return d
			}
		}
	}
	return maxD
}

// rendered returns man's text of a page file and its section headings.
func rendered(path string) (string, []string, error) {
	cmd := exec.Command("sh", "-c", "man --nh --nj -P cat -l \"$1\" 2>/dev/null | col -b", "sh", path)
	cmd.Env = append(os.Environ(), "MANWIDTH=200", "LANG=C.UTF-8")
	out, err := cmd.Output()
	if err != nil {
		return "", nil, err
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	// The header and footer lines are the renderer's, not the page's.
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	if len(lines) > 2 {
		lines = lines[1 : len(lines)-1]
	}
	var heads []string
	for _, l := range lines {
		if l != "" && l[0] != ' ' && l[0] != '\t' {
			heads = append(heads, strings.TrimSpace(l))
		}
	}
	return strings.Join(lines, "\n"), heads, nil
}

// body returns a parsed page's text without its title line.
func body(d document.Document) string {
	t := d.Text
	if strings.HasPrefix(t, "# ") {
		if i := strings.IndexByte(t, '\n'); i >= 0 {
			t = t[i+1:]
		}
	}
	return t
}

func manPages(n int) error {
	dir := "/usr/share/man/man1"
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var pages []string
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() || !strings.HasSuffix(e.Name(), ".gz") || info.Size() < 600 {
			continue // links and .so pages render another page
		}
		if strings.HasPrefix(e.Name(), "gcloud_") && !strings.HasPrefix(e.Name(), "gcloud_compute_instances_create.") {
			continue // thousands of pages of one generator: one is enough
		}
		pages = append(pages, e.Name())
	}
	step := max(len(pages)/max(n, 1), 1)
	var picked []string
	for i := 0; i < len(pages) && len(picked) < n; i += step {
		picked = append(picked, pages[i])
	}
	for _, want := range []string{"ls.1.gz", "bash.1.gz", "ssh.1.gz", "tar.1.gz", "grep.1.gz"} {
		if !slices.Contains(picked, want) && slices.Contains(pages, want) {
			picked = append(picked, want)
		}
	}
	sort.Strings(picked)
	fmt.Println("## Man pages: parsed roff against man's rendering")
	fmt.Println()
	fmt.Println("| page | words (man) | words (parsed) | similarity | kept | headings recovered | title |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---|")
	var sims []float64
	totalHeads, foundHeads := 0, 0
	for _, p := range picked {
		data, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			return err
		}
		ref, heads, err := rendered(filepath.Join(dir, p))
		if err != nil || strings.TrimSpace(ref) == "" {
			continue
		}
		d, err := load(p, data)
		if err != nil {
			fmt.Printf("| %s | %d | - | - | - | - | %v |\n", p, len(words(ref)), err)
			sims = append(sims, 0)
			continue
		}
		rw, pw := words(ref), words(body(d))
		s, kept := similarity(rw, pw)
		sims = append(sims, s)
		got := map[string]bool{}
		for _, h := range document.Headings(d.Text, d.Format) {
			got[strings.ToLower(strings.Join(strings.Fields(h.Title), " "))] = true
		}
		found := 0
		for _, h := range heads {
			if got[strings.ToLower(strings.Join(strings.Fields(h), " "))] {
				found++
			}
		}
		totalHeads += len(heads)
		foundHeads += found
		fmt.Printf("| %s | %d | %d | %.4f | %.4f | %d/%d | %s |\n", p, len(rw), len(pw), s, kept, found, len(heads), d.Title)
	}
	sort.Float64s(sims)
	if len(sims) > 0 {
		mean := 0.0
		for _, s := range sims {
			mean += s
		}
		mean /= float64(len(sims))
		fmt.Printf("\n%d pages: mean similarity %.4f, median %.4f, lowest %.4f; headings recovered %d/%d (%.1f%%)\n\n",
			len(sims), mean, sims[len(sims)/2], sims[0], foundHeads, totalHeads, 100*float64(foundHeads)/float64(max(totalHeads, 1)))
	}
	return nil
}

func goSource() {
	dir := filepath.Join(runtime.GOROOT(), "src", "strings")
	entries, _ := os.ReadDir(dir)
	fmt.Println("## Go source: the text's words against the file's")
	fmt.Println()
	fmt.Println("| file | words (file) | similarity | kept | sections |")
	fmt.Println("|---|---:|---:|---:|---:|")
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		d, err := load(e.Name(), data)
		if err != nil {
			fmt.Printf("| %s | - | %v | | |\n", e.Name(), err)
			continue
		}
		fw := words(string(data))
		sim, kept := similarity(fw, words(d.Text))
		fmt.Printf("| %s | %d | %.4f | %.4f | %d |\n", e.Name(), len(fw), sim, kept, len(document.Headings(d.Text, d.Format)))
	}
	fmt.Println()
}

// gunzipFile returns a gzipped file's content.
func gunzipFile(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil
	}
	b, _ := io.ReadAll(zr)
	return b
}

func read(path string) []byte {
	b, _ := os.ReadFile(path)
	return b
}

// times4 returns data four times: a JSON value as an array of four, a
// CSV or TSV file with one header, anything else repeated.
func times4(name string, data []byte) []byte {
	switch filepath.Ext(name) {
	case ".json":
		return []byte("[" + strings.Repeat(string(data)+",", 3) + string(data) + "]")
	case ".csv", ".tsv":
		header, rows, _ := bytes.Cut(data, []byte("\n"))
		return append(append(header, '\n'), bytes.Repeat(rows, 4)...)
	}
	return bytes.Repeat(data, 4)
}

func speeds() {
	goroot := runtime.GOROOT()
	inputs := []struct{ name, file string }{
		{"bash.1", "/usr/share/man/man1/bash.1.gz"},
		{"debian.csv", "/usr/share/distro-info/debian.csv"},
		{"iso_3166-2.json", "/usr/share/iso-codes/json/iso_3166-2.json"},
		{"strings.go", filepath.Join(goroot, "src", "strings", "strings.go")},
		{"textwrap.py", "/usr/lib/python3.11/textwrap.py"},
		{"s3.rst", "loader/testdata/markup/s3.rst"},
		{"godebug.md", filepath.Join(goroot, "doc", "godebug.md")},
	}
	fmt.Println("## Speed: MB/s of input, 1x and 4x the file")
	fmt.Println()
	fmt.Println("| format | file | bytes | MB/s 1x | MB/s 4x |")
	fmt.Println("|---|---|---:|---:|---:|")
	for _, in := range inputs {
		var data []byte
		if strings.HasSuffix(in.file, ".gz") {
			data = gunzipFile(in.file)
		} else if strings.HasPrefix(in.file, "loader/") {
			data = read(filepath.Join("..", in.file))
		} else {
			data = read(in.file)
		}
		if len(data) == 0 {
			continue
		}
		one := rate(in.name, data)
		four := rate(in.name, times4(in.name, data))
		fmt.Printf("| %s | %s | %d | %.1f | %.1f |\n", strings.TrimPrefix(filepath.Ext(in.name), "."), in.name, len(data), one, four)
	}
}

// rate returns the MB/s at which the loader reads data as name, by the
// process's CPU time (user and system) over at least 300 ms of it, so
// that other programs on a shared machine distort it less than a
// wall-clock figure.
func rate(name string, data []byte) float64 {
	if _, err := load(name, data); err != nil {
		fmt.Fprintln(os.Stderr, name, err)
		return 0
	}
	runtime.GC()
	start := cpuTime()
	n := 0
	for cpuTime()-start < 300*time.Millisecond {
		if _, err := load(name, data); err != nil {
			return 0
		}
		n++
	}
	return float64(n*len(data)) / (cpuTime() - start).Seconds() / 1e6
}

// cpuTime returns the CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
