// Command firstsplit measures the first Split of a text against the first
// Count of the same text, each in a fresh process: what a command or a
// serverless function that chunks one document pays. Every child process
// builds the encoding (not timed: coldcount measures it), then times one
// call, a Count or a Split, so that neither call warms the other's
// caches. Times are the process's CPU time on Linux (wall time
// elsewhere). Rounds alternate a Count process and a Split process; the
// command prints, for each corpus, format and MaxTokens, the min, median
// and max over the rounds of the Split time over the Count time of the
// same round, and the median times.
//
//	cd benchmarks && go run ./cmd/firstsplit -runs 7
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ragkit/ragkit/benchmarks/internal/corpus"
	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/tokencount"
)

func main() {
	runs := flag.Int("runs", 5, "rounds, each a fresh Count process and a fresh Split process")
	child := flag.Bool("child", false, "internal: measure once and print")
	corpora := flag.String("corpora", "room_with_a_view.txt,sherlock_1661.txt,commonmark_spec.md", "comma-separated corpus names")
	encs := flag.String("encodings", tokencount.Cl100kBase+","+tokencount.O200kBase, "comma-separated encodings")
	maxes := flag.String("max", "128,512", "comma-separated MaxTokens")
	flag.Parse()
	if *child {
		measure(flag.Args())
		return
	}
	fmt.Printf("%-22s %-12s %-8s %5s %10s %10s %7s %7s %7s\n", "corpus", "encoding", "format", "max", "count", "split", "min", "median", "max")
	for _, name := range strings.Split(*corpora, ",") {
		for _, enc := range strings.Split(*encs, ",") {
			for _, format := range []string{"Text", "Markdown"} {
				for _, max := range strings.Split(*maxes, ",") {
					var counts, splits []time.Duration
					var ratios []float64
					for range *runs {
						c := run("count", enc, name, format, max)
						s := run("split", enc, name, format, max)
						counts, splits = append(counts, c), append(splits, s)
						ratios = append(ratios, float64(s)/float64(c))
					}
					slices.Sort(counts)
					slices.Sort(splits)
					slices.Sort(ratios)
					n := len(ratios)
					fmt.Printf("%-22s %-12s %-8s %5s %10s %10s %7.2f %7.2f %7.2f\n", name, enc, format, max,
						counts[n/2].Round(10*time.Microsecond), splits[n/2].Round(10*time.Microsecond),
						ratios[0], ratios[n/2], ratios[n-1])
				}
			}
		}
	}
}

// run starts a child that times one call and returns its duration.
func run(call, enc, name, format, max string) time.Duration {
	out, err := exec.Command(os.Args[0], "-child", call, enc, name, format, max).Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "firstsplit:", call, enc, name, format, max, err)
		os.Exit(1)
	}
	ns, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, "firstsplit: bad child output:", string(out))
		os.Exit(1)
	}
	return time.Duration(ns)
}

// measure builds the encoding and the chunker, then times the first call
// of one kind and prints its nanoseconds.
func measure(args []string) {
	if len(args) != 5 {
		fmt.Fprintln(os.Stderr, "firstsplit: -child wants call, encoding, corpus, format, max")
		os.Exit(2)
	}
	call, enc, name, format, maxArg := args[0], args[1], args[2], args[3], args[4]
	text := corpus.MustLoad(name)
	tok, err := tokencount.Encoding(enc)
	check(err)
	max, err := strconv.Atoi(maxArg)
	check(err)
	cfg := chunker.Config{Tokenizer: tok, MaxTokens: max}
	if format == "Markdown" {
		cfg.Format = document.Markdown
	}
	c, err := chunker.New(cfg)
	check(err)
	start := cpuTime()
	switch call {
	case "count":
		tok.Count(text)
	case "split":
		_, err = c.Split(text)
		check(err)
	}
	fmt.Println(int64(cpuTime() - start))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "firstsplit:", err)
		os.Exit(1)
	}
}
