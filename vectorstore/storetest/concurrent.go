package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/stretchr/testify/require"
)

// cancelled checks that every method fails with a cancelled context, with
// an error wrapping context.Canceled, and changes nothing.
func (s suite) cancelled(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	recs := makeRecords(r, 3, 5, 4)
	st := s.store(t, 4, recs...)
	ctx, cancel := context.WithCancel(bg)
	cancel()
	fresh := vectorstore.Record{ID: "fresh", DocID: "d0", Index: 1, Vector: []float32{1, 2, 3, 4}}
	calls := map[string]func() error{
		"Upsert":         func() error { return st.Upsert(ctx, fresh) },
		"DeleteDocument": func() error { return st.DeleteDocument(ctx, "d1") },
		"Query":          func() error { _, err := st.Query(ctx, recs[0].Vector, 3, vectorstore.Filter{}); return err },
		"Range":          func() error { _, err := st.Range(ctx, "d1", 0, 5); return err },
	}
	if rp, ok := st.(vectorstore.DocumentReplacer); ok {
		calls["ReplaceDocument"] = func() error { return rp.ReplaceDocument(ctx, "d0", fresh) }
	}
	if kq, ok := st.(vectorstore.KeywordQuerier); ok {
		calls["QueryKeywords"] = func() error { _, err := kq.QueryKeywords(ctx, "unit", 3, vectorstore.Filter{}); return err }
	}
	for name, call := range calls {
		require.ErrorIs(t, call(), context.Canceled, "%s with a cancelled context", name)
	}
	for d := range 3 {
		doc := fmt.Sprintf("d%d", d)
		got, err := st.Range(bg, doc, 0, 10)
		require.NoError(t, err)
		require.Equal(t, recordIDs(inRange(recs, doc, 0, 10)), recordIDs(got), "cancelled calls changed %s", doc)
	}
}

// concurrent runs writers and readers at once (run it with -race). One
// writer re-indexes document "live" over and over, each version with
// another number of units whose texts name the version; with a
// DocumentReplacer, no reader may see two versions or a version cut
// short. Other writers upsert and delete documents of their own.
func (s suite) concurrent(t *testing.T) {
	const dim, versions = 8, 40
	r := rand.New(rand.NewPCG(5, 5))
	st := s.store(t, dim, makeRecords(r, 4, 10, dim)...)
	rp, replaces := st.(vectorstore.DocumentReplacer)
	version := func(v int) []vectorstore.Record {
		rr := rand.New(rand.NewPCG(uint64(v), 0))
		recs := make([]vectorstore.Record, 3+v%5)
		for i := range recs {
			recs[i] = vectorstore.Record{
				ID: fmt.Sprintf("live-%d-%d", v, i), DocID: "live", Index: i,
				Text: fmt.Sprintf("v%d/%d", v, len(recs)), Vector: randVec(rr, dim),
			}
		}
		return recs
	}
	require.NoError(t, st.Upsert(bg, version(0)...))
	var g group
	g.run(func() error { // the re-indexer
		for v := 1; v < versions && !g.stopped(); v++ {
			var err error
			if replaces {
				err = rp.ReplaceDocument(bg, "live", version(v)...)
			} else if err = st.DeleteDocument(bg, "live"); err == nil {
				err = st.Upsert(bg, version(v)...)
			}
			if err != nil {
				return err
			}
		}
		g.stop()
		return nil
	})
	for w := range 2 { // writers of their own documents
		g.run(func() error {
			rr := rand.New(rand.NewPCG(uint64(w), 7))
			for i := 0; !g.stopped(); i++ {
				doc := fmt.Sprintf("w%d-%d", w, i%3)
				recs := makeRecords(rr, 1, 4, dim)
				for j := range recs {
					recs[j].DocID, recs[j].ID = doc, fmt.Sprintf("%s-%d", doc, j)
				}
				if err := st.Upsert(bg, recs...); err != nil {
					return err
				}
				if err := st.DeleteDocument(bg, fmt.Sprintf("w%d-%d", w, (i+1)%3)); err != nil {
					return err
				}
			}
			return nil
		})
	}
	for range 2 { // readers
		g.run(func() error {
			rr := rand.New(rand.NewPCG(6, 6))
			for !g.stopped() {
				if err := readLive(st, randVec(rr, dim), replaces); err != nil {
					return err
				}
			}
			return nil
		})
	}
	require.NoError(t, g.wait())
	got, err := st.Range(bg, "live", 0, 100)
	require.NoError(t, err)
	require.Equal(t, recordIDs(version(versions-1)), recordIDs(got), "the last version")
}

// readLive reads document "live" by Range and by Query and, if whole is
// set, checks that what it read is one whole version.
func readLive(st vectorstore.VectorStore, q []float32, whole bool) error {
	recs, err := st.Range(bg, "live", 0, 100)
	if !whole && errors.Is(err, vectorstore.ErrNotFound) {
		return nil // between DeleteDocument and Upsert
	}
	if err != nil {
		return fmt.Errorf("Range: %w", err)
	}
	hits, err := st.Query(bg, q, 100, vectorstore.Filter{DocIDs: []string{"live"}})
	if err != nil {
		return fmt.Errorf("Query: %w", err)
	}
	if !whole {
		return nil
	}
	for i := range hits {
		recs = append(recs, hits[i].Record)
	}
	n := len(recs) - len(hits)
	if err := oneVersion(recs[:n]); err != nil {
		return fmt.Errorf("Range: %w", err)
	}
	if err := oneVersion(recs[n:]); err != nil {
		return fmt.Errorf("Query: %w", err)
	}
	return nil
}

// oneVersion reports an error unless recs are every unit of one version
// of document "live".
func oneVersion(recs []vectorstore.Record) error {
	if len(recs) == 0 {
		return fmt.Errorf("no units of the document")
	}
	text := recs[0].Text
	_, total, _ := strings.Cut(text, "/")
	if fmt.Sprint(len(recs)) != total {
		return fmt.Errorf("%d units of version %q", len(recs), text)
	}
	for _, r := range recs {
		if r.Text != text {
			return fmt.Errorf("versions %q and %q mixed", text, r.Text)
		}
	}
	return nil
}

// group runs goroutines until one fails or one calls stop, and keeps the
// first error.
type group struct {
	wg   sync.WaitGroup
	halt atomic.Bool
	once sync.Once
	err  error
}

func (g *group) run(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.once.Do(func() { g.err = err })
			g.stop()
		}
	}()
}

func (g *group) stop()         { g.halt.Store(true) }
func (g *group) stopped() bool { return g.halt.Load() }

func (g *group) wait() error {
	g.wg.Wait()
	return g.err
}
