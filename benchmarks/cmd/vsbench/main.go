// Command vsbench prints the vector store comparison as tables: query time
// of ragkit's Memory store (float32 and compact) against an independent
// exact search (the floor) and chromem-go, allocations per query, memory
// per stored vector, Upsert time per record, and the compact mode's
// recall@10 on random vectors and on the lexical embedder's vectors of the
// corpora.
//
//	go run ./cmd/vsbench [-cases 10000x384,50000x1536] [-queries 30] [-mintime 1s]
//
// The floor (harness.Floor) is written here and uses nothing of
// vectorstore: one goroutine per CPU over a contiguous share of one slab,
// a plain indexed loop taking eight components per iteration into four
// accumulators, a small sorted top-k per goroutine. floor-naive is the
// same search with the one-accumulator loop chromem-go uses.
//
// The machine may be shared, so the engines are interleaved query by
// query: each query is answered by every engine in turn (the order
// rotating), at least -queries queries per case and for at least -mintime.
// Times are medians; the ratios are medians of the per-query ratios, so
// that a burst of load from elsewhere, which hits both sides of a pair
// alike, cancels out.
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
	"github.com/ragkit/ragkit/vectorstore/memory"
)

func main() {
	casesFlag := flag.String("cases", "1000x384,10000x384,100000x384,1000x1536,10000x1536,50000x1536,100000x1536", "store sizes NxDIM, comma-separated")
	perCase := flag.Int("queries", 30, "least queries per engine per case")
	minTime := flag.Duration("mintime", time.Second, "least time per case")
	flag.Parse()
	cs := parseCases(*casesFlag)
	fmt.Printf("vsbench: %s/%s, GOMAXPROCS %d, k=%d; times are medians, ms, of at least %d queries and %v per case, the engines interleaved query by query; ratios are medians of per-query ratios\n\n",
		runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), harness.K, *perCase, *minTime)
	queryTable(cs, *perCase, *minTime)
	var ns, ds []int
	for _, c := range cs {
		if c.dim == 384 && !slices.Contains(ns, c.n) {
			ns = append(ns, c.n)
		}
		if !slices.Contains(ds, c.dim) {
			ds = append(ds, c.dim)
		}
	}
	upsertTable(ns)
	lexicalTable(ds)
}

type testCase struct{ n, dim int }

func parseCases(s string) []testCase {
	var out []testCase
	for _, f := range strings.Split(s, ",") {
		n, dim, ok := strings.Cut(strings.TrimSpace(f), "x")
		c := testCase{atoi(n), atoi(dim)}
		if !ok || c.n <= 0 || c.dim <= 0 {
			fail(fmt.Errorf("bad case %q: want NxDIM", f))
		}
		out = append(out, c)
	}
	return out
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		fail(err)
	}
	return n
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "vsbench:", err)
	os.Exit(1)
}

// engine is one contestant of the query table.
type engine struct {
	name  string
	query func(q []float32)
	times []time.Duration // by query, in the order asked
	alloc float64
}

// measure has every engine answer the same query in turn, the order
// rotating from one query to the next, until each has answered perCase
// queries and minTime has passed.
func measure(perCase int, minTime time.Duration, queries [][]float32, engines []*engine) {
	start := time.Now()
	for i := 0; i < perCase || time.Since(start) < minTime; i++ {
		q := queries[i%len(queries)]
		for j := range engines {
			e := engines[(i+j)%len(engines)]
			t := time.Now()
			e.query(q)
			e.times = append(e.times, time.Since(t))
		}
	}
}

// allocs sets each engine's allocations per query, counted apart from the
// timed queries because reading them stops the world.
func allocs(queries [][]float32, engines []*engine) {
	var ms runtime.MemStats
	for _, e := range engines {
		runtime.ReadMemStats(&ms)
		before := ms.Mallocs
		for _, q := range queries[:8] {
			e.query(q)
		}
		runtime.ReadMemStats(&ms)
		e.alloc = float64(ms.Mallocs-before) / 8
	}
}

func (e *engine) best() time.Duration { return slices.Min(e.times) }

func (e *engine) median() time.Duration { return median(e.times) }

// ratio returns the median of e's time over o's, query by query.
func (e *engine) ratio(o *engine) float64 {
	r := make([]float64, len(e.times))
	for i := range r {
		r[i] = float64(e.times[i]) / float64(o.times[i])
	}
	return median(r)
}

func median[T time.Duration | float64](v []T) T {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d)/1e6) }

func queryTable(cs []testCase, perCase int, minTime time.Duration) {
	ctx := context.Background()
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "Query, ms\tn\tdim\tfloor\tfloor-naive\tragkit\tcompact\tchromem\tragkit/floor\tchromem/ragkit\tfloor/compact\tallocs ragkit\tallocs compact\tallocs chromem\tB/vec float\tB/vec compact\tB/vec chromem\trecall@10 compact\tqueries\tbest: floor ragkit compact chromem\t")
	for _, c := range cs {
		n, dim := c.n, c.dim
		d := harness.Random(n, dim)
		exact, fb := harness.HeapBytes(func() *memory.Store { return harness.NewMemory(d, false) })
		compact, cb := harness.HeapBytes(func() *memory.Store { return harness.NewMemory(d, true) })
		chrom, hb := harness.HeapBytes(func() *chromem.Collection { return harness.NewChromem(d) })
		floor, naive := harness.NewFloor(d, true), harness.NewFloor(d, false)
		if err := checkFloor(d, floor, exact); err != nil {
			fail(err)
		}
		es := []*engine{
			{name: "floor", query: floor.Run},
			{name: "floor-naive", query: naive.Run},
			{name: "ragkit", query: func(q []float32) { exact.Query(ctx, q, harness.K, vectorstore.Filter{}) }},
			{name: "compact", query: func(q []float32) { compact.Query(ctx, q, harness.K, vectorstore.Filter{}) }},
			{name: "chromem", query: func(q []float32) { chrom.QueryEmbedding(ctx, q, harness.K, nil, nil) }},
		}
		allocs(d.Queries, es) // also the warm-up
		measure(perCase, minTime, d.Queries, es)
		recall, err := harness.Recall(d, exact, compact)
		if err != nil {
			fail(err)
		}
		fl, nv, rk, cp, ch := es[0], es[1], es[2], es[3], es[4]
		bests := fmt.Sprintf("%s %s %s %s", ms(fl.best()), ms(rk.best()), ms(cp.best()), ms(ch.best()))
		fmt.Fprintf(tw, "\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%.2fx\t%.2fx\t%.2fx\t%.0f\t%.0f\t%.0f\t%d\t%d\t%d\t%.4f\t%d\t%s\t\n",
			n, dim, ms(fl.median()), ms(nv.median()), ms(rk.median()), ms(cp.median()), ms(ch.median()),
			rk.ratio(fl), ch.ratio(rk), fl.ratio(cp),
			rk.alloc, cp.alloc, ch.alloc, fb/uint64(n), cb/uint64(n), hb/uint64(n), recall, len(rk.times), bests)
		exact.Close()
		compact.Close()
		d, chrom, floor, naive = nil, nil, nil, nil
		runtime.GC()
	}
	tw.Flush()
	fmt.Println()
}

// checkFloor makes sure the floor is a real exact search: on a few
// queries it must find the records the store finds, except where two
// scores at the K-th place are within rounding of each other.
func checkFloor(d *harness.Dataset, floor *harness.Floor, exact *memory.Store) error {
	for qi, q := range d.Queries[:4] {
		hits, err := exact.Query(context.Background(), q, harness.K, vectorstore.Filter{})
		if err != nil {
			return err
		}
		kth := hits[len(hits)-1].Score
		found := map[string]bool{}
		for _, h := range hits {
			found[h.ID] = true
		}
		floor.Run(q)
		for _, i := range floor.Top() {
			if !found[d.IDs[i]] && dot64(q, d.Vector(i)) < float64(kth)-1e-5 {
				return fmt.Errorf("floor: query %d: vector %d is not among the store's top %d", qi, i, harness.K)
			}
		}
	}
	return nil
}

func dot64(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
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
				m, _ := memory.New(memory.Config{})
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
			fail(err)
		}
		r, err := harness.Recall(d, harness.NewMemory(d, false), harness.NewMemory(d, true))
		if err != nil {
			fail(err)
		}
		fmt.Fprintf(tw, "\t%d\t%d\t%d\t%.4f\t\n", dim, d.N, len(d.Queries), r)
	}
	tw.Flush()
}
