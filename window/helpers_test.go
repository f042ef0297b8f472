package window_test

import (
	"context"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ragkit/ragkit/document"
	"github.com/ragkit/ragkit/ingest"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/memory"
)

// counting is a Source that counts the Range calls reaching a store.
type counting struct {
	store  *memory.Store
	ranges atomic.Int64
	fail   error
}

func (c *counting) Range(ctx context.Context, docID string, from, to int) ([]vectorstore.Record, error) {
	c.ranges.Add(1)
	if c.fail != nil {
		return nil, c.fail
	}
	return c.store.Range(ctx, docID, from, to)
}

func (c *counting) calls() int64 { return c.ranges.Load() }

// embed gives every record a vector, so that a Memory takes it.
func embed(recs []vectorstore.Record) {
	for i := range recs {
		recs[i].Vector = []float32{1, float32(recs[i].Index%7) + 0.5, float32(len(recs[i].Text))}
	}
}

// storeOf returns a counting source over a Memory holding the sentence
// units of each document.
func storeOf(t testing.TB, docs map[string]string) (*counting, map[string][]vectorstore.Record) {
	t.Helper()
	m, err := memory.New(memory.Config{})
	require.NoError(t, err)
	units := map[string][]vectorstore.Record{}
	for id, text := range docs {
		recs, err := sentenceUnits(id, text)
		require.NoError(t, err)
		embed(recs)
		require.NoError(t, m.Upsert(context.Background(), recs...))
		units[id] = recs
	}
	return &counting{store: m}, units
}

// sentenceUnits cuts a document into sentence units as ingest writes
// them, with IDs "docID#i" that tests can name.
func sentenceUnits(id, text string) ([]vectorstore.Record, error) {
	doc := document.Document{ID: id, Text: text}
	cs, err := ingest.Sentences(context.Background(), doc)
	if err != nil {
		return nil, err
	}
	recs, err := ingest.Records(doc, ingest.Plain(cs), make([][]float32, len(cs)))
	for i := range recs {
		recs[i].ID = id + "#" + strconv.Itoa(i)
	}
	return recs, err
}

// numbered is a document of n short sentences "S0 a." "S1 b." ...
func numbered(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString("Sentence ")
		b.WriteString(strings.Repeat("x", 1+i%3))
		b.WriteString(" number ")
		b.WriteString(strconv.Itoa(i))
		b.WriteString(".")
	}
	return b.String()
}

// hit makes a hit on unit i of a document.
func hit(units map[string][]vectorstore.Record, doc string, i int, score float32) vectorstore.Hit {
	return vectorstore.Hit{Record: units[doc][i], Score: score}
}
