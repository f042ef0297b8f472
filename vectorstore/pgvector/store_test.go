package pgvector_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
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

// TestMigration brings a table of the layout before records had
// provenance (as SchemaSQL made it then, with a row as ingest wrote it)
// up to date with MigrationSQL: the library's keys move out of metadata
// into the columns and notes, the caller's stay, and keyword search reads
// the header from the notes.
func TestMigration(t *testing.T) {
	p := testPool(t)
	table := fmt.Sprintf("ragkit_test_%d_%d", os.Getpid(), tables.Add(1))
	tid := pgx.Identifier{table}.Sanitize()
	t.Cleanup(func() {
		_, err := p.Exec(bg, "DROP TABLE IF EXISTS "+tid)
		require.NoError(t, err)
	})
	for _, stmt := range []string{
		`CREATE TABLE ` + tid + ` (id text PRIMARY KEY, doc_id text NOT NULL, idx bigint NOT NULL, start_byte bigint NOT NULL,
	end_byte bigint NOT NULL, text text NOT NULL, metadata jsonb NOT NULL, embedding vector(2) NOT NULL,
	tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text || ' ' || coalesce(metadata->>'vectorstore.keywords', ''))) STORED)`,
		`INSERT INTO ` + tid + ` VALUES ('a', 'guide', 0, 0, 5, 'Trim the wick.', '{"team": "keepers", "document.title": "Guide",
	"document.section": "Install\nLinux", "loader.path": "docs/guide.md", "vectorstore.keywords": "Lighthouse handbook",
	"window.gap": "\n\n", "ingest.embed": "e", "ingest.doc": "f", "ingest.summary": "s", "ingest.summary.of": "o"}', '[1,0]')`,
	} {
		_, err := p.Exec(bg, stmt)
		require.NoError(t, err)
	}
	s, err := pgvector.New(pgvector.Config{Pool: p, Table: table, Dimension: 2})
	require.NoError(t, err)
	require.ErrorIs(t, s.CheckSchema(bg), pgvector.ErrSchema, "the old layout")
	tx, err := p.Begin(bg)
	require.NoError(t, err)
	for _, stmt := range s.MigrationSQL() {
		_, err := tx.Exec(bg, stmt)
		require.NoError(t, err, stmt)
	}
	require.NoError(t, tx.Commit(bg))
	require.NoError(t, s.CheckSchema(bg))
	recs, err := s.Range(bg, "guide", 0, 0)
	require.NoError(t, err)
	require.Len(t, recs, 1)
	r := recs[0]
	require.Equal(t, map[string]string{"team": "keepers"}, r.Metadata)
	require.Equal(t, "Guide", r.Title)
	require.Equal(t, []string{"Install", "Linux"}, r.Section)
	require.Equal(t, "docs/guide.md", r.Source)
	require.Equal(t, vectorstore.Notes{Keywords: "Lighthouse handbook", Gap: "\n\n", Embed: "e", Fingerprint: "f", Summary: "s", SummaryOf: "o"}, r.Notes)
	hits, err := s.QueryKeywords(bg, "handbook", 3, vectorstore.Filter{Section: []string{"Install"}})
	require.NoError(t, err)
	require.Len(t, hits, 1)
}
