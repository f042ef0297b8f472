// Command yardstick measures the PDF parser against poppler's pdftotext,
// which it runs (Debian: apt-get install -y poppler-utils):
//
//   - fidelity on the test PDFs, made from known text: the word-sequence
//     similarity of ragkit's text, pdftotext's default text and its
//     -layout text to the source, and whether running headers and footers
//     are gone, the headings found with their levels and the table read;
//   - on real PDFs nobody here wrote (given as arguments): the title, the
//     page count beside pdfinfo's, and the recall of pdftotext's words in
//     ragkit's text;
//   - speed, pages per second of ragkit and of pdftotext on the same files,
//     the two interleaved file by file, and memory per page.
//
// Run it from formats/pdf:
//
//	go run ./internal/cmd/yardstick -rounds 3 /tmp/realpdf/*.pdf
//
// With -dump it prints what the parser reads of each file given instead.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/ragkit/ragkit/formats/pdf"
	"github.com/ragkit/ragkit/formats/pdf/internal/fidelity"
)

func main() {
	testdata := flag.String("testdata", "testdata", "the folder of the test PDFs and their .md sources")
	rounds := flag.Int("rounds", 3, "how many times each file is read by each tool in the speed run")
	instances := flag.Int("instances", 2, "Config.MaxInstances of the parser")
	dump := flag.Bool("dump", false, "print the title, marks and Markdown of each file given instead of measuring")
	flag.Parse()
	p, err := pdf.New(pdf.Config{MaxInstances: *instances})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	if *dump {
		for _, path := range flag.Args() {
			text, pages, title, err := read(p, path)
			fmt.Printf("==> %s: %d pages, title %q, error %v\n%s\n", path, pages, title, err, text)
		}
		return
	}
	tests := []string{"onecol", "twocol", "table", "headings"}
	var files []string
	fmt.Println("## Fidelity on PDFs made from known text")
	fmt.Println()
	fmt.Println("| file | ragkit | pdftotext | pdftotext -layout | running lines left | headings found | table |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---|")
	for _, name := range tests {
		path := filepath.Join(*testdata, name+".pdf")
		files = append(files, path)
		fidelityRow(p, path, filepath.Join(*testdata, name+".md"))
	}
	real := flag.Args()
	if len(real) > 0 {
		fmt.Println()
		fmt.Println("## Real PDFs: ragkit against pdftotext")
		fmt.Println()
		fmt.Println("| file | pages (pdfinfo) | title | word recall of pdftotext's words | ragkit words / pdftotext words | error |")
		fmt.Println("|---|---:|---|---:|---:|---|")
		for _, path := range real {
			realRow(p, path)
		}
		files = append(files, real...)
	}
	fmt.Println()
	speed(p, files, *rounds, *instances)
}

func read(p *pdf.Parser, path string) (string, int, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	d, err := p.Parse(context.Background(), filepath.Base(path), data)
	pages, _ := strconv.Atoi(d.Metadata[pdf.PagesKey])
	return d.Text, pages, d.Title, err
}

func pdftotext(path string, args ...string) string {
	out, err := exec.Command("pdftotext", append(args, path, "-")...).Output()
	if err != nil {
		log.Fatalf("pdftotext %s: %v", path, err)
	}
	return string(out)
}

var running = []string{"Ragkit fidelity test", "Forster sampler", "Chapter one draft", "Not for citation"}

var headingLine = regexp.MustCompile(`^#{1,6} `)

func fidelityRow(p *pdf.Parser, path, source string) {
	src, err := os.ReadFile(source)
	if err != nil {
		log.Fatal(err)
	}
	text, _, _, err := read(p, path)
	if err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	want := fidelity.Words(string(src))
	sim := func(t string) string { return fmt.Sprintf("%.3f", fidelity.Similarity(want, fidelity.Words(t))) }
	left := 0
	for _, l := range strings.Split(text, "\n") {
		for _, r := range running {
			if strings.Contains(l, r) {
				left++
			}
		}
	}
	var heads, found int
	var table []string
	lines := strings.Split(text, "\n")
	for _, l := range strings.Split(string(src), "\n") {
		if headingLine.MatchString(l) {
			heads++
			if slices.Contains(lines, l) {
				found++
			}
		}
		if strings.HasPrefix(l, "|") && !strings.HasPrefix(l, "|---") {
			table = append(table, l)
		}
	}
	tableOK := "—"
	if table != nil {
		tableOK = "header row and cells in order"
		for _, l := range table {
			if !slices.Contains(lines, l) {
				tableOK = "differs"
			}
		}
	}
	fmt.Printf("| %s | %s | %s | %s | %d | %d of %d | %s |\n", filepath.Base(path), sim(text),
		sim(pdftotext(path)), sim(pdftotext(path, "-layout")), left, found, heads, tableOK)
}

func realRow(p *pdf.Parser, path string) {
	text, pages, title, err := read(p, path)
	info, _ := exec.Command("pdfinfo", path).Output()
	infoPages := ""
	for _, l := range strings.Split(string(info), "\n") {
		if f := strings.Fields(l); len(f) == 2 && f[0] == "Pages:" {
			infoPages = f[1]
		}
	}
	if err != nil {
		fmt.Printf("| %s | — (%s) | | | | %v |\n", filepath.Base(path), infoPages, err)
		return
	}
	want := fidelity.Words(pdftotext(path))
	got := fidelity.Words(text)
	if len(title) > 60 {
		title = title[:57] + "..."
	}
	fmt.Printf("| %s | %d (%s) | %s | %.3f | %.3f | |\n", filepath.Base(path), pages, infoPages,
		strings.ReplaceAll(title, "|", `\|`), fidelity.Recall(want, got), float64(len(got))/float64(max(1, len(want))))
}

// speed reads every file with each tool in turn, rounds times, so that
// the load of a shared machine falls on both alike.
func speed(p *pdf.Parser, files []string, rounds, instances int) {
	var pages int
	var ragkit, poppler, ragkitCPU, popplerCPU time.Duration
	var peakHeap uint64
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	allocated := ms.TotalAlloc
	for range rounds {
		for _, f := range files {
			start, cpu := time.Now(), cpuTime()
			_, n, _, err := read(p, f)
			if err != nil {
				// Counted in the table above; a file not read counts
				// neither its time nor its pages.
				continue
			}
			ragkit += time.Since(start)
			ragkitCPU += cpuTime() - cpu
			runtime.ReadMemStats(&ms)
			peakHeap = max(peakHeap, ms.HeapInuse)
			start = time.Now()
			cmd := exec.Command("pdftotext", f, "-")
			cmd.Stdout = &bytes.Buffer{}
			if err := cmd.Run(); err != nil {
				log.Fatal(err)
			}
			poppler += time.Since(start)
			popplerCPU += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			pages += n
		}
	}
	fmt.Println("## Speed")
	fmt.Println()
	fmt.Printf("%d files, %d pages a round, %d rounds, interleaved file by file; ragkit with MaxInstances %d on %d CPUs.\n\n",
		len(files), pages/rounds, rounds, instances, runtime.NumCPU())
	fmt.Println("| tool | pages/s (wall clock) | pages per CPU-second |")
	fmt.Println("|---|---:|---:|")
	fmt.Printf("| ragkit (PDFium in WebAssembly) | %.1f | %.1f |\n", float64(pages)/ragkit.Seconds(), float64(pages)/ragkitCPU.Seconds())
	fmt.Printf("| pdftotext (poppler, native) | %.1f | %.1f |\n", float64(pages)/poppler.Seconds(), float64(pages)/popplerCPU.Seconds())
	fmt.Println()
	runtime.ReadMemStats(&ms)
	fmt.Printf("Memory: the Go heap in use peaked at %.1f MiB after a file (the engine's instances included); %.1f KiB allocated per page read; the process's peak resident set was %s.\n",
		float64(peakHeap)/(1<<20), float64(ms.TotalAlloc-allocated)/float64(max(1, pages))/1024, peakRSS())
}

// cpuTime is the CPU time this process has used, user and system: on a
// machine shared with other work it counts what reading cost, where the
// wall clock counts the waits too.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:"))
		}
	}
	return "unknown"
}
