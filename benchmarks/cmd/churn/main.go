// Command churn measures how many chunks a small edit changes: for each
// corpus, chunk size and splitter it splits the text, then makes
// one-sentence edits at -edits random sentences (the same for every
// splitter), splits each edited text, and counts the chunks of the edited
// text that are not byte-identical to a chunk of the original. Those are
// the chunks an indexer would have to embed again.
//
//	cd benchmarks && go run ./cmd/churn
//	cd benchmarks && go run ./cmd/churn -corpora room_with_a_view.txt -sizes 128 -edits 50 -splitters ragkit-balanced
//
// The splitters: ragkit's chunker with the Balanced and the Greedy
// strategy, "recursive", the greedy baseline of benchmarks/eval (LangChain's
// RecursiveCharacterTextSplitter with a token count), and, if asked for,
// "langchaingo-recursive", langchaingo's own.
//
// Three edits are made at each place: the sentence deleted (with the
// spaces after it; only sentences that share their line with another
// are chosen, so that no paragraph disappears), a word inserted before one
// of its words, and one of its words replaced by another. It prints, as a
// Markdown table, the mean chunks changed per edit of each kind and over
// all of them, the mean over deletions and insertions (the edits issue 20
// names), the most changed by one edit, and the mean and least share of the
// edited text's chunks that were kept. With -stretch, ragkit's balanced
// chunker is measured at each chunker.Config.StretchChunks given, so that
// its trade of chunk count against churn shows in one table.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"unicode"

	"github.com/ragkit/ragkit/benchmarks/internal/corpus"
	"github.com/ragkit/ragkit/benchmarks/internal/peers"
	"github.com/ragkit/ragkit/chunker"
	"github.com/ragkit/ragkit/segment"
	"github.com/ragkit/ragkit/tokencount"
	"github.com/tmc/langchaingo/textsplitter"
)

var defaultCorpora = []string{"room_with_a_view.txt", "romeo_and_juliet.txt", "sherlock_1661.txt", "commonmark_spec.md"}

var allSplitters = []string{"ragkit-balanced", "ragkit-greedy", "recursive", "langchaingo-recursive"}

var defaultSplitters = allSplitters[:3]

func main() {
	corpora := flag.String("corpora", strings.Join(defaultCorpora, ","), "comma-separated corpus names")
	sizes := flag.String("sizes", "128,512", "comma-separated MaxTokens")
	edits := flag.Int("edits", 20, "places edited per corpus")
	seed := flag.Uint64("seed", 1, "seed of the random places")
	which := flag.String("splitters", strings.Join(defaultSplitters, ","), "comma-separated splitters: "+strings.Join(allSplitters, ", "))
	stretches := flag.String("stretch", "0", "comma-separated chunker StretchChunks values for ragkit-balanced (0: the default)")
	flag.Parse()
	maxes, err := parseSizes(*sizes)
	if err != nil {
		fail(err)
	}
	stretch, err := parseInts(*stretches, 0)
	if err != nil {
		fail(err)
	}
	tok, err := tokencount.Encoding("cl100k_base")
	if err != nil {
		fail(err)
	}
	fmt.Println("| corpus | max | splitter | chunks | delete | insert | replace | mean | delete+insert | most | kept (least) |")
	fmt.Println("|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, name := range strings.Split(*corpora, ",") {
		text, err := corpus.Load(name)
		if err != nil {
			fail(err)
		}
		places := editPlaces(text, *edits, *seed)
		for _, max := range maxes {
			for _, sp := range strings.Split(*which, ",") {
				for _, sc := range stretchesFor(sp, stretch) {
					split, err := newSplitter(sp, name, max, sc, tok)
					if err != nil {
						fail(err)
					}
					r, err := measure(split, text, places)
					if err != nil {
						fail(fmt.Errorf("%s on %s at %d: %w", sp, name, max, err))
					}
					label := sp
					if sc != 0 {
						label += "/" + strconv.Itoa(sc)
					}
					fmt.Printf("| %s | %d | %s | %s |\n", name, max, label, r)
				}
			}
		}
	}
}

func parseSizes(list string) ([]int, error) { return parseInts(list, 1) }

// parseInts parses a comma-separated list of integers of at least least.
func parseInts(list string, least int) ([]int, error) {
	var out []int
	for _, s := range strings.Split(list, ",") {
		n, err := strconv.Atoi(s)
		if err != nil || n < least {
			return nil, fmt.Errorf("bad value %q", s)
		}
		out = append(out, n)
	}
	return out, nil
}

// stretchesFor returns the StretchChunks values to measure splitter sp
// with: those asked for where sp is ragkit's balanced chunker, which alone
// has them, and a single 0 otherwise.
func stretchesFor(sp string, stretch []int) []int {
	if sp == "ragkit-balanced" {
		return stretch
	}
	return []int{0}
}

type splitFunc func(string) ([]string, error)

func newSplitter(name, corpusName string, max, stretch int, tok tokencount.Tokenizer) (splitFunc, error) {
	format := peers.FormatOf(corpusName)
	switch name {
	case "ragkit-balanced", "ragkit-greedy":
		cfg := chunker.Config{Tokenizer: tok, MaxTokens: max, Format: format, StretchChunks: stretch}
		if name == "ragkit-greedy" {
			cfg.Strategy = chunker.Greedy
		}
		return peers.Chunker(cfg)
	case "recursive":
		return peers.Recursive(tok, max, format), nil
	case "langchaingo-recursive":
		rec := textsplitter.NewRecursiveCharacter(
			textsplitter.WithChunkSize(max),
			textsplitter.WithChunkOverlap(0),
			textsplitter.WithLenFunc(tok.Count),
		)
		return rec.SplitText, nil
	}
	return nil, fmt.Errorf("unknown splitter %q", name)
}

// An edit replaces text[start:end] with insert.
type edit struct {
	start, end int
	insert     string
}

func (e edit) apply(text string) string { return text[:e.start] + e.insert + text[e.end:] }

// A place is a sentence and its three edits, in the order of the table's
// columns.
type place [3]edit

// editPlaces picks n sentences at random, among those of at least four
// words that share their line with another sentence, and makes their
// edits.
func editPlaces(text string, n int, seed uint64) []place {
	sents := segment.Sentences(text)
	r := rand.New(rand.NewPCG(seed, 0))
	var out []place
	for tries := 0; len(out) < n && tries < 100*n; tries++ {
		i := r.IntN(len(sents))
		if p, ok := makePlace(text, sents, i, r); ok {
			out = append(out, p)
		}
	}
	return out
}

func makePlace(text string, sents []segment.Span, i int, r *rand.Rand) (place, bool) {
	s := sents[i]
	var words []segment.Span
	for _, w := range segment.Words(text[s.Start:s.End]) {
		if isWord(text[s.Start+w.Start : s.Start+w.End]) {
			words = append(words, segment.Span{Start: s.Start + w.Start, End: s.Start + w.End})
		}
	}
	if len(words) < 4 {
		return place{}, false
	}
	var del edit
	switch {
	case i+1 < len(sents) && !strings.ContainsAny(text[s.End:sents[i+1].Start], "\r\n"):
		del = edit{start: s.Start, end: sents[i+1].Start}
	case i > 0 && !strings.ContainsAny(text[sents[i-1].End:s.Start], "\r\n"):
		del = edit{start: sents[i-1].End, end: s.End}
	default:
		return place{}, false
	}
	w := words[1+r.IntN(len(words)-1)] // not the first: keep the capital
	ins := edit{start: w.Start, end: w.Start, insert: "very "}
	rep := edit{start: w.Start, end: w.End, insert: "something"}
	if text[w.Start:w.End] == "something" {
		rep.insert = "anything"
	}
	return place{del, ins, rep}, true
}

func isWord(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return s != ""
}

type result struct {
	chunks     int
	byKind     [3]float64 // mean churn per edit of each kind
	mean       float64
	most       int
	kept       float64 // mean share of the edited text's chunks kept
	leastKept  float64
	editsTotal int
}

func (r result) String() string {
	return fmt.Sprintf("%d | %.1f | %.1f | %.1f | %.2f | %.2f | %d | %.1f%% (%.1f%%)",
		r.chunks, r.byKind[0], r.byKind[1], r.byKind[2], r.mean, (r.byKind[0]+r.byKind[1])/2, r.most, 100*r.kept, 100*r.leastKept)
}

// measure splits text and each edited text, and sums up the churn.
func measure(split splitFunc, text string, places []place) (result, error) {
	old, err := split(text)
	if err != nil {
		return result{}, err
	}
	have := make(map[string]bool, len(old))
	for _, c := range old {
		have[c] = true
	}
	res := result{chunks: len(old), leastKept: 1}
	var sum [3]int
	for _, p := range places {
		for k, e := range p {
			chunks, err := split(e.apply(text))
			if err != nil {
				return result{}, err
			}
			changed := 0
			for _, c := range chunks {
				if !have[c] {
					changed++
				}
			}
			sum[k] += changed
			res.most = max(res.most, changed)
			kept := 1 - float64(changed)/float64(len(chunks))
			res.kept += kept
			res.leastKept = min(res.leastKept, kept)
			res.editsTotal++
		}
	}
	total := 0
	for k := range sum {
		res.byKind[k] = float64(sum[k]) / float64(len(places))
		total += sum[k]
	}
	res.mean = float64(total) / float64(res.editsTotal)
	res.kept /= float64(res.editsTotal)
	return res, nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "churn:", err)
	os.Exit(1)
}
