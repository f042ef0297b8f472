// Command vsbench prints the vector store comparison as tables: query time
// of ragkit's Memory store (float32 and compact) against the bare parallel
// dot-product pass and chromem-go, allocations per query, memory per stored
// vector, Upsert time per record, and the compact mode's recall@10 on random
// vectors and on the lexical embedder's vectors of the corpora.
//
//	go run ./cmd/vsbench [-sizes 1000,10000,100000] [-dims 384,1536] [-rounds 5] [-queries 5] [-mintime 20ms]
//
// The machine may be shared: the engines take turns, and the table shows
// each one's best query time, which is what load from elsewhere can only
// make worse, with the medians beside it. In each round an engine answers
// at least -queries queries and keeps answering for at least -mintime, so
// that small stores, whose queries take tens of microseconds, are timed
// on hundreds of queries rather than a handful: their best and median then
// vary much less from run to run. -mintime 0 gives exactly -queries per
// round.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	chromem "github.com/philippgille/chromem-go"

	"github.com/ragkit/ragkit/benchmarks/cmd/vsbench/harness"
	"github.com/ragkit/ragkit/vectorstore"
)

func main() {
	sizes := flag.String("sizes", "1000,10000,100000", "store sizes, comma-separated")
	dims := flag.String("dims", "384,1536", "dimensions, comma-separated")
	rounds := flag.Int("rounds", 5, "rounds in which the engines take turns")
	perRound := flag.Int("queries", 5, "least queries per engine per round")
	minTime := flag.Duration("mintime", 20*time.Millisecond, "least time per engine per round")
	flag.Parse()
	ns, ds := ints(*sizes), ints(*dims)
	fmt.Printf("vsbench: %s/%s, GOMAXPROCS %d, k=%d; query times are the best of the queries each engine answered in %d interleaved rounds, at least %d and %v per round (count and medians at the right)\n\n",
		runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), harness.K, *rounds, *perRound, *minTime)
	queryTable(ns, ds, *rounds, *perRound, *minTime)
	upsertTable(ns)
	lexicalTable(ds)
}

func ints(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			fmt.Fprintln(os.Stderr, "vsbench:", err)
			os.Exit(2)
		}
		out = append(out, n)
	}
	return out
}

// engine is one contestant of the query table.
type engine struct {
	name  string
	query func(q []float32)
	times []time.Duration
	alloc float64
}

// measure times each engine on perRound queries per round, and more until
// it has taken minTime in that round, the engines taking turns round by
// round so that a burst of load from elsewhere on the machine hits them
// alike. It keeps every query's time; best and median are taken from
// them.
func measure(rounds, perRound int, minTime time.Duration, queries [][]float32, engines []*engine) {
	var ms runtime.MemStats
	qi := 0
	for range rounds {
		for _, e := range engines {
			runtime.ReadMemStats(&ms)
			before, n := ms.Mallocs, 0
			turn := time.Now()
			for ; n < perRound || time.Since(turn) < minTime; n++ {
				q := queries[qi%len(queries)]
				qi++
				start := time.Now()
				e.query(q)
				e.times = append(e.times, time.Since(start))
			}
			runtime.ReadMemStats(&ms)
			e.alloc = float64(ms.Mallocs-before) / float64(n)
		}
	}
	for _, e := range engines {
		slices.Sort(e.times)
	}
}

func (e *engine) best() time.Duration   { return e.times[0] }
func (e *engine) median() time.Duration { return e.times[len(e.times)/2] }

func ms(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d)/1e6) }

func queryTable(ns, ds []int, rounds, perRound int, minTime time.Duration) {
	ctx := context.Background()
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "Query, ms\tn\tdim\tfloor-plain\tfloor\tragkit\tcompact\tchromem\tragkit/floor\tchromem/ragkit\tfloor/compact\tallocs ragkit\tallocs compact\tallocs chromem\tB/vec float\tB/vec compact\tB/vec chromem\trecall@10 compact\tqueries timed: ragkit\tmedians: floor-plain floor ragkit compact chromem\t")
	for _, n := range ns {
		for _, dim := range ds {
			d := harness.Random(n, dim)
			exact, fb := harness.HeapBytes(func() *vectorstore.Memory { return harness.NewMemory(d, false) })
			compact, cb := harness.HeapBytes(func() *vectorstore.Memory { return harness.NewMemory(d, true) })
			chrom, hb := harness.HeapBytes(func() *chromem.Collection { return harness.NewChromem(d) })
			plain, unrolled := harness.NewFloor(d, false), harness.NewFloor(d, true)
			es := []*engine{
				{name: "floor-plain", query: plain.Run},
				{name: "floor", query: unrolled.Run},
				{name: "ragkit", query: func(q []float32) { exact.Query(ctx, q, harness.K, vectorstore.Filter{}) }},
				{name: "compact", query: func(q []float32) { compact.Query(ctx, q, harness.K, vectorstore.Filter{}) }},
				{name: "chromem", query: func(q []float32) { chrom.QueryEmbedding(ctx, q, harness.K, nil, nil) }},
			}
			for _, e := range es { // warm up
				e.query(d.Queries[0])
			}
			measure(rounds, perRound, minTime, d.Queries, es)
			tPlain, tFloor, tExact, tCompact, tChrom := es[0].best(), es[1].best(), es[2].best(), es[3].best(), es[4].best()
			recall, err := harness.Recall(d, exact, compact)
			if err != nil {
				fmt.Fprintln(os.Stderr, "vsbench:", err)
				os.Exit(1)
			}
			medians := fmt.Sprintf("%s %s %s %s %s", ms(es[0].median()), ms(es[1].median()), ms(es[2].median()), ms(es[3].median()), ms(es[4].median()))
			fmt.Fprintf(tw, "\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%.2fx\t%.2fx\t%.2fx\t%.0f\t%.0f\t%.0f\t%d\t%d\t%d\t%.4f\t%d\t%s\t\n",
				n, dim, ms(tPlain), ms(tFloor), ms(tExact), ms(tCompact), ms(tChrom),
				float64(tExact)/float64(tFloor), float64(tChrom)/float64(tExact), float64(tFloor)/float64(tCompact),
				es[2].alloc, es[3].alloc, es[4].alloc, fb/uint64(n), cb/uint64(n), hb/uint64(n), recall, len(es[2].times), medians)
			exact.Close()
			compact.Close()
			d, chrom, plain, unrolled = nil, nil, nil, nil
			runtime.GC()
		}
	}
	tw.Flush()
	fmt.Println()
}

func upsertTable(ns []int) {
	ctx := context.Background()
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "Upsert, dim 384, best of 3\tn\tone call, ms\tns/record\tone per call, ms\tns/record\t")
	for _, n := range ns {
		recs := harness.Random(n, 384).Records()
		var cells []string
		for _, single := range []bool{false, true} {
			best := time.Duration(math.MaxInt64)
			for range 3 {
				runtime.GC()
				start := time.Now()
				m, _ := vectorstore.NewMemory(vectorstore.MemoryConfig{})
				if single {
					for _, r := range recs {
						m.Upsert(ctx, r)
					}
				} else {
					m.Upsert(ctx, recs...)
				}
				best = min(best, time.Since(start))
			}
			cells = append(cells, ms(best), fmt.Sprint(best.Nanoseconds()/int64(n)))
		}
		fmt.Fprintf(tw, "\t%d\t%s\t\n", n, strings.Join(cells, "\t"))
	}
	tw.Flush()
	fmt.Println()
}

func lexicalTable(ds []int) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "Lexical vectors of the corpora\tdim\tvectors\tqueries\trecall@10 compact\t")
	for _, dim := range ds {
		d, err := harness.Lexical(dim)
		if err != nil {
			fmt.Fprintln(os.Stderr, "vsbench:", err)
			os.Exit(1)
		}
		r, err := harness.Recall(d, harness.NewMemory(d, false), harness.NewMemory(d, true))
		if err != nil {
			fmt.Fprintln(os.Stderr, "vsbench:", err)
			os.Exit(1)
		}
		fmt.Fprintf(tw, "\t%d\t%d\t%d\t%.4f\t\n", dim, d.N, len(d.Queries), r)
	}
	tw.Flush()
}
