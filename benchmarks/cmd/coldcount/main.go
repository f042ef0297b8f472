// Command coldcount measures the first count over a text in a fresh
// process ("cold"): every measurement runs in a new child process, which
// builds the encoding (timed apart) and then counts the text once, and
// reports the heap the encoding then keeps. It prints the median over -runs processes
// for ragkit, tiktoken-go's EncodeOrdinary and
// github.com/tiktoken-go/tokenizer, and the median of build plus first
// pass: what a command that counts one text once pays.
//
//	cd benchmarks && go run ./cmd/coldcount -runs 7
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
	"github.com/ragkit/ragkit/benchmarks/internal/corpus"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/tiktoken-go/tokenizer"
)

var impls = []string{"ragkit", "tiktoken-go", "tiktoken-go-tokenizer"}

func main() {
	runs := flag.Int("runs", 5, "fresh processes per measurement")
	child := flag.Bool("child", false, "internal: measure once and print")
	corpora := flag.String("corpora", "room_with_a_view.txt,sherlock_1661.txt,commonmark_spec.md", "comma-separated corpus names")
	flag.Parse()
	if *child {
		measure(flag.Arg(0), flag.Arg(1), flag.Arg(2))
		return
	}
	fmt.Printf("%-22s %-12s %-22s %10s %9s %12s %9s %12s\n", "corpus", "encoding", "implementation", "build", "heap", "first pass", "MB/s", "build+pass")
	for _, name := range strings.Split(*corpora, ",") {
		size := len(corpus.MustLoad(name))
		for _, enc := range []string{tokencount.Cl100kBase, tokencount.O200kBase} {
			var ragkitPass, ragkitTotal time.Duration
			for _, impl := range impls {
				build, heap, pass, total := median(*runs, impl, enc, name)
				ratio := ""
				if impl == "ragkit" {
					ragkitPass, ragkitTotal = pass, total
				} else {
					ratio = fmt.Sprintf("  ragkit %.1fx faster (%.1fx with the build)",
						float64(pass)/float64(ragkitPass), float64(total)/float64(ragkitTotal))
				}
				fmt.Printf("%-22s %-12s %-22s %10s %6.1f MB %12s %9.1f %12s%s\n", name, enc, impl,
					build.Round(10*time.Microsecond), float64(heap)/1e6, pass.Round(10*time.Microsecond),
					float64(size)/pass.Seconds()/1e6, total.Round(10*time.Microsecond), ratio)
			}
		}
	}
}

// median runs the child n times and returns the median build time, heap
// of the tables, first-pass time and build plus first pass (the median of
// the sums, not the sum of the medians).
func median(n int, impl, enc, name string) (build time.Duration, heap int64, pass, total time.Duration) {
	var builds, passes, totals []time.Duration
	var heaps []int64
	for range n {
		out, err := exec.Command(os.Args[0], "-child", impl, enc, name).Output()
		if err != nil {
			fmt.Fprintln(os.Stderr, "coldcount:", impl, enc, name, err)
			os.Exit(1)
		}
		var b, p time.Duration
		var h int64
		if _, err := fmt.Sscan(string(out), &b, &h, &p); err != nil {
			fmt.Fprintln(os.Stderr, "coldcount: bad child output:", string(out))
			os.Exit(1)
		}
		builds, heaps, passes, totals = append(builds, b), append(heaps, h), append(passes, p), append(totals, b+p)
	}
	slices.Sort(builds)
	slices.Sort(heaps)
	slices.Sort(passes)
	slices.Sort(totals)
	return builds[n/2], heaps[n/2], passes[n/2], totals[n/2]
}

// measure builds one implementation's encoding and counts one text once,
// printing both durations in nanoseconds and, between them, the bytes of
// heap the encoding keeps after the pass (its tables, and any cache).
func measure(impl, enc, name string) {
	text := corpus.MustLoad(name)
	var count func(string) int
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	switch impl {
	case "ragkit":
		t, err := tokencount.Encoding(enc)
		check(err)
		count = t.Count
	case "tiktoken-go":
		tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
		t, err := tiktoken.GetEncoding(enc)
		check(err)
		count = func(s string) int { return len(t.EncodeOrdinary(s)) }
	case "tiktoken-go-tokenizer":
		c, err := tokenizer.Get(tokenizer.Encoding(enc))
		check(err)
		count = func(s string) int { n, _ := c.Count(s); return n }
	}
	build := time.Since(start)
	start = time.Now()
	count(text)
	pass := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(count)
	fmt.Println(int64(build), int64(after.HeapAlloc)-int64(before.HeapAlloc), int64(pass))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
