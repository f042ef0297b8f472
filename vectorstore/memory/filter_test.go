package memory_test

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// Queries with Where filters running beside writes see the index of the
// store as it is: each writer flips the "v" of every record of its
// document at once, so a query for v = x finds a whole document or none
// of it, never a mix (a stale index would give old records). Run with
// -race, it also checks that the index built under the read lock is safe.
func TestFilterConcurrentWrites(t *testing.T) {
	var m memory.Store
	write := func(doc string, v int) {
		recs := make([]vectorstore.Record, 8)
		for i := range recs {
			recs[i] = vectorstore.Record{ID: fmt.Sprintf("%s-%d", doc, i), DocID: doc, Index: i, Text: "unit",
				Vector: []float32{1, float32(i)}, Metadata: map[string]string{"v": strconv.Itoa(v)}}
		}
		require.NoError(t, m.ReplaceDocument(bg, doc, recs...))
	}
	for _, d := range []string{"a", "b"} {
		write(d, 0)
	}
	done := make(chan struct{})
	errs := make(chan error, 4)
	for g := range 3 {
		go func() {
			defer func() { errs <- nil }()
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				f := vectorstore.Filter{Where: vectorstore.Or(vectorstore.Between("v", float64(i%4), float64(i%4)), vectorstore.In("v", strconv.Itoa((i+g)%4)))}
				hits, err := m.Query(bg, []float32{1, 0}, 100, f)
				if err != nil {
					errs <- err
					return
				}
				count := map[string]int{}
				for _, h := range hits {
					if !f.Match(h.Record) {
						errs <- fmt.Errorf("hit %s with v=%s passed %+v", h.ID, h.Metadata["v"], f)
						return
					}
					count[h.Metadata["v"]+h.DocID]++
				}
				for k, c := range count {
					if c != 8 {
						errs <- fmt.Errorf("%d records of %s: a document half written", c, k)
						return
					}
				}
			}
		}()
	}
	for i := range 300 {
		write([]string{"a", "b"}[i%2], i%4)
	}
	close(done)
	for range 3 {
		require.NoError(t, <-errs)
	}
}
