package pgvector_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/pgvector"
	"github.com/stretchr/testify/require"
)

// TestKeywordsNonStandardStrings is a regression test: the keyword query
// wrote a backslash as the literal '\', which a session with
// standard_conforming_strings = off reads as an unterminated string, so
// every keyword query failed there.
func TestKeywordsNonStandardStrings(t *testing.T) {
	p := testPool(t)
	if p.Config().MaxConns > 1 {
		// SET reaches one connection of a pool: use a pool of one.
		cfg := p.Config().Copy()
		cfg.MaxConns = 1
		var err error
		p, err = pgxpool.NewWithConfig(bg, cfg)
		require.NoError(t, err)
		t.Cleanup(p.Close)
	}
	_, err := p.Exec(bg, "SET standard_conforming_strings = off")
	require.NoError(t, err)
	defer func() {
		_, err := p.Exec(context.Background(), "RESET standard_conforming_strings")
		require.NoError(t, err)
	}()
	var setting string
	require.NoError(t, p.QueryRow(bg, "SHOW standard_conforming_strings").Scan(&setting))
	require.Equal(t, "off", setting)

	s := newStore(t, pgvector.Config{Pool: p, Dimension: 2})
	require.NoError(t, s.Upsert(bg,
		vectorstore.Record{ID: "a", DocID: "d", Text: `the invoice path is C:\bills\march`, Vector: []float32{1, 0}},
		vectorstore.Record{ID: "b", DocID: "d", Index: 1, Text: "an unrelated record", Vector: []float32{0, 1}}))
	for _, q := range []string{"invoices", `C:\bills`, `it's \'quoted\'`} {
		hits, err := s.QueryKeywords(bg, q, 5, vectorstore.Filter{})
		require.NoError(t, err, "query %q", q)
		if q != `it's \'quoted\'` {
			require.Len(t, hits, 1, "query %q", q)
			require.Equal(t, "a", hits[0].ID)
		}
	}
}
