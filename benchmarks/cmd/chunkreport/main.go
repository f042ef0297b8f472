// Command chunkreport compares ragkit's chunker with langchaingo's text
// splitters on the corpora: for each corpus and chunk size it prints, as a
// Markdown table, the number of chunks (and the ideal, ceil(total tokens /
// MaxTokens)), the smallest, mean and largest chunk in cl100k_base tokens,
// the chunks over the maximum, the share of cuts at each kind of boundary,
// and the time of one split (the best of -runs).
//
//	cd benchmarks && go run ./cmd/chunkreport
//	cd benchmarks && go run ./cmd/chunkreport -corpora all -sizes 128,512,2048 -runs 3
//
// Every splitter's cuts are judged the same way, from the text around them
// (the chunker's own Boundary labels are not used): para, a blank line;
// sent, the start of a sentence by the segment package; line, a line break
// that does not wrap a sentence; clause, after , ; : or a dash; word, at
// white space; mid-word, inside a word (or a character).
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ragkit/ragkit/benchmarks/internal/corpus"
	"github.com/ragkit/ragkit/benchmarks/internal/peers"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
)

var targets = []string{"room_with_a_view.txt", "romeo_and_juliet.txt", "sherlock_1661.txt", "commonmark_spec.md", "github_flavored.md"}

// levels of cuts, strongest first.
var levels = []string{"para", "sent", "line", "clause", "word", "mid-word"}

func main() {
	corpora := flag.String("corpora", strings.Join(targets, ","), `comma-separated corpus names, or "all"`)
	sizes := flag.String("sizes", "128,512,2048", "comma-separated MaxTokens")
	runs := flag.Int("runs", 3, "splits per measurement; the best time is shown")
	flag.Parse()
	names := strings.Split(*corpora, ",")
	if *corpora == "all" {
		names = corpus.All
	}
	var maxes []int
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			fail(fmt.Errorf("bad size %q", s))
		}
		maxes = append(maxes, n)
	}
	tok, err := tokencount.Encoding("cl100k_base")
	if err != nil {
		fail(err)
	}
	fmt.Printf("| corpus | max | splitter | chunks (ideal) | min | mean | max | over | %s | ms |\n", strings.Join(levels, " | "))
	fmt.Printf("|---|--:|---|--:|--:|--:|--:|--:|%s--:|\n", strings.Repeat("--:|", len(levels)))
	for _, name := range names {
		text, err := corpus.Load(name)
		if err != nil {
			fail(err)
		}
		r := newReport(text, tok)
		for _, max := range maxes {
			sps, err := peers.Splitters(peers.FormatOf(name), max, tok)
			if err != nil {
				fail(err)
			}
			for _, sp := range sps {
				best := time.Duration(math.MaxInt64)
				var chunks []string
				for range *runs {
					start := time.Now()
					chunks, err = sp.Split(text)
					best = min(best, time.Since(start))
					if err != nil {
						fail(fmt.Errorf("%s on %s: %w", sp.Name, name, err))
					}
				}
				fmt.Println(r.row(name, max, sp.Name, chunks, best))
			}
		}
	}
}

type report struct {
	text   string
	tok    tokencount.Tokenizer
	total  int
	starts map[int]bool // sentence starts
	ends   map[int]bool // sentence ends
}

func newReport(text string, tok tokencount.Tokenizer) *report {
	r := &report{text: text, tok: tok, total: tok.Count(text), starts: map[int]bool{}, ends: map[int]bool{}}
	for _, s := range segment.Sentences(text) {
		r.starts[s.Start] = true
		r.ends[s.End] = true
	}
	return r
}

func (r *report) row(name string, limit int, splitter string, chunks []string, took time.Duration) string {
	spans := r.locate(chunks)
	n, lo, hi, sum, over := len(chunks), math.MaxInt, 0, 0, 0
	for _, c := range chunks {
		k := r.tok.Count(c)
		lo, hi, sum = min(lo, k), max(hi, k), sum+k
		if k > limit {
			over++
		}
	}
	var counts [6]int
	cuts := 0
	for i := 1; i < len(spans); i++ {
		if spans[i-1].End < 0 || spans[i].Start < 0 {
			continue
		}
		counts[r.classify(spans[i-1].End, spans[i].Start)]++
		cuts++
	}
	shares := make([]string, len(levels))
	for i := range levels {
		shares[i] = "–"
		if cuts > 0 && counts[i] > 0 {
			shares[i] = fmt.Sprintf("%.1f%%", 100*float64(counts[i])/float64(cuts))
		}
	}
	ideal := (r.total + limit - 1) / limit
	return fmt.Sprintf("| %s | %d | %s | %d (%d) | %d | %.0f | %d | %d | %s | %.1f |",
		name, limit, splitter, n, ideal, lo, float64(sum)/float64(n), hi, over, strings.Join(shares, " | "), float64(took.Microseconds())/1000)
}

// locate finds each chunk in the text, in order, trimmed of white space;
// a chunk not found verbatim (a splitter may rejoin pieces) is placed by
// its first and last bytes, and {-1, -1} if even that fails.
func (r *report) locate(chunks []string) []segment.Span {
	spans := make([]segment.Span, len(chunks))
	from := 0
	for i, c := range chunks {
		c = strings.TrimFunc(c, unicode.IsSpace)
		spans[i] = segment.Span{Start: -1, End: -1}
		if c == "" {
			continue
		}
		if k := strings.Index(r.text[from:], c); k >= 0 {
			spans[i] = segment.Span{Start: from + k, End: from + k + len(c)}
		} else {
			head, tail := c[:min(len(c), 32)], c[max(0, len(c)-32):]
			k := strings.Index(r.text[from:], head)
			if k < 0 {
				continue
			}
			start := from + k
			e := strings.Index(r.text[start:], tail)
			if e < 0 {
				continue
			}
			spans[i] = segment.Span{Start: start, End: start + e + len(tail)}
		}
		from = spans[i].End
	}
	return spans
}

// classify returns the level of a cut that ends a chunk at end and starts
// the next at start.
func (r *report) classify(end, start int) int {
	gap := r.text[min(end, start):start]
	switch {
	case strings.Count(gap, "\n") >= 2:
		return 0
	case r.starts[start] || r.ends[end] && gap != "":
		return 1
	}
	last, _ := utf8.DecodeLastRuneInString(r.text[:end])
	next, _ := utf8.DecodeRuneInString(r.text[start:])
	switch {
	case last == utf8.RuneError || next == utf8.RuneError:
		return 5 // inside a character
	case strings.ContainsAny(gap, "\r\n") && (unicode.IsPunct(last) || !unicode.IsLower(next)):
		return 2
	case strings.ContainsRune(",;:—–", last):
		return 3
	case gap != "" || !isWordRune(last) || !isWordRune(next):
		return 4
	}
	return 5
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "chunkreport:", err)
	os.Exit(1)
}
