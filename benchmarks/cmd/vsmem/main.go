// Command vsmem prints the memory of a memory.Store per record once
// writes stop: the live heap the store holds after a garbage collection,
// divided by its records, against the bytes of the records' vectors and
// texts. The store is filled a document at a time (-perdoc records per
// Upsert), as an indexer writes it, from random unit vectors and, with
// -words, texts cut from a corpus.
//
//	cd benchmarks && go run ./cmd/vsmem [-cases 10000x384,100000x1536] [-words 0,100]
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/ragkit/ragkit/benchmarks/internal/corpus"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

func main() {
	cases := flag.String("cases", "10000x384,100000x384,300000x384,10000x1536,100000x1536,300000x1536", "store sizes NxDIM, comma-separated")
	words := flag.String("words", "0", "words of text per record, comma-separated (0: no text)")
	perDoc := flag.Int("perdoc", 20, "records per Upsert (one document)")
	flag.Parse()
	prose := strings.Fields(corpus.MustLoad("room_with_a_view.txt"))
	fmt.Printf("%8s %5s %6s %9s %21s %6s\n", "records", "dim", "words", "B/record", "vector+text B/record", "ratio")
	for _, c := range strings.Split(*cases, ",") {
		ns, ds, _ := strings.Cut(c, "x")
		n, err1 := strconv.Atoi(ns)
		dim, err2 := strconv.Atoi(ds)
		if err1 != nil || err2 != nil || n <= 0 || dim <= 0 {
			fmt.Fprintf(os.Stderr, "vsmem: bad case %q: want NxDIM\n", c)
			os.Exit(2)
		}
		for _, w := range strings.Split(*words, ",") {
			nw, err := strconv.Atoi(w)
			if err != nil || nw < 0 {
				fmt.Fprintf(os.Stderr, "vsmem: bad -words %q\n", w)
				os.Exit(2)
			}
			total, payload := measure(n, dim, nw, *perDoc, prose)
			fmt.Printf("%8d %5d %6d %9.0f %21.0f %6.3f\n", n, dim, nw,
				float64(total)/float64(n), float64(payload)/float64(n), float64(total)/float64(payload))
		}
	}
}

// measure fills a store and returns the heap it holds and the bytes of its
// vectors and texts.
func measure(n, dim, words, perDoc int, prose []string) (total, payload uint64) {
	r := rand.New(rand.NewPCG(uint64(n), uint64(dim)))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m, err := memory.New(memory.Config{})
	check(err)
	at := 0
	for d := 0; d*perDoc < n; d++ {
		batch := make([]vectorstore.Record, min(perDoc, n-d*perDoc))
		for i := range batch {
			v := make([]float32, dim)
			for j := range v {
				v[j] = float32(r.NormFloat64())
			}
			var text string
			if words > 0 {
				if at+words > len(prose) {
					at = 0
				}
				text = strings.Join(prose[at:at+words], " ")
				at += words
			}
			payload += uint64(4*dim + len(text))
			batch[i] = vectorstore.Record{ID: fmt.Sprintf("doc%06d#%d", d, i), DocID: fmt.Sprintf("doc%06d", d), Index: i, Text: text, Vector: v}
		}
		check(m.Upsert(context.Background(), batch...))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(m)
	return after.HeapAlloc - min(before.HeapAlloc, after.HeapAlloc), payload
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "vsmem:", err)
		os.Exit(1)
	}
}
