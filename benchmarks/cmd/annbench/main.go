// Command annbench measures the approximate index of memory.Store
// (memory.IndexConfig, IVF over the compact codes) against exact search:
// build time, query p50 and p95 with recall@10 over a sweep of the search
// width (Probes), heap per record, and filtered queries at 1% and 10%
// selectivity, with the exact float32 and exact compact stores timed in
// the same run.
//
//	cd benchmarks && go run ./cmd/annbench [-n 100000] [-dim 384] [-probes 4,8,16,32,64] [-random]
//
// The data is clustered as real embeddings are, in few intrinsic
// dimensions (-clusters centres in -latent dimensions, each record its
// centre plus Gaussian noise of -spread per component, mapped into -dim
// dimensions by a fixed random matrix; a nearest neighbour is far from a
// copy: the command prints the mean cosine of the queries' nearest
// neighbours), or with -random uniformly
// random directions, on which no index is good. The queries are held out
// from the same generator; the ground truth is the exact float32 store's.
// Every record has the metadata "p", a number from 0 to 99 unrelated to
// its vector: the 1% filter is p = 7, the 10% filter p in 0..9.
//
// The engines are interleaved query by query (exact, compact, then the
// index at each width), so that load from other processes on a shared
// machine hits them alike; the times are still wall-clock times of one
// query at a time, and move with the machine's load.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

var ctx = context.Background()

func main() {
	n := flag.Int("n", 100_000, "records")
	dim := flag.Int("dim", 384, "dimensions")
	clusters := flag.Int("clusters", 0, "clusters of the data (0: n/100, at least 10)")
	spread := flag.Float64("spread", 0.8, "noise per component around a cluster's centre, relative to the centre's")
	latent := flag.Int("latent", 32, "intrinsic dimensions of the clustered data")
	random := flag.Bool("random", false, "random unit vectors instead of clusters")
	queries := flag.Int("queries", 200, "held-out queries")
	k := flag.Int("k", 10, "hits per query")
	probeList := flag.String("probes", "4,8,16,32,64,128", "search widths to sweep, comma-separated")
	filterProbes := flag.Int("fprobes", memory.DefaultProbes, "search width of the filtered queries")
	noFloat := flag.Bool("nofloat", false, "no exact float32 store (saves 4 bytes a component); the exact compact store is then the ground truth")
	flag.Parse()
	probes, err := parseInts(*probeList)
	if err != nil || *n <= 0 || *dim <= 0 || *queries <= 0 || *k <= 0 {
		fmt.Fprintln(os.Stderr, "annbench: bad flags")
		os.Exit(2)
	}
	if *clusters == 0 {
		*clusters = max(10, *n/100)
	}
	if *random {
		*clusters = 0
	}
	gen := newGenerator(*dim, *latent, *clusters, *spread)
	fmt.Printf("annbench: %d x %d, %s, k = %d, %d queries, GOMAXPROCS %d\n", *n, *dim, gen, *k, *queries, runtime.GOMAXPROCS(0))

	stores := map[string]*memory.Store{}
	if !*noFloat {
		stores["exact"] = must(memory.New(memory.Config{}))
	}
	stores["compact"] = must(memory.New(memory.Config{Compact: true}))
	ivf := must(memory.New(memory.Config{Compact: true, Index: memory.IndexConfig{IVF: true}}))
	var build, buildCompact time.Duration
	const batch = 1000
	for lo := 0; lo < *n; lo += batch {
		recs := gen.records(lo, min(lo+batch, *n))
		t0 := time.Now()
		check(ivf.Upsert(ctx, recs...))
		build += time.Since(t0)
		t0 = time.Now()
		check(stores["compact"].Upsert(ctx, recs...))
		buildCompact += time.Since(t0)
		if s := stores["exact"]; s != nil {
			check(s.Upsert(ctx, recs...))
		}
	}
	t0 := time.Now()
	check(ivf.Retrain(ctx))
	retrain := time.Since(t0)
	fmt.Printf("build: %v with the index (upserts of %d, the trainings included), %v compact without; Retrain %v\n",
		build.Round(time.Millisecond), batch, buildCompact.Round(time.Millisecond), retrain.Round(time.Millisecond))

	qs := gen.queries(*queries)
	truthStore := stores["exact"]
	if truthStore == nil {
		truthStore = stores["compact"]
	}
	var nnCos float64
	type cell struct {
		times  []time.Duration
		recall float64
	}
	names := []string{}
	if stores["exact"] != nil {
		names = append(names, "exact")
	}
	names = append(names, "compact")
	for _, p := range probes {
		names = append(names, "ivf/"+strconv.Itoa(p))
	}
	run := func(filter vectorstore.Filter, names []string, probesOf func(string) int) map[string]*cell {
		cells := map[string]*cell{}
		for _, name := range names {
			cells[name] = &cell{}
		}
		for _, q := range qs {
			truth := must(truthStore.Query(ctx, q, *k, filter))
			if filter.IsZero() && len(truth) > 0 {
				nnCos += float64(truth[0].Score)
			}
			want := map[string]bool{}
			for _, h := range truth {
				want[h.ID] = true
			}
			for _, name := range names {
				s := ivf
				if p := probesOf(name); p > 0 {
					check(ivf.SetProbes(p))
				} else {
					s = stores[name]
				}
				t0 := time.Now()
				hits := must(s.Query(ctx, q, *k, filter))
				cells[name].times = append(cells[name].times, time.Since(t0))
				got := 0
				for _, h := range hits {
					if want[h.ID] {
						got++
					}
				}
				cells[name].recall += float64(got) / float64(max(1, len(truth))) / float64(len(qs))
			}
		}
		return cells
	}
	probesOf := func(name string) int {
		if p, ok := strings.CutPrefix(name, "ivf/"); ok {
			v, _ := strconv.Atoi(p)
			return v
		}
		return 0
	}
	cells := run(vectorstore.Filter{}, names, probesOf)
	fmt.Printf("mean cosine of a query's nearest neighbour: %.3f\n\n", nnCos/float64(len(qs)))
	fmt.Printf("| search | probes | p50 ms | p95 ms | recall@%d |\n|---|---:|---:|---:|---:|\n", *k)
	for _, name := range names {
		c := cells[name]
		p50, p95 := percentiles(c.times)
		label, pr := name, "-"
		if p := probesOf(name); p > 0 {
			label, pr = "ivf", strconv.Itoa(p)
		}
		fmt.Printf("| %s | %s | %.3f | %.3f | %.3f |\n", label, pr, p50, p95, c.recall)
	}

	fmt.Printf("\n| filter | search | p50 ms | p95 ms | recall@%d |\n|---|---|---:|---:|---:|\n", *k)
	tenth := make([]string, 10)
	for i := range tenth {
		tenth[i] = strconv.Itoa(i)
	}
	fnames := slices.Clone(names[:len(names)-len(probes)])
	fnames = append(fnames, "ivf/"+strconv.Itoa(*filterProbes))
	for _, f := range []struct {
		name   string
		filter vectorstore.Filter
	}{
		{"1%", vectorstore.Filter{Where: vectorstore.Eq("p", "7")}},
		{"10%", vectorstore.Filter{Where: vectorstore.In("p", tenth...)}},
	} {
		cells := run(f.filter, fnames, probesOf)
		for _, name := range fnames {
			p50, p95 := percentiles(cells[name].times)
			fmt.Printf("| %s | %s | %.3f | %.3f | %.3f |\n", f.name, name, p50, p95, cells[name].recall)
		}
	}

	// Heap per record: the index's store alone, after the others are gone.
	clear(stores)
	truthStore = nil
	runtime.GC()
	withIndex := heap()
	check(ivf.Close())
	runtime.GC()
	fmt.Printf("\nheap of the store with the index: %.0f bytes a record (vector codes, record, indexes, one metadata pair)\n",
		float64(withIndex-heap())/float64(*n))
}

// generator makes the records and queries of a run deterministically.
type generator struct {
	dim, latent int
	centres     [][]float32
	proj        []float32 // dim x latent
	spread      float64
}

// newGenerator makes a generator of clustered vectors of low intrinsic
// dimension, as real embeddings are: clusters centres in a space of
// latent dimensions, each vector its centre plus Gaussian noise of spread
// per component (relative to the centres'), mapped into dim dimensions by
// a fixed random matrix, plus a little noise of its own. Clusters drawn
// directly in hundreds of dimensions would be orthogonal to each other,
// and any index would find every neighbour in the first list it probes.
// With clusters == 0 the vectors are random directions.
func newGenerator(dim, latent, clusters int, spread float64) *generator {
	r := rand.New(rand.NewPCG(1, uint64(dim)))
	g := &generator{dim: dim, latent: latent, spread: spread}
	for range clusters {
		g.centres = append(g.centres, gauss(r, latent))
	}
	if clusters > 0 {
		g.proj = gauss(r, dim*latent)
	}
	return g
}

func (g *generator) String() string {
	if len(g.centres) == 0 {
		return "random unit vectors"
	}
	return fmt.Sprintf("%d clusters in %d latent dimensions, spread %.2f", len(g.centres), g.latent, g.spread)
}

func (g *generator) vector(r *rand.Rand) []float32 {
	v := gauss(r, g.dim)
	if len(g.centres) == 0 {
		return v
	}
	c := g.centres[r.IntN(len(g.centres))]
	z := gauss(r, g.latent)
	for j := range z {
		z[j] = c[j] + float32(g.spread)*z[j]
	}
	for i := range v {
		row := g.proj[i*g.latent : (i+1)*g.latent]
		var x float32
		for j, p := range row {
			x += p * z[j]
		}
		v[i] = x + 0.1*float32(math.Sqrt(float64(g.latent)))*v[i]
	}
	return v
}

// records returns records lo to hi, each from a generator of its own so
// that a record does not depend on how the run is batched.
func (g *generator) records(lo, hi int) []vectorstore.Record {
	out := make([]vectorstore.Record, 0, hi-lo)
	for i := lo; i < hi; i++ {
		r := rand.New(rand.NewPCG(2, uint64(i)))
		out = append(out, vectorstore.Record{
			ID: fmt.Sprintf("r%08d", i), DocID: fmt.Sprintf("d%d", i/10), Index: i % 10,
			Vector:   g.vector(r),
			Metadata: map[string]string{"p": strconv.Itoa(r.IntN(100))},
		})
	}
	return out
}

func (g *generator) queries(n int) [][]float32 {
	r := rand.New(rand.NewPCG(3, 3))
	out := make([][]float32, n)
	for i := range out {
		out[i] = g.vector(r)
	}
	return out
}

func gauss(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// percentiles returns the median and the 95th percentile, in ms.
func percentiles(ts []time.Duration) (p50, p95 float64) {
	s := slices.Clone(ts)
	slices.Sort(s)
	at := func(q float64) float64 {
		return float64(s[min(len(s)-1, int(math.Ceil(q*float64(len(s))))-1)]) / 1e6
	}
	return at(0.5), at(0.95)
}

func heap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("bad width %q", f)
		}
		out = append(out, v)
	}
	return out, nil
}

func must[T any](v T, err error) T {
	check(err)
	return v
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "annbench:", err)
		os.Exit(1)
	}
}
