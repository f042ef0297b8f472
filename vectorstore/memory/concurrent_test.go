package memory_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/stretchr/testify/require"
)

// TestConcurrentReadersAndWriters runs every method at once; run it with
// -race. Document "live" is re-indexed over and over with ReplaceDocument,
// each version with a different number of units whose texts name the
// version: a reader must never see two versions, or a version cut short,
// whether it reads by Range, by vector, by keywords or by both at once
// (every unit of "live" holds the word "live", so a keyword query for it
// finds a whole version).
func TestConcurrentReadersAndWriters(t *testing.T) {
	for _, compact := range []bool{false, true} {
		t.Run(fmt.Sprintf("compact=%v", compact), func(t *testing.T) {
			r := rand.New(rand.NewPCG(5, 5))
			m := newMemory(t, memory.Config{Compact: compact, Workers: 2}, makeRecords(r, 20, 40, 32)...)
			memory.ForceFanOut(m)
			version := func(v int) []vectorstore.Record {
				rr := rand.New(rand.NewPCG(uint64(v), 0))
				recs := make([]vectorstore.Record, 5+v%7)
				for i := range recs {
					recs[i] = vectorstore.Record{
						ID: fmt.Sprintf("live-%d-%d", v, i), DocID: "live", Index: i,
						Text: fmt.Sprintf("live v%d/%d", v, len(recs)), Vector: randVec(rr, 32),
					}
				}
				return recs
			}
			require.NoError(t, m.ReplaceDocument(bg, "live", version(0)...))
			var stop atomic.Bool
			var wg sync.WaitGroup
			errc := make(chan error, 16)
			fail := func(err error) {
				select {
				case errc <- err:
				default:
				}
				stop.Store(true)
			}
			wg.Add(1)
			go func() { // the re-indexer
				defer wg.Done()
				for v := 1; v < 300 && !stop.Load(); v++ {
					if err := m.ReplaceDocument(bg, "live", version(v)...); err != nil {
						fail(err)
					}
				}
				stop.Store(true)
			}()
			wg.Add(1)
			go func() { // other writers
				defer wg.Done()
				rr := rand.New(rand.NewPCG(6, 6))
				for i := 0; !stop.Load(); i++ {
					recs := makeRecords(rr, 1, 3, 32)
					for j := range recs {
						recs[j].DocID = fmt.Sprintf("w%d", i%5)
						recs[j].ID = fmt.Sprintf("w%d-%d", i%5, j)
					}
					if err := m.Upsert(bg, recs...); err != nil {
						fail(err)
					}
					if i%3 == 0 {
						if err := m.DeleteDocument(bg, fmt.Sprintf("w%d", (i+2)%5)); err != nil {
							fail(err)
						}
					}
				}
			}()
			for g := range 3 { // readers
				wg.Add(1)
				go func() {
					defer wg.Done()
					rr := rand.New(rand.NewPCG(uint64(g), 7))
					for !stop.Load() {
						units, err := m.Range(bg, "live", 0, 100)
						if err != nil {
							fail(err)
							return
						}
						if err := sameVersion(units); err != nil {
							fail(err)
							return
						}
						hits, err := m.Query(bg, randVec(rr, 32), 50, vectorstore.Filter{DocIDs: []string{"live"}})
						if err != nil {
							fail(err)
							return
						}
						recs := make([]vectorstore.Record, len(hits))
						for i, h := range hits {
							recs[i] = h.Record
						}
						if err := sameVersion(recs); err != nil {
							fail(fmt.Errorf("query: %w", err))
							return
						}
						if _, err := m.Query(bg, randVec(rr, 32), 5, vectorstore.Filter{}); err != nil {
							fail(err)
						}
						if err := sameVersionHits(m.QueryKeywords(bg, "live", 50, vectorstore.Filter{})); err != nil {
							fail(fmt.Errorf("keywords: %w", err))
							return
						}
						vhits, khits, err := m.QueryHybrid(bg, randVec(rr, 32), "live", 12, vectorstore.Filter{DocIDs: []string{"live"}})
						if err == nil && len(vhits) > 0 && len(khits) > 0 && vhits[0].Text != khits[0].Text {
							err = fmt.Errorf("the vector search saw %q, the keyword search %q", vhits[0].Text, khits[0].Text)
						}
						if err := sameVersionHits(vhits, err); err != nil {
							fail(fmt.Errorf("hybrid, vector: %w", err))
							return
						}
						if err := sameVersionHits(khits, nil); err != nil {
							fail(fmt.Errorf("hybrid, keywords: %w", err))
							return
						}
						if _, err := m.QueryKeywords(bg, "unit document", 5, vectorstore.Filter{Metadata: map[string]string{"parity": "odd"}}); err != nil {
							fail(err)
						}
						_ = m.Len()
						if g == 0 {
							if err := m.Save(bg, io.Discard); err != nil {
								fail(err)
							}
						}
					}
				}()
			}
			wg.Wait()
			close(errc)
			for err := range errc {
				require.NoError(t, err)
			}
		})
	}
}

// sameVersionHits is sameVersion for the hits of a query that finds every
// unit of the live document.
func sameVersionHits(hits []vectorstore.Hit, err error) error {
	if err != nil {
		return err
	}
	recs := make([]vectorstore.Record, len(hits))
	for i, h := range hits {
		recs[i] = h.Record
	}
	return sameVersion(recs)
}

// sameVersion checks that records are all of one version of document
// "live" and, for a Range, that the version is complete.
func sameVersion(recs []vectorstore.Record) error {
	if len(recs) == 0 {
		return fmt.Errorf("no records of the live document")
	}
	first := recs[0].Text
	for _, r := range recs {
		if r.Text != first {
			return fmt.Errorf("mixed versions: %q and %q", first, r.Text)
		}
	}
	var v, n int
	fmt.Sscanf(strings.ReplaceAll(first, "/", " "), "live v%d %d", &v, &n)
	if len(recs) != n {
		return fmt.Errorf("version %d has %d units, saw %d", v, n, len(recs))
	}
	return nil
}
