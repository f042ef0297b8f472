//go:build unix

// Command hfmeasure prints, in one run against the reference (the
// tokenizers npm package), what issue 28 asks to measure: load time,
// memory and counting throughput of package hf and of the reference on
// the same files and texts, and what counting with the wrong tokenizer
// (cl100k_base) costs an embedder and a prompt.
//
//	RAGKIT_HF_NODE_MODULES=/path/to/node_modules go run ./exactness/cmd/hfmeasure [-shared ../../shared] [-rounds 5]
//
// Run it from tokencount/hf. Times are wall clock on whatever else the
// machine is doing: compare the two columns of one run, not runs. Load
// is also given in CPU time (all threads of the process), which depends
// less on the machine's load.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/ragkit/ragkit/tokencount"
	"github.com/ragkit/ragkit/tokencount/hf"
	"github.com/ragkit/ragkit/tokencount/hf/exactness"
)

func main() {
	shared := flag.String("shared", filepath.Join("..", "..", "..", "shared"), "the shared data directory")
	rounds := flag.Int("rounds", 5, "timed rounds of each measurement")
	only := flag.String("only", "", "comma-separated vocabularies to measure (default all)")
	flag.Parse()
	nm := os.Getenv(exactness.EnvNodeModules)
	if nm == "" {
		fail(fmt.Errorf("%s must name the node_modules with the reference", exactness.EnvNodeModules))
	}
	dir, err := os.MkdirTemp("", "hfmeasure")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)

	prose := []string{"sherlock_1661.txt", "room_with_a_view.txt"}
	var texts []string
	size := 0
	for _, name := range prose {
		b, err := os.ReadFile(filepath.Join(*shared, "corpora", name))
		if err != nil {
			fail(err)
		}
		texts = append(texts, string(b))
		size += len(b)
	}
	textsPath := filepath.Join(dir, "texts.json")
	if err := writeJSON(textsPath, texts); err != nil {
		fail(err)
	}
	fmt.Printf("English prose: %s (%.2f MB); %d rounds; GOMAXPROCS %d\n\n", strings.Join(prose, ", "),
		float64(size)/1e6, *rounds, runtime.GOMAXPROCS(0))

	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "vocabulary\tfile MB\tload hf ms (min/med/max)\tload ref ms\tspeed-up\tload CPU hf ms\tref\tspeed-up\theap hf MB\tRSS ref MB\t"+
		"first count hf MB/s (min/med/max)\tref\tspeed-up\tsecond count hf MB/s\tref\tspeed-up\t")
	toks := map[string]*hf.Tokenizer{}
	for _, v := range exactness.Vocabs() {
		if *only != "" && !slices.Contains(strings.Split(*only, ","), v.Name) {
			continue
		}
		path, err := exactness.TokenizerPath(nm, dir, v)
		if err != nil {
			fail(err)
		}
		st, err := os.Stat(path)
		if err != nil {
			fail(err)
		}
		var loads, counts, warm, refLoads, refCounts, refWarm, loadCPU, refLoadCPU []float64
		var heap, rss float64
		var tok *hf.Tokenizer
		for r := range *rounds {
			// Alternate: one load and count here, one process of the
			// reference.
			var m0, m1 runtime.MemStats
			tok = nil
			runtime.GC() // twice: sync.Pool keeps its victims over one
			runtime.GC()
			runtime.ReadMemStats(&m0)
			c0 := cpuTime()
			t0 := time.Now()
			tok, err = hf.LoadFile(path, hf.Options{})
			if err != nil {
				fail(err)
			}
			loads = append(loads, ms(time.Since(t0)))
			loadCPU = append(loadCPU, ms(cpuTime()-c0))
			runtime.GC()
			runtime.ReadMemStats(&m1)
			heap = (float64(m1.HeapAlloc) - float64(m0.HeapAlloc)) / 1e6
			for pass := range 2 { // a new tokenizer's first pass fills its cache
				t1 := time.Now()
				for _, s := range texts {
					tok.Count(s)
				}
				mbs := float64(size) / 1e6 / time.Since(t1).Seconds()
				if pass == 0 {
					counts = append(counts, mbs)
				} else {
					warm = append(warm, mbs)
				}
			}
			if r < max(1, *rounds/2) { // the reference is slow: fewer processes
				var res struct {
					LoadMs    float64   `json:"loadMs"`
					LoadCPUMs float64   `json:"loadCpuMs"`
					EncodeMs  []float64 `json:"encodeMs"`
					RSSBefore float64   `json:"rssBefore"`
					RSS       float64   `json:"rss"`
				}
				if err := exactness.RunNode(nm, &res, "time", path, textsPath, "2"); err != nil {
					fail(err)
				}
				refLoads = append(refLoads, res.LoadMs)
				refLoadCPU = append(refLoadCPU, res.LoadCPUMs)
				refCounts = append(refCounts, float64(size)/1e6/(res.EncodeMs[0]/1e3))
				refWarm = append(refWarm, float64(size)/1e6/(res.EncodeMs[1]/1e3))
				rss = (res.RSS - res.RSSBefore) / 1e6
			}
		}
		toks[v.Name] = tok
		fmt.Fprintf(tw, "%s\t%.1f\t%s\t%s\t%.0fx\t%s\t%s\t%.0fx\t%.0f\t%.0f\t%s\t%s\t%.0fx\t%s\t%s\t%.0fx\t\n", v.Name, float64(st.Size())/1e6,
			triple(loads, "%.0f"), triple(refLoads, "%.0f"), median(refLoads)/median(loads),
			triple(loadCPU, "%.0f"), triple(refLoadCPU, "%.0f"), median(refLoadCPU)/median(loadCPU), heap, rss,
			triple(counts, "%.1f"), triple(refCounts, "%.2f"), median(counts)/median(refCounts),
			triple(warm, "%.1f"), triple(refWarm, "%.2f"), median(warm)/median(refWarm))
	}
	tw.Flush()
	fmt.Println()
	wrongTokenizer(*shared, toks)
}

// wrongTokenizer prints what sizing by cl100k_base costs: the chunks an
// embedder truncates, and how far a prompt budgeted in cl100k_base tokens
// runs over in another model's tokens.
func wrongTokenizer(shared string, toks map[string]*hf.Tokenizer) {
	cl, err := tokencount.Encoding(tokencount.Cl100kBase)
	if err != nil {
		fail(err)
	}
	corpora, err := exactness.Corpora(shared)
	if err != nil {
		fail(err)
	}
	bert := toks["bert-base-uncased"]
	fmt.Println("Chunked by cl100k_base at 512 tokens, counted by bert-base-uncased with [CLS] and [SEP] (a 512-token embedder):")
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "corpus\tchunks\tover 512\tshare\tlargest\t|\t4096-token prompts\tllama2 over (min/med/max)\tgemma3 over (min/med/max)\t")
	for _, x := range corpora {
		chunks := cut(cl, x.Text, 512)
		over, largest := 0, 0
		if bert != nil {
			for _, ch := range chunks {
				n := bert.Count(ch.text) + 2
				largest = max(largest, n)
				if n > 512 {
					over++
				}
			}
		}
		prompts := cut(cl, x.Text, 4096)
		var l2, g3 []float64
		for _, p := range prompts {
			if p.tokens < 2048 {
				continue // the short tail of the text
			}
			if t := toks["llama2"]; t != nil {
				l2 = append(l2, 100*float64(t.Count(p.text)-p.tokens)/float64(p.tokens))
			}
			if t := toks["gemma3"]; t != nil {
				g3 = append(g3, 100*float64(t.Count(p.text)-p.tokens)/float64(p.tokens))
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f%%\t%d\t|\t%d\t%s%%\t%s%%\t\n", strings.TrimPrefix(x.Name, "corpora/"), len(chunks), over,
			100*float64(over)/float64(len(chunks)), largest, len(l2), triple(l2, "%+.1f"), triple(g3, "%+.1f"))
	}
	tw.Flush()
}

// piece is a stretch of a text and its exact count by the tokenizer that
// sized it.
type piece struct {
	text   string
	tokens int
}

// cut cuts text into pieces of at most max tokens of t, each ending after
// a word where one fits (at a token end followed by white space), as an
// application sizes chunks and prompts by t. It stands in for package
// chunker, which this module (below chunker in ragkit's layers) does not
// import; the greedy cut sizes pieces as the chunker's Greedy strategy
// does, not as its balanced one.
func cut(t tokencount.Tokenizer, text string, max int) []piece {
	ends := tokencount.AppendTokenEnds(t, nil, text)
	var out []piece
	start, first := 0, 0 // the piece's start, and the index of its first token
	for first < len(ends) {
		last, word := min(first+max, len(ends))-1, -1
		for k := last; k >= first && last < len(ends)-1; k-- {
			if e := ends[k]; e < len(text) && (text[e] == ' ' || text[e] == '\n') {
				word = k
				break
			}
		}
		if word >= 0 {
			last = word
		}
		p := text[start:ends[last]]
		n := t.Count(p)
		for n > max && last > first { // a synthetic end that counts over
			last--
			p = text[start:ends[last]]
			n = t.Count(p)
		}
		out = append(out, piece{p, n})
		start, first = ends[last], last+1
	}
	return out
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }

// cpuTime is the CPU time the process has used, on all its threads.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// median is the middle value, or the mean of the two middle values of an
// even count (the reference runs in fewer rounds: often 2).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

func triple(xs []float64, f string) string {
	if len(xs) == 0 {
		return "-"
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return fmt.Sprintf(f+"/"+f+"/"+f, s[0], median(s), s[len(s)-1])
}

func writeJSON(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "hfmeasure:", err)
	os.Exit(1)
}
