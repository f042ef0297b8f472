package memory_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
	"github.com/stretchr/testify/require"
)

// clustered returns n vectors of dim around clusters random centres, each
// a centre plus Gaussian noise of the given spread per component
// relative to the centre's: nearest neighbours then have a cosine well
// below 1, as real embeddings do, rather than being near copies. With
// clusters == 0 the vectors are random directions, with no
// neighbourhoods at all.
func clustered(r *rand.Rand, n, dim, clusters int, spread float64) [][]float32 {
	centres := make([][]float32, clusters)
	for i := range centres {
		centres[i] = randVec(r, dim)
	}
	out := make([][]float32, n)
	for i := range out {
		v := randVec(r, dim)
		if clusters > 0 {
			c := centres[r.IntN(clusters)]
			for j := range v {
				v[j] = c[j] + float32(spread)*v[j]
			}
		}
		out[i] = v
	}
	return out
}

// annRecords makes records of vecs, in documents of ten,, each with metadata "m" from 0 to 99
// (uniform, unrelated to the vector) and "c" the record's number mod 7.
func annRecords(r *rand.Rand, vecs [][]float32) []vectorstore.Record {
	recs := make([]vectorstore.Record, len(vecs))
	for i, v := range vecs {
		recs[i] = vectorstore.Record{
			ID: fmt.Sprintf("r%06d", i), DocID: fmt.Sprintf("d%d", i/10), Index: i % 10, Vector: v,
			Metadata: map[string]string{"m": strconv.Itoa(r.IntN(100)), "c": strconv.Itoa(i % 7)},
		}
	}
	return recs
}

// pair returns an exact store and one with the index, holding recs.
func pair(t testing.TB, compact bool, idx memory.IndexConfig, recs []vectorstore.Record) (exact, ann *memory.Store) {
	t.Helper()
	exact, err := memory.New(memory.Config{Compact: compact})
	require.NoError(t, err)
	ann, err = memory.New(memory.Config{Compact: compact, Index: idx})
	require.NoError(t, err)
	require.NoError(t, exact.Upsert(bg, recs...))
	require.NoError(t, ann.Upsert(bg, recs...))
	return exact, ann
}

// recallAt returns the mean share of the exact store's top k that the
// indexed store returns, over the queries, with filter.
func recallAt(t testing.TB, exact, ann *memory.Store, queries [][]float32, k int, filter vectorstore.Filter) float64 {
	t.Helper()
	sum := 0.0
	for _, q := range queries {
		want, err := exact.Query(bg, q, k, filter)
		require.NoError(t, err)
		got, err := ann.Query(bg, q, k, filter)
		require.NoError(t, err)
		require.Len(t, got, len(want), "the index returned fewer hits than match")
		ids := map[string]bool{}
		for _, h := range want {
			ids[h.ID] = true
		}
		hit := 0
		for _, h := range got {
			if ids[h.ID] {
				hit++
			}
		}
		if len(want) > 0 {
			sum += float64(hit) / float64(len(want))
		} else {
			sum++
		}
	}
	return sum / float64(len(queries))
}

// The clustered test set: 1,000 clusters of 20 vectors of 64 components,
// whose nearest neighbours have a cosine of about 0.7, and on which
// recall@10 at 16 of 141 lists was 0.95 when written (0.99 at 32).
const testClusters, testSpread = 1000, 0.7

// TestIndexRecall checks recall@10 against exact search: high on
// clustered data at the default width, and exact results (the same hits,
// in the same order, with the same scores) when every list is probed, on
// clustered and random data alike.
func TestIndexRecall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds indexes of 20,000 vectors")
	}
	const n, dim = 20_000, 64
	for _, tt := range []struct {
		name       string
		clusters   int
		compact    bool
		minDefault float64 // the least recall at 16 lists
	}{
		{"clustered", testClusters, false, 0.9},
		{"clustered-compact", testClusters, true, 0.9},
		{"random", 0, true, 0.3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(tt.clusters)))
			vecs := clustered(r, n+50, dim, tt.clusters, testSpread)
			// 16 of 141 lists: DefaultProbes (32) would be more than a
			// fifth of this store, which the exact scan answers.
			exact, ann := pair(t, tt.compact, memory.IndexConfig{IVF: true, Probes: 16}, annRecords(r, vecs[:n]))
			lists, err := memory.CheckIndex(ann)
			require.NoError(t, err)
			require.InDelta(t, math.Sqrt(n), lists, 1, "lists")
			queries := vecs[n:]
			rec := recallAt(t, exact, ann, queries, 10, vectorstore.Filter{})
			t.Logf("recall@10 at 16 of %d lists: %.3f", lists, rec)
			require.GreaterOrEqual(t, rec, tt.minDefault)

			// Half the lists is more of the store than a list scan reads
			// faster than the exact scan, which answers instead; every
			// list is the index's scan at full width, exact too.
			for _, p := range []int{lists / 2, lists} {
				require.NoError(t, ann.SetProbes(p))
				memory.ForceFanOut(ann) // the lists shared among goroutines
				requireSame(t, exact, ann, queries)
			}
		})
	}
}

// requireSame checks that two stores give the same hits for the queries.
func requireSame(t *testing.T, exact, ann *memory.Store, queries [][]float32) {
	t.Helper()
	for _, q := range queries {
		want, err := exact.Query(bg, q, 10, vectorstore.Filter{})
		require.NoError(t, err)
		got, err := ann.Query(bg, q, 10, vectorstore.Filter{})
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
}

// randomFilter returns a filter on the metadata of annRecords: an equality,
// an In of several values, or a document list, of varied selectivity.
func annFilter(r *rand.Rand) vectorstore.Filter {
	switch r.IntN(4) {
	case 3:
		vals := make([]string, 1+r.IntN(60))
		for i := range vals {
			vals[i] = strconv.Itoa(r.IntN(100))
		}
		return vectorstore.Filter{Where: vectorstore.In("m", vals...)}
	case 0:
		return vectorstore.Filter{Metadata: map[string]string{"m": strconv.Itoa(r.IntN(100))}}
	case 1:
		vals := make([]string, 1+r.IntN(30))
		for i := range vals {
			vals[i] = strconv.Itoa(r.IntN(100))
		}
		return vectorstore.Filter{Where: vectorstore.In("m", vals...), Metadata: map[string]string{"c": strconv.Itoa(r.IntN(7))}}
	default:
		docs := make([]string, 1+r.IntN(300))
		for i := range docs {
			docs[i] = fmt.Sprintf("d%d", r.IntN(2000))
		}
		return vectorstore.Filter{DocIDs: docs}
	}
}

// TestIndexFilter checks filtered queries against brute force: every hit
// matches the filter, as many hits come back as match (up to k), and the
// recall of the exact store's filtered top k stays high, whether the
// filter is applied in the list scan or the allowed records are scanned
// exactly.
func TestIndexFilter(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an index of 20,000 vectors")
	}
	const n, dim, k = 20_000, 64, 10
	r := rand.New(rand.NewPCG(2, 2))
	vecs := clustered(r, n+100, dim, testClusters, testSpread)
	recs := annRecords(r, vecs[:n])
	// At 8 of 141 lists a filter that keeps more than 8/141 of the
	// records is applied in the list scan, a more selective one by an
	// exact scan of the records it keeps.
	exact, ann := pair(t, true, memory.IndexConfig{IVF: true, Probes: 8}, recs)
	unfiltered := recallAt(t, exact, ann, vecs[n:], k, vectorstore.Filter{})
	sum := 0.0
	for i, q := range vecs[n:] {
		f := annFilter(r)
		var matching int
		for _, rec := range recs {
			if f.Match(rec) {
				matching++
			}
		}
		got, err := ann.Query(bg, q, k, f)
		require.NoError(t, err)
		require.Len(t, got, min(k, matching), "query %d, filter %+v", i, f)
		for _, h := range got {
			require.True(t, f.Match(h.Record), "hit %s does not match %+v", h.ID, f)
		}
		sum += recallAt(t, exact, ann, [][]float32{q}, k, f)
	}
	rec := sum / 100
	t.Logf("recall@10 at 8 lists: %.3f unfiltered, %.3f filtered", unfiltered, rec)
	require.GreaterOrEqual(t, rec, unfiltered)
}

// TestIndexWrites checks that inserts, replacements and deletes keep the
// index consistent without a rebuild, and that at full width its results
// stay those of exact search; Retrain then rebuilds it.
func TestIndexWrites(t *testing.T) {
	const n, dim = 3000, 32
	r := rand.New(rand.NewPCG(3, 3))
	vecs := clustered(r, 2*n, dim, 40, 0.6)
	recs := annRecords(r, vecs[:n])
	exact, ann := pair(t, true, memory.IndexConfig{IVF: true, MinRecords: 1000, Probes: 1 << 20}, recs[:1500])
	memory.ForceFanOut(ann)
	lists, err := memory.CheckIndex(ann)
	require.NoError(t, err)
	require.Positive(t, lists)
	check := func(what string) {
		t.Helper()
		_, err := memory.CheckIndex(ann)
		require.NoError(t, err, what)
		for _, q := range vecs[n+1500 : n+1520] {
			want, err := exact.Query(bg, q, 10, vectorstore.Filter{})
			require.NoError(t, err)
			got, err := ann.Query(bg, q, 10, vectorstore.Filter{})
			require.NoError(t, err)
			require.Equal(t, want, got, what)
		}
	}
	both := func(f func(s *memory.Store) error) {
		t.Helper()
		require.NoError(t, f(exact))
		require.NoError(t, f(ann))
	}
	both(func(s *memory.Store) error { return s.Upsert(bg, recs[1500:2500]...) })
	check("inserts")
	moved := make([]vectorstore.Record, 300)
	for i := range moved {
		moved[i] = recs[r.IntN(2500)]
		moved[i].Vector = vecs[n+i]
	}
	both(func(s *memory.Store) error { return s.Upsert(bg, moved...) })
	check("replacements")
	for range 50 {
		id := recs[r.IntN(2500)].ID
		both(func(s *memory.Store) error { return s.Delete(bg, id) })
	}
	both(func(s *memory.Store) error { return s.DeleteDocument(bg, "d7") })
	d9 := slices.Clone(recs[2990:3000])
	for i := range d9 {
		d9[i].DocID = "d9"
	}
	both(func(s *memory.Store) error { return s.ReplaceDocument(bg, "d9", d9...) })
	check("deletes")
	require.NoError(t, ann.Retrain(bg))
	check("retrain")
	// Shrinking fourfold below MinRecords drops the index: the store is
	// searched exactly until it grows back.
	for i := 0; i < 2500; i += 100 {
		ids := make([]string, 100)
		for j := range ids {
			ids[j] = recs[i+j].ID
		}
		both(func(s *memory.Store) error { return s.Delete(bg, ids...) })
		check(fmt.Sprintf("shrunk to %d", ann.Len()))
	}
	lists, err = memory.CheckIndex(ann)
	require.NoError(t, err)
	require.Zero(t, lists, "an index kept below MinRecords")
	both(func(s *memory.Store) error { return s.Upsert(bg, recs...) })
	lists, err = memory.CheckIndex(ann)
	require.NoError(t, err)
	require.Equal(t, 55, lists, "trained again at 3,000 records")
	check("grown back")
}

// TestIndexConcurrent runs queries while writes change the store; run with
// -race.
func TestIndexConcurrent(t *testing.T) {
	const n, dim = 2000, 32
	r := rand.New(rand.NewPCG(4, 4))
	vecs := clustered(r, 2*n, dim, 30, 0.6)
	recs := annRecords(r, vecs[:n])
	ann, err := memory.New(memory.Config{Compact: true, Index: memory.IndexConfig{IVF: true, MinRecords: 500}})
	require.NoError(t, err)
	require.NoError(t, ann.Upsert(bg, recs[:1000]...))
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				hits, err := ann.Query(bg, vecs[n+w*200+i], 5, vectorstore.Filter{Metadata: map[string]string{"c": "3"}})
				if err == nil && len(hits) != 5 {
					err = fmt.Errorf("%d hits", len(hits))
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for i := 1000; i < n; i += 50 {
		require.NoError(t, ann.Upsert(bg, recs[i:i+50]...))
		require.NoError(t, ann.Delete(bg, recs[i-1000].ID))
		if i%500 == 0 {
			require.NoError(t, ann.Retrain(bg))
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	_, err = memory.CheckIndex(ann)
	require.NoError(t, err)
}

func TestIndexConfig(t *testing.T) {
	for _, c := range []memory.IndexConfig{
		{IVF: true, Lists: -1},
		{IVF: true, Lists: 1 << 17},
		{IVF: true, Probes: -1},
		{IVF: true, MinRecords: -1},
		{Lists: 10},
	} {
		_, err := memory.New(memory.Config{Index: c})
		require.True(t, errors.Is(err, memory.ErrConfig), "%+v: %v", c, err)
	}
	m, err := memory.New(memory.Config{Index: memory.IndexConfig{IVF: true, Probes: 3}})
	require.NoError(t, err)
	require.Equal(t, memory.IndexConfig{IVF: true, Probes: 3}, m.Config().Index)
	require.NoError(t, m.SetProbes(9))
	require.Equal(t, 9, m.Config().Index.Probes)
	require.ErrorIs(t, m.SetProbes(-1), memory.ErrConfig)
	require.NoError(t, m.Retrain(bg), "an empty store has nothing to train")
}

// TestIndexPersist checks that Save writes the index and Load installs it
// rather than training a new one: the store below was trained at 1,000
// records (32 lists) and has grown to 3,000, where a training would make
// 55 lists. A store without the index reads the same file, and damage to
// the index section is refused.
func TestIndexPersist(t *testing.T) {
	const dim = 32
	r := rand.New(rand.NewPCG(5, 5))
	vecs := clustered(r, 3100, dim, 40, 0.6)
	recs := annRecords(r, vecs[:3000])
	cfg := memory.Config{Compact: true, Index: memory.IndexConfig{IVF: true, MinRecords: 1000, Probes: 2}}
	m, err := memory.New(cfg)
	require.NoError(t, err)
	require.NoError(t, m.Upsert(bg, recs[:1000]...))
	require.NoError(t, m.Upsert(bg, recs[1000:]...))
	lists, err := memory.CheckIndex(m)
	require.NoError(t, err)
	require.Equal(t, 32, lists)
	var buf bytes.Buffer
	require.NoError(t, m.Save(bg, &buf))
	file := buf.Bytes()

	loaded, err := memory.Load(bg, bytes.NewReader(file), cfg)
	require.NoError(t, err)
	lists, err = memory.CheckIndex(loaded)
	require.NoError(t, err)
	require.Equal(t, 32, lists, "Load trained a new index")
	for _, q := range vecs[3000:] {
		want, err := m.Query(bg, q, 10, vectorstore.Filter{})
		require.NoError(t, err)
		got, err := loaded.Query(bg, q, 10, vectorstore.Filter{})
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
	var again bytes.Buffer
	require.NoError(t, loaded.Save(bg, &again))
	require.Equal(t, file, again.Bytes(), "a loaded store saves the same bytes")

	plain, err := memory.Load(bg, bytes.NewReader(file), memory.Config{})
	require.NoError(t, err)
	require.Equal(t, 3000, plain.Len())
	var noIndex bytes.Buffer
	require.NoError(t, plain.Save(bg, &noIndex))
	require.Less(t, noIndex.Len(), len(file), "a store without the index saves none")

	for _, at := range []int{noIndex.Len() + 1, len(file) - 300, len(file) - 2} {
		bad := bytes.Clone(file)
		bad[at] ^= 0x40
		_, err := memory.Load(bg, bytes.NewReader(bad), cfg)
		require.ErrorIs(t, err, memory.ErrCorrupt, "byte %d flipped", at)
	}
	_, err = memory.Load(bg, bytes.NewReader(file[:len(file)-10]), cfg)
	require.ErrorIs(t, err, memory.ErrCorrupt, "truncated")
}

// errAfter is a context whose Err is nil for its first calls and then
// context.Canceled, to cancel a call part way.
type errAfter struct {
	context.Context
	calls *atomic.Int32
	after int32
}

func (c errAfter) Err() error {
	if c.calls.Add(1) > c.after {
		return context.Canceled
	}
	return nil
}

// TestIndexRetrainCancelled checks that a Retrain cancelled part way
// leaves the index it would have replaced whole: trained at 1,000 records
// (32 lists), the store holds 3,000, where a new training makes 55.
func TestIndexRetrainCancelled(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	vecs := clustered(r, 3010, 16, 40, 0.6)
	recs := annRecords(r, vecs[:3000])
	m, err := memory.New(memory.Config{Index: memory.IndexConfig{IVF: true, MinRecords: 1000, Probes: 4}})
	require.NoError(t, err)
	require.NoError(t, m.Upsert(bg, recs[:1000]...))
	require.NoError(t, m.Upsert(bg, recs[1000:]...))
	before, err := m.Query(bg, vecs[3000], 10, vectorstore.Filter{})
	require.NoError(t, err)
	err = m.Retrain(errAfter{bg, new(atomic.Int32), 2})
	require.ErrorIs(t, err, context.Canceled)
	lists, err := memory.CheckIndex(m)
	require.NoError(t, err)
	require.Equal(t, 32, lists)
	after, err := m.Query(bg, vecs[3000], 10, vectorstore.Filter{})
	require.NoError(t, err)
	require.Equal(t, before, after)
	require.NoError(t, m.Retrain(bg))
	lists, err = memory.CheckIndex(m)
	require.NoError(t, err)
	require.Equal(t, 55, lists)
}
