package pgvector_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/ragkit/ragkit/vectorstore"
	"github.com/ragkit/ragkit/vectorstore/pgvector"
	"github.com/stretchr/testify/require"
)

// TestConfigErrors needs no server: New does not connect.
func TestConfigErrors(t *testing.T) {
	pool, err := pgxpool.New(bg, "postgres://127.0.0.1:1/none")
	require.NoError(t, err)
	defer pool.Close()
	long := string(make([]byte, 49))
	for _, tt := range []struct {
		cfg   pgvector.Config
		field string
	}{
		{pgvector.Config{Dimension: 3}, "Pool"},
		{pgvector.Config{Pool: pool}, "Dimension"},
		{pgvector.Config{Pool: pool, Dimension: pgvector.MaxDimension + 1}, "Dimension"},
		{pgvector.Config{Pool: pool, Dimension: pgvector.MaxHNSWDimension + 1, HNSW: true}, "Dimension"},
		{pgvector.Config{Pool: pool, Dimension: 3, HNSWM: -1}, "HNSWM"},
		{pgvector.Config{Pool: pool, Dimension: 3, HNSWEfConstruction: -1}, "HNSWEfConstruction"},
		{pgvector.Config{Pool: pool, Dimension: 3, BatchSize: -1}, "BatchSize"},
		{pgvector.Config{Pool: pool, Dimension: 3, Table: long}, "Table"},
		{pgvector.Config{Pool: pool, Dimension: 3, Table: "a\x00b"}, "Table"},
		{pgvector.Config{Pool: pool, Dimension: 3, Schema: "\xff"}, "Schema"},
		{pgvector.Config{Pool: pool, Dimension: 3, TextSearch: "x\x00"}, "TextSearch"},
	} {
		t.Run(tt.field, func(t *testing.T) {
			_, err := pgvector.New(tt.cfg)
			require.ErrorIs(t, err, pgvector.ErrConfig)
			require.ErrorContains(t, err, "pgvector: invalid configuration: "+tt.field+" is ")
		})
	}
	s, err := pgvector.New(pgvector.Config{Pool: pool, Dimension: 3})
	require.NoError(t, err)
	require.Equal(t, pgvector.Config{Pool: pool, Dimension: 3, Table: pgvector.DefaultTable,
		TextSearch: pgvector.DefaultTextSearch, BatchSize: pgvector.DefaultBatchSize}, s.Config())
	ctx, cancel := context.WithCancel(bg)
	cancel()
	require.ErrorIs(t, s.CreateSchema(ctx), context.Canceled)
	require.ErrorIs(t, s.CheckSchema(ctx), context.Canceled)
}

// TestSchema checks the table's name quoting, CheckSchema's refusals and
// the HNSW index.
func TestSchema(t *testing.T) {
	odd := newStore(t, pgvector.Config{Dimension: 2, Table: `Ragkit "Odd"; DROP TABLE x; --`})
	require.NoError(t, odd.Upsert(bg, vectorstore.Record{ID: "a", DocID: "d", Vector: []float32{1, 0}}))
	got, err := odd.Range(bg, "d", 0, 0)
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.NoError(t, odd.CheckSchema(bg))

	pool := testPool(t)
	missing, err := pgvector.New(pgvector.Config{Pool: pool, Dimension: 2, Table: "ragkit_no_such_table"})
	require.NoError(t, err)
	require.ErrorIs(t, missing.CheckSchema(bg), pgvector.ErrSchema)
	_, err = missing.Range(bg, "d", 0, 1)
	require.ErrorIs(t, err, pgvector.ErrSchema, "a query of a missing table")

	other, err := pgvector.New(pgvector.Config{Pool: pool, Dimension: 3, Table: odd.Config().Table})
	require.NoError(t, err)
	err = other.CheckSchema(bg)
	require.ErrorIs(t, err, pgvector.ErrSchema, "another dimension")
	require.ErrorIs(t, other.CreateSchema(bg), pgvector.ErrSchema, "CreateSchema over a table of another dimension")

	hnsw := newStore(t, pgvector.Config{Dimension: 8, HNSW: true, HNSWM: 8, HNSWEfConstruction: 32})
	var def string
	err = pool.QueryRow(bg, "SELECT indexdef FROM pg_indexes WHERE tablename = $1 AND indexname = $2",
		hnsw.Config().Table, hnsw.Config().Table+"_hnsw").Scan(&def)
	require.NoError(t, err)
	require.Contains(t, def, "hnsw (embedding vector_cosine_ops)")
	require.Contains(t, def, "m='8'")
	var recs []vectorstore.Record
	for i := range 50 {
		v := make([]float32, 8)
		v[i%8], v[(i+1)%8] = 1, float32(i)/50
		recs = append(recs, vectorstore.Record{ID: fmt.Sprint(i), DocID: "d", Index: i, Vector: v})
	}
	require.NoError(t, hnsw.Upsert(bg, recs...))
	hits, err := hnsw.Query(bg, recs[9].Vector, 5, vectorstore.Filter{})
	require.NoError(t, err)
	require.NotEmpty(t, hits)
	require.Equal(t, "9", hits[0].ID)
	for i := 1; i < len(hits); i++ {
		require.LessOrEqual(t, hits[i].Score, hits[i-1].Score)
	}
}

// TestNULRefused checks what PostgreSQL cannot store.
func TestNULRefused(t *testing.T) {
	s := newStore(t, pgvector.Config{Dimension: 2})
	// A stored record, so that a filter that dropped the NUL instead of
	// matching nothing would find it.
	require.NoError(t, s.Upsert(bg, vectorstore.Record{ID: "a", DocID: "d", Text: "x y", Vector: []float32{1, 0}}))
	for field, rec := range map[string]vectorstore.Record{
		"ID":       {ID: "a\x00", DocID: "d", Vector: []float32{1, 0}},
		"DocID":    {ID: "a", DocID: "d\x00", Vector: []float32{1, 0}},
		"Text":     {ID: "a", DocID: "d", Text: "x\x00y", Vector: []float32{1, 0}},
		"Metadata": {ID: "a", DocID: "d", Vector: []float32{1, 0}, Metadata: map[string]string{"k": "\x00"}},
	} {
		var re *vectorstore.RecordError
		require.ErrorAs(t, s.Upsert(bg, rec), &re, field)
		require.Equal(t, field, re.Field)
	}
	hits, err := s.Query(bg, []float32{1, 0}, 3, vectorstore.Filter{DocIDs: []string{"d\x00"}})
	require.NoError(t, err)
	require.Empty(t, hits)
	_, err = s.Range(bg, "d\x00", 0, 3)
	require.ErrorIs(t, err, vectorstore.ErrNotFound)
	require.NoError(t, s.DeleteDocument(bg, "\x00"))
	kh, err := s.QueryKeywords(bg, "a\x00b", 3, vectorstore.Filter{})
	require.NoError(t, err)
	require.Empty(t, kh)
}
